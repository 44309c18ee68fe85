import { formatMergeError, isMergeError, type MergeError, toPlain } from "@merge/core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createMysqlPillar, type MysqlPillarOptions, mysqlPillar, shapeRows } from "../../src/index.js";
import {
  createTestDatabase,
  describeWithServer,
  settingsFor,
  type TestDatabase,
  unusedPort,
  waitForQuery,
} from "../../src/test-db.js";
import { expectPristine, ownHostileKeys } from "../../../../test-kit/hostile.js";
import { figure, reportCounts, tally } from "../../../../test-kit/tally.js";

reportCounts("@merge/source-mysql", import.meta.url);

async function failure(promise: Promise<unknown>): Promise<MergeError> {
  try {
    await promise;
  } catch (error) {
    if (isMergeError(error)) return error;
    throw new Error(`expected a MergeError, got ${String(error)}`);
  }
  throw new Error("expected the fetch to fail");
}

/** Minion ids that would change the meaning of a query if they were spliced into its text. */
const HOSTILE_IDS = [
  "' OR '1'='1",
  "' OR 1=1 -- ",
  '" OR "1"="1',
  "'; DROP TABLE hpillar; --",
  "web01' UNION SELECT minion, k, v FROM hpillar -- ",
  "%s",
  "%s%s%s",
  "%(id)s",
  "?",
  "\\",
  "\\'",
  "\\\\' OR 1=1 #",
  "%",
  "_",
  "web0_",
  "\u0000",
  "a\u0000' OR '1'='1",
  "\u00e9t\u00e9",
  "\u{1F600}\u{1F4A9}",
  "\u202eevil",
  "\u0130stanbul",
  "'".repeat(500),
  "x".repeat(10_240),
  "\u00e9".repeat(5_000),
  "__proto__",
  "constructor",
  "web01\n' OR '1'='1",
  "0x27",
  "CHAR(39)",
  "web01",
];

// A distinctive password: if it ever shows in a message, the test sees it.
const SECRET_PASSWORD = "Sup3r-S3cret-Passw0rd-Never-Print";

describeWithServer("MySQL hardening against a real server", (server) => {
  let db: TestDatabase;
  const settings = () => settingsFor(server, db.name);

  beforeAll(async () => {
    db = await createTestDatabase(server, "hardening");
    await db.admin.query(`
      CREATE TABLE hpillar (id INT AUTO_INCREMENT PRIMARY KEY, minion VARCHAR(12000) NOT NULL, k VARCHAR(64),
        v TEXT) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;
      CREATE TABLE lockme (id INT PRIMARY KEY, v VARCHAR(8)) ENGINE=InnoDB;
      INSERT INTO lockme VALUES (1, 'x');
    `);
    for (const [index, id] of HOSTILE_IDS.entries()) {
      await db.admin.query("INSERT INTO hpillar (minion, k, v) VALUES (?, 'own', ?)", [id, `row-${index}`]);
    }
  });

  afterAll(async () => {
    await db?.drop();
  });

  it("treats hostile minion ids only as data: each gets exactly its own row", async () => {
    const pillar = createMysqlPillar({
      connection: settings(),
      queries: {
        byPercent: "SELECT k, v FROM hpillar WHERE minion = %s",
        byQuestion: "SELECT k, v FROM hpillar WHERE minion = ?",
        twice: "SELECT k, v FROM hpillar WHERE minion = %s AND %s = minion",
      },
    });
    let cases = 0;
    try {
      for (const [index, id] of HOSTILE_IDS.entries()) {
        // NUL bytes: MariaDB compares them as data too; a row with that exact id exists.
        const result = await pillar.fetch(id);
        const own = { own: `row-${index}` };
        expect(result).toEqual({ byPercent: own, byQuestion: own, twice: own });
        cases++;
      }
      // The table is still there with every row.
      const [rows] = await db.admin.query("SELECT COUNT(*) AS n FROM hpillar");
      expect(Number((rows as { n: number }[])[0]?.n)).toBe(HOSTILE_IDS.length);
    } finally {
      await pillar.close();
    }
    tally("sql", cases);
  });

  it("keeps hostile column names and values as data keys, at any depth", async () => {
    const queries = [
      "SELECT 'k', 'a' AS `__proto__`, 'b' AS `constructor`, 'c' AS `prototype` FROM DUAL WHERE %s <> ''",
      "SELECT '__proto__', 'polluted', 1 FROM DUAL WHERE %s <> ''",
      "SELECT 'constructor', 'prototype', 'isAdmin', 1 FROM DUAL WHERE %s <> ''",
      "SELECT 'x', '__proto__' AS `__proto__`, 'hacked' AS `constructor` FROM DUAL WHERE %s <> ''",
      "SELECT NULL, '__proto__', 2 FROM DUAL WHERE %s <> ''",
    ];
    let cases = 0;
    for (const query of queries) {
      let hostile = 0;
      for (const options of [{}, { as_list: true }, { with_lists: "1" }, { depth: 1 }]) {
        // The first query shows its column names only as the keys below a depth of 1.
        const depth = query.includes("AS `__proto__`, 'b'") ? { depth: 1 } : {};
        const result = await mysqlPillar(
          "web01",
          {},
          { connection: settings(), queries: { q: { query, ...options, ...depth } } },
        );
        // with_lists turns a level into a list of values, so the keys may go: count over all the options.
        hostile += ownHostileKeys(result).length;
        expectPristine();
        cases++;
      }
      expect(hostile).toBeGreaterThan(0);
    }
    // The shaper alone, with hostile field names and values.
    const shaped = shapeRows(
      ["__proto__", "constructor", "prototype"],
      [["__proto__", "constructor", "polluted"]],
      {},
    );
    expect(ownHostileKeys(toPlain(shaped)).length).toBeGreaterThan(0);
    expect(shaped.has("__proto__")).toBe(true);
    expectPristine();
    tally("pollution", cases + 1);
  });

  function expectClean(error: MergeError, password: string): void {
    const text = [
      error.message,
      JSON.stringify(error.details ?? {}),
      String(error.cause ?? ""),
      error.stack ?? "",
    ].join("\n");
    expect(text).not.toContain(password);
    expect(error.code).toMatch(/^SQL_/);
  }

  it("reports each connection fault with its own code, blames no query, never shows the password", async () => {
    const query = "SELECT k, v FROM hpillar WHERE minion = %s";
    const port = await unusedPort();
    const cases: [string, Partial<MysqlPillarOptions>, string][] = [
      ["stopped server", { connection: { ...settings(), port, password: SECRET_PASSWORD } }, "SQL_CONNECT"],
      ["wrong password", { connection: { ...settings(), password: SECRET_PASSWORD } }, "SQL_AUTH"],
      [
        "unknown user",
        { connection: { ...settings(), user: "nobody_here", password: SECRET_PASSWORD } },
        "SQL_AUTH",
      ],
      [
        "unknown database",
        { connection: { ...settings(), database: "no_such_db_hardening", password: server.password } },
        "SQL_UNKNOWN_DATABASE",
      ],
    ];
    for (const [name, options, code] of cases) {
      const error = await failure(mysqlPillar("web01", {}, { queries: { named_query: query }, ...options }));
      expect(error.code, name).toBe(code);
      // The server, the login or the database is at fault, not the query: it is not named.
      expect(formatMergeError(error), name).not.toContain("named_query");
      expect(formatMergeError(error), name).toMatch(/^the MySQL server at 127\.0\.0\.1:\d+ |^cannot connect/);
      expectClean(error, SECRET_PASSWORD);
      // The real password of the test server must not leak either.
      expectClean(error, server.password);
    }
    tally("faults", cases.length);
  });

  it("stops a query that never returns, a killed connection and a lock wait, and the pool keeps serving", async () => {
    const pillar = createMysqlPillar({
      connection: settings(),
      connectionLimit: 2,
      queryTimeout: 1500,
      queries: {
        slow: "SELECT k, IF(%s = 'sleep', SLEEP(60), v) FROM hpillar WHERE minion = %s OR (%s = 'sleep' AND id = 1)",
      },
    });
    let cases = 0;
    try {
      // A query that never returns: stopped by the timeout, named in the message.
      const timeout = await failure(pillar.fetch("sleep"));
      expect(timeout.code).toBe("SQL_TIMEOUT");
      expect(formatMergeError(timeout)).toMatch(/^query "slow": did not finish within 1500 ms: SELECT k, IF/);
      expectClean(timeout, server.password);
      cases++;

      // A connection killed from a second connection while the query runs.
      const marker = `hardening_kill_${Date.now()}`;
      const killed = createMysqlPillar({
        connection: settings(),
        queries: { victim: `SELECT '${marker}', SLEEP(30) FROM DUAL WHERE %s <> ''` },
      });
      const pending = failure(killed.fetch("web01"));
      const id = await waitForQuery(db.admin, marker, pending);
      await db.admin.query(`KILL CONNECTION ${id}`);
      const lost = await pending;
      expect(lost.code).toBe("SQL_CONNECTION_LOST");
      expect(formatMergeError(lost)).toMatch(/^lost the connection .* while query "victim" ran: /);
      expectClean(lost, server.password);
      await killed.close();
      cases++;

      // A lock wait timeout.
      const holder = await db.connect();
      try {
        await holder.query("START TRANSACTION");
        await holder.query("SELECT * FROM lockme WHERE id = 1 FOR UPDATE");
        const error = await failure(
          mysqlPillar(
            "web01",
            {},
            {
              connection: settings(),
              queries: {
                locked:
                  "SET STATEMENT innodb_lock_wait_timeout=1 FOR SELECT id, v FROM lockme WHERE id = 1 AND %s <> '' FOR UPDATE",
              },
            },
          ),
        );
        expect(error.code).toBe("SQL_LOCK_TIMEOUT");
        expect(formatMergeError(error)).toMatch(
          /^query "locked": gave up waiting for a lock: Lock wait timeout/,
        );
        expectClean(error, server.password);
        cases++;
      } finally {
        await holder.query("ROLLBACK");
        await holder.end();
      }

      // After all that, the first pool still answers correctly.
      expect(await pillar.fetch("web01")).toEqual({ slow: { own: `row-${HOSTILE_IDS.indexOf("web01")}` } });
      cases++;
    } finally {
      await pillar.close();
    }
    tally("faults", cases);
  });

  it("serves 1,000 concurrent fetches through one pool of 5 connections, every result correct", async () => {
    const limit = 5;
    const pillar = createMysqlPillar({
      connection: settings(),
      connectionLimit: limit,
      queries: { own: "SELECT k, v FROM hpillar WHERE minion = %s" },
    });
    let peak = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const [rows] = await db.admin.query(
          "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE DB = ? AND ID <> CONNECTION_ID()",
          [db.name],
        );
        peak = Math.max(peak, Number((rows as { n: number }[])[0]?.n));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    let results: Record<string, unknown>[];
    try {
      const ids = Array.from({ length: 1000 }, (_, i) => HOSTILE_IDS[i % HOSTILE_IDS.length]!);
      results = await Promise.all(ids.map((id) => pillar.fetch(id)));
      results.forEach((result, i) => {
        expect(result).toEqual({ own: { own: `row-${i % HOSTILE_IDS.length}` } });
      });
    } finally {
      sampling = false;
      await sampler;
      await pillar.close();
    }
    const seconds = (performance.now() - started) / 1000;
    const heapGrowth = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(limit);
    figure("source-mysql: 1,000 concurrent fetches (s)", Number(seconds.toFixed(2)));
    figure("source-mysql: peak server connections of the pool", peak);
    figure("source-mysql: heap growth during the fetches (MB)", Math.round(heapGrowth));
    tally("load", results.length);
  });
});
