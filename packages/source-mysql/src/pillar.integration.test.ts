import { isMergeError, type MergeError, PyDict } from "@merge/core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createMysqlPillar, type MysqlPillarOptions, mysqlPillar } from "./pillar.js";
import {
  createTestDatabase,
  describeWithServer,
  settingsFor,
  type TestDatabase,
  unusedPort,
  waitForQuery,
} from "./test-db.js";

const SCHEMA = new URL("../../../examples/mysql/schema.sql", import.meta.url);
const FIXTURES = new URL("../../../examples/mysql/fixtures.sql", import.meta.url);

async function failure(promise: Promise<unknown>): Promise<MergeError> {
  try {
    await promise;
  } catch (error) {
    if (isMergeError(error)) return error;
    throw new Error(`expected a MergeError, got ${String(error)}`);
  }
  throw new Error("expected the fetch to fail");
}

describeWithServer("MySQL pillar against a real server", (server) => {
  let db: TestDatabase;
  const run = (minion: string, queries: unknown, extra: Partial<MysqlPillarOptions> = {}) =>
    mysqlPillar(minion, {}, { connection: settingsFor(server, db.name), queries, ...extra });

  beforeAll(async () => {
    db = await createTestDatabase(server, "pillar");
    await db.load(SCHEMA);
    await db.load(FIXTURES);
    await db.admin.query(`
      CREATE TABLE kinds (
        id INT PRIMARY KEY, i INT, ti TINYINT, big BIGINT, ubig BIGINT UNSIGNED, dec1 DECIMAL(12,2),
        f FLOAT, d DOUBLE, da DATE, dt DATETIME, dt3 DATETIME(3), tm TIME, ts TIMESTAMP NULL, yr YEAR,
        j JSON, b BLOB, vb VARBINARY(8), bits BIT(4), tx TEXT, en ENUM('on','off'), st SET('a','b'), n INT NULL
      );
      INSERT INTO kinds VALUES (1, -42, 1, 9007199254740993, 18446744073709551615, 1234567890.25,
        1.1, 0.1, '2024-02-29', '2024-02-29 13:14:15', '2024-02-29 13:14:15.678', '-01:02:03',
        '2024-02-29 13:14:15', 2024, '{"a": [1, 2.5, null]}', X'00FF10', X'6869', b'1010', 'h\u00e9llo \u{1F600}',
        'off', 'a,b', NULL);
      CREATE TABLE floats (id INT PRIMARY KEY, v FLOAT);
      INSERT INTO floats VALUES (1, 1.1), (2, 3.14159265), (3, 123456789), (4, 0.000123456789), (5, 16777217),
        (6, -7.25e-5), (7, 999999.5), (8, 3.4e38), (9, NULL);
      CREATE TABLE lockme (id INT PRIMARY KEY, v VARCHAR(8)) ENGINE=InnoDB;
      INSERT INTO lockme VALUES (1, 'x');
      CREATE TABLE jdocs (id INT PRIMARY KEY, minion VARCHAR(32), doc JSON, txt TEXT, bin BLOB);
      INSERT INTO jdocs VALUES
        (1, 'web01', '{"nginx": {"port": 80, "sites": ["a"]}, "big": 12345678901234567890}',
           '{"nginx": {"sites": ["b", "a"]}, "motd": "hi"}', '{"nginx": {"tls": true}}'),
        (2, 'web01', '{"nginx": {"port": 443, "sites": ["c"]}, "ratio": 0.5}', '{"n": NaN, "motd": "bye"}', NULL),
        (3, 'bad', NULL, '{"a": 1,}', X'7BFF7D'),
        (4, 'list', NULL, '[1, 2]', NULL);
    `);
  });

  afterAll(async () => {
    await db?.drop();
  });

  it("runs the legacy mysql_query at the root", async () => {
    expect(
      await run("web01", {
        mysql_query: "SELECT pillar,value FROM pillars WHERE minion_id = %s ORDER BY id",
      }),
    ).toEqual({ role: "webserver", env: "prod", motd: null });
  });

  it("runs a list of queries into the root, later rows and queries overwriting earlier ones", async () => {
    expect(
      await run("web01", [
        "SELECT pillar,value FROM pillars WHERE minion_id = %s",
        "SELECT pillar,value FROM more_pillars WHERE minion_id = %s",
      ]),
    ).toEqual({ role: "frontend", env: "prod", motd: null, ntp_server: "ntp1.example.com" });
  });

  it("isolates a mapping of named queries under their names", async () => {
    expect(
      await run("web01", {
        main: "SELECT pillar,value FROM pillars WHERE minion_id = %s",
        extras: "SELECT pillar,value FROM more_pillars WHERE minion_id = %s",
      }),
    ).toEqual({
      main: { role: "webserver", env: "prod", motd: null },
      extras: { ntp_server: "ntp1.example.com", role: "frontend" },
    });
  });

  it("reads a query given as [query, depth]", async () => {
    expect(await run("web01", [["SELECT name,uid,shell FROM users WHERE minion_id = %s", 1]])).toEqual({
      deploy: { uid: 1001, shell: "/bin/bash" },
      www: { uid: 1002, shell: null },
    });
  });

  it("reads a query given as {query, depth}", async () => {
    expect(
      await run("web01", [
        { query: "SELECT 'services',name,port,enabled FROM services WHERE minion_id = %s", depth: 2 },
      ]),
    ).toEqual({ services: { nginx: { port: 443, enabled: 1 }, varnish: { port: 6081, enabled: 0 } } });
  });

  it("runs the documentation's fromdb example: depth 5, as_list, with_lists [1,3]", async () => {
    const fromdb = {
      query: `SELECT col1,col2,col3,col4,col5,col6,col7
                FROM some_random_table
               WHERE minion_pattern LIKE %s`,
      depth: 5,
      as_list: true,
      with_lists: [1, 3],
    };
    expect(await run("web01", { fromdb })).toEqual({
      fromdb: {
        a: [
          { c: [{ e: { col6: 1, col7: "one" } }, { g: { col6: 2, col7: "two" } }] },
          { h: [{ j: { col6: 3, col7: "three" }, k: { col6: [4, 5], col7: ["four", "five"] } }] },
        ],
      },
    });
  });

  it("treats mysql_query as an ordinary named query with legacyMysqlQuery: false", async () => {
    const queries = {
      mysql_query: "SELECT pillar,value FROM pillars WHERE minion_id = %s ORDER BY id",
      extras: "SELECT pillar,value FROM more_pillars WHERE minion_id = %s",
    };
    expect(await run("web01", queries, { legacyMysqlQuery: false })).toEqual({
      extras: { ntp_server: "ntp1.example.com", role: "frontend" },
      mysql_query: { role: "webserver", env: "prod", motd: null },
    });
    expect(await run("web01", queries)).toEqual({
      role: "webserver",
      env: "prod",
      motd: null,
      extras: { ntp_server: "ntp1.example.com", role: "frontend" },
    });
  });

  it("merges JSON columns with as_json: JSON type, text and binary, rows in order", async () => {
    const query = (column: string) =>
      `SELECT ${column} FROM jdocs WHERE minion = %s AND ${column} IS NOT NULL ORDER BY id`;
    expect(await run("web01", [{ query: query("doc"), as_json: true }])).toEqual({
      nginx: { port: 443, sites: ["c"] },
      big: 12345678901234567890n,
      ratio: 0.5,
    });
    expect(
      await run("web01", {
        as_json: true,
        a_doc: { query: query("doc"), as_list: true },
        b_txt: query("txt"),
        c_bin: query("bin"),
        d_plain: { query: "SELECT txt FROM jdocs WHERE minion = %s AND id = 1", as_json: false },
      }),
    ).toEqual({
      a_doc: { nginx: { port: 443, sites: ["a", "c"] }, big: 12345678901234567890n, ratio: 0.5 },
      b_txt: { nginx: { sites: ["b", "a"] }, motd: "bye", n: Number.NaN },
      c_bin: { nginx: { tls: true } },
      d_plain: {
        '{"nginx": {"sites": ["b", "a"]}, "motd": "hi"}': '{"nginx": {"sites": ["b", "a"]}, "motd": "hi"}',
      },
    });
  });

  it("reports JSON columns Salt cannot merge with coded errors", async () => {
    const one = (column: string, minion: string) =>
      run(minion, { cfg: { query: `SELECT ${column} FROM jdocs WHERE minion = %s`, as_json: true } });
    const syntax = await failure(one("txt", "bad"));
    expect([syntax.code, syntax.source?.file]).toEqual(["SQL_JSON", 'query "cfg"']);
    expect((await failure(one("bin", "bad"))).code).toBe("SQL_JSON");
    expect((await failure(one("doc", "bad"))).code).toBe("SQL_SHAPE"); // NULL
    expect((await failure(one("txt", "list"))).code).toBe("SQL_SHAPE"); // a list, not an object
  });

  it("refuses a 3,000-column result with DEPTH_LIMIT instead of a stack overflow", async () => {
    const columns = Array.from({ length: 3000 }, (_, i) => `${i} AS c${i}`).join(", ");
    const error = await failure(run("web01", { wide: `SELECT ${columns} FROM DUAL WHERE %s = %s` }));
    expect(error.code).toBe("DEPTH_LIMIT");
    expect(error.source?.file).toBe('query "wide"');
    expect(error.message).not.toContain('query "wide"');
    // The same columns at depth 1 are a flat mapping under the first column's value.
    const flat = await run("web01", {
      wide: { query: `SELECT ${columns} FROM DUAL WHERE %s = %s`, depth: 1 },
    });
    expect(Object.keys((flat.wide as Record<string, Record<string, unknown>>)["0"]!)).toHaveLength(2999);
  });

  it("creates the empty named root for a query without rows", async () => {
    expect(await run("nobody", { main: "SELECT pillar,value FROM pillars WHERE minion_id = %s" })).toEqual({
      main: {},
    });
  });

  it("maps every column type as documented", async () => {
    const out = await run("x", [
      {
        query: `SELECT 'k', i, ti, big, ubig, dec1, f, d, da, dt, dt3, tm, ts, yr, j, b, vb, bits, tx, en, st, n
                  FROM kinds WHERE id = 1 AND %s = %s`,
        depth: 1,
      },
    ]);
    expect(out.k).toEqual({
      i: -42,
      ti: 1,
      big: 9007199254740993n,
      ubig: 18446744073709551615n,
      dec1: "1234567890.25",
      f: 1.1,
      d: 0.1,
      da: "2024-02-29",
      dt: "2024-02-29 13:14:15",
      dt3: "2024-02-29 13:14:15.678",
      tm: "-01:02:03",
      ts: "2024-02-29 13:14:15",
      yr: 2024,
      j: '{"a": [1, 2.5, null]}',
      b: Buffer.from([0x00, 0xff, 0x10]),
      vb: Buffer.from("hi"),
      bits: Buffer.from([0b1010]),
      tx: "h\u00e9llo \u{1F600}",
      en: "off",
      st: "a,b",
      n: null,
    });
  });

  it("gives Salt's Python values with values: exact: typed keys in row order, whole floats as floats", async () => {
    await db.admin.query(`
      CREATE TABLE typed (pos INT PRIMARY KEY, k_int INT, k_text VARCHAR(8), v DOUBLE, f FLOAT, big BIGINT);
      INSERT INTO typed VALUES (1, 10, '10', 1.0, 2.0, 9007199254740993), (2, 9, '9', 2.5, 0.5, 1),
                               (3, 1, '1', 3.0, 1.5, 2);
    `);
    const pillar = createMysqlPillar({
      connection: settingsFor(server, db.name),
      values: "exact",
      queries: {
        ints: { query: "SELECT k_int, v FROM typed WHERE %s <> '' ORDER BY pos", depth: 1 },
        texts: { query: "SELECT k_text, f FROM typed WHERE %s <> '' ORDER BY pos", depth: 1 },
        bigs: { query: "SELECT big, k_text FROM typed WHERE %s <> '' ORDER BY pos", depth: 1 },
      },
    });
    try {
      const out = await pillar.fetch("web01");
      expect(out).toBeInstanceOf(PyDict);
      const ints = out.get("ints") as PyDict;
      // int keys, in the order the rows came (a plain object would list 1, 9, 10)
      expect(ints.keyList()).toEqual([10, 9, 1]);
      expect(String(ints.get(10))).toBe("1.0");
      expect(ints.get(9)).toBe(2.5);
      const texts = out.get("texts") as PyDict;
      expect(texts.keyList()).toEqual(["10", "9", "1"]);
      expect(String(texts.get("10"))).toBe("2.0");
      expect((out.get("bigs") as PyDict).keyList()).toEqual([9007199254740993n, 1, 2]);
    } finally {
      await pillar.close();
    }
    // The default gives plain objects: keys named as json.dumps names them, 1.0 as 1.
    const plain = await run("web01", {
      q: { query: "SELECT k_int, v FROM typed WHERE %s <> '' ORDER BY pos", depth: 1 },
    });
    expect(plain.q).toEqual({ "1": 3, "9": 2.5, "10": 1 });
  });

  it("gives FLOAT columns the value the text protocol (Salt's MySQLdb) reads", async () => {
    const [textRows] = await db.admin.query({
      sql: "SELECT id, v FROM floats ORDER BY id",
      rowsAsArray: true,
    });
    const viaText = Object.fromEntries(
      (textRows as [number, number | null][]).map(([id, v]) => [String(id), v]),
    );
    expect(await run("x", ["SELECT id, v FROM floats WHERE %s IS NOT NULL ORDER BY id"])).toEqual(viaText);
    expect(viaText["1"]).toBe(1.1);
  });

  it("binds ? placeholders to the minion id too", async () => {
    expect(await run("db01", ["SELECT pillar,value FROM pillars WHERE minion_id = ? ORDER BY id"])).toEqual({
      role: "database",
      env: "prod",
    });
  });

  it("treats hostile minion ids as data", async () => {
    await db.admin.query("INSERT INTO pillars (minion_id, pillar, value) VALUES (?, 'odd', 'yes')", [
      "o'k\\%s",
    ]);
    const query = { main: "SELECT pillar,value FROM pillars WHERE minion_id = %s" };
    for (const minion of [
      "' OR '1'='1",
      "%s",
      "\\",
      "x'; DROP TABLE pillars; --",
      "\u{1F600}\u0000",
      "a".repeat(10_240),
    ]) {
      expect(await run(minion, query), minion.slice(0, 20)).toEqual({ main: {} });
    }
    expect(await run("o'k\\%s", query)).toEqual({ main: { odd: "yes" } });
    const [rows] = await db.admin.query("SELECT COUNT(*) AS n FROM pillars");
    expect((rows as { n: number }[])[0]?.n).toBe(7);
  });

  it("keeps __proto__ from column values and names as data", async () => {
    const out = await run("x", [
      "SELECT '__proto__', 'polluted' FROM DUAL WHERE %s <> ''",
      { query: "SELECT 'row', 1 AS `__proto__`, 2 AS `constructor`", depth: 1 },
    ]);
    expect(Object.keys(out)).toEqual(["__proto__", "row"]);
    expect(Object.getOwnPropertyDescriptor(out, "__proto__")?.value).toBe("polluted");
    expect(Object.keys(out.row as object)).toEqual(["__proto__", "constructor"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });

  it("lets fetches that already started finish when the pillar is closed", async () => {
    const pillar = createMysqlPillar({
      connection: settingsFor(server, db.name),
      queries: ["SELECT 'slept', SLEEP(0.2) + %s"],
    });
    const pending = pillar.fetch("1");
    await new Promise((resolve) => setTimeout(resolve, 50));
    await pillar.close();
    expect(await pending).toEqual({ slept: 1 });
  });

  it("connects through the Unix socket and from a URL", async () => {
    if (server.socket !== undefined) {
      const out = await mysqlPillar(
        "db01",
        {},
        {
          connection: { ...settingsFor(server, db.name), socketPath: server.socket },
          queries: { mysql_query: "SELECT pillar,value FROM pillars WHERE minion_id = %s" },
        },
      );
      expect(out).toEqual({ role: "database", env: "prod" });
    }
    const url = `mysql://${encodeURIComponent(server.user)}:${encodeURIComponent(server.password)}@${server.host}:${server.port}/${db.name}`;
    expect(await mysqlPillar("db01", {}, { connection: url, queries: ["SELECT 'ok', %s"] })).toEqual({
      ok: "db01",
    });
  });

  it("reads the connection from a master configuration's flat mysql.* keys", async () => {
    const master = {
      "mysql.host": server.host,
      "mysql.port": server.port,
      "mysql.user": server.user,
      "mysql.pass": server.password,
      "mysql.db": db.name,
    };
    expect(
      await mysqlPillar("db01", {}, { connection: master, queries: ["SELECT 'db', DATABASE()"] }),
    ).toEqual({
      db: db.name,
    });
  });

  it("rolls back whatever a query writes, as Salt's unclosed transaction does", async () => {
    const error = await failure(run("web01", ["UPDATE pillars SET value = 'changed' WHERE minion_id = %s"]));
    expect(error.code).toBe("SQL_QUERY");
    const [rows] = await db.admin.query("SELECT COUNT(*) AS n FROM pillars WHERE value = 'changed'");
    expect((rows as { n: number }[])[0]?.n).toBe(0);
  });

  describeFailures();

  function describeFailures() {
    it("reports an unreachable server as SQL_CONNECT naming the server, not a query", async () => {
      const port = await unusedPort();
      const error = await failure(
        mysqlPillar(
          "web01",
          {},
          {
            connection: { ...settingsFor(server, db.name), port },
            queries: { main: "SELECT 1, 2" },
          },
        ),
      );
      expect(error.code).toBe("SQL_CONNECT");
      expect(error.message).toBe(
        `cannot connect to the MySQL server at 127.0.0.1:${port}: connection refused (is the server running and listening there?)`,
      );
      expect(error.source).toBeUndefined();
    });

    it("reports a wrong password as SQL_AUTH without showing any password", async () => {
      const wrong = "Wr0ng-Passw0rd-xyz";
      const error = await failure(
        mysqlPillar(
          "web01",
          {},
          {
            connection: { ...settingsFor(server, db.name), password: wrong },
            queries: ["SELECT 1, 2"],
          },
        ),
      );
      expect(error.code).toBe("SQL_AUTH");
      expect(error.message).toMatch(
        /^the MySQL server at 127\.0\.0\.1:\d+ refused the login: Access denied for user /,
      );
      expect(error.source).toBeUndefined();
      const everything = `${error.message} ${JSON.stringify(error.details)} ${String((error.cause as Error)?.message)}`;
      expect(everything).not.toContain(wrong);
      expect(everything).not.toContain(server.password);
    });

    it("keeps the password out of messages even when the query text contains it", async () => {
      const error = await failure(run("web01", [`SELECT '${server.password}', 1 FROM missing_table_x`]));
      expect(error.code).toBe("SQL_QUERY");
      expect(error.message).toContain("missing_table_x");
      expect(error.message).not.toContain(server.password);
      expect(error.source?.file).toBe("query #1");
    });

    it("reports an unknown database as SQL_UNKNOWN_DATABASE", async () => {
      const error = await failure(
        mysqlPillar(
          "web01",
          {},
          {
            connection: settingsFor(server, `${db.name}_missing`),
            queries: ["SELECT 1, 2"],
          },
        ),
      );
      expect(error.code).toBe("SQL_UNKNOWN_DATABASE");
      // The server's "Unknown database" text would say it a second time.
      expect(error.message).toMatch(
        /^the MySQL server at 127\.0\.0\.1:\d+ has no database "[a-z0-9_]+_missing"$/,
      );
      expect(error.source).toBeUndefined();
    });

    it("reports an SQL error as SQL_QUERY naming the query, with no partial result", async () => {
      const error = await failure(
        run("web01", {
          a_first: "SELECT pillar,value FROM pillars WHERE minion_id = %s",
          b_broken: "SELECT pillar,value FROM no_such_table WHERE minion_id = %s",
        }),
      );
      expect(error.code).toBe("SQL_QUERY");
      expect(error.source?.file).toBe('query "b_broken"');
      expect(error.message).toMatch(
        /^Table '[a-z0-9_]+\.no_such_table' doesn't exist; the SQL: SELECT pillar,value FROM no_such_table WHERE minion_id = %s$/,
      );
      expect(error.details?.root).toBe("b_broken");
    });

    it("stops a query that runs too long with SQL_TIMEOUT and kills it on the server", async () => {
      const marker = `slow_${Date.now()}`;
      // SLEEP(3600) outlives the test: the statement can only leave the server because it was killed.
      const error = await failure(run("web01", [`SELECT '${marker}', SLEEP(3600)`], { queryTimeout: 300 }));
      expect(error.code).toBe("SQL_TIMEOUT");
      expect(error.message).toContain(marker);
      // The server-side statement goes away (killed from a separate connection); a server under load may take a
      // while to drop it, so this waits for it rather than for a fixed time.
      let running = 1;
      while (running > 0) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        const [rows] = await db.admin.query(
          "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE INFO LIKE ? AND INFO NOT LIKE '%PROCESSLIST%'",
          [`%${marker}%`],
        );
        running = Number((rows as { n: number }[])[0]?.n);
      }
      expect(running).toBe(0);
    });

    it("reports a query killed with KILL QUERY as SQL_INTERRUPTED", async () => {
      const marker = `killq_${Date.now()}`;
      const pending = failure(run("web01", [`SELECT '${marker}', SLEEP(20)`]));
      const id = await waitForQuery(db.admin, marker, pending);
      await db.admin.query(`KILL QUERY ${id}`);
      const error = await pending;
      expect(error.code).toBe("SQL_INTERRUPTED");
      expect(error.message).toContain(marker);
    });

    it("reports a connection killed mid-query as SQL_CONNECTION_LOST", async () => {
      const marker = `killc_${Date.now()}`;
      const pending = failure(run("web01", [`SELECT '${marker}', SLEEP(20)`]));
      const id = await waitForQuery(db.admin, marker, pending);
      await db.admin.query(`KILL CONNECTION ${id}`);
      const error = await pending;
      expect(error.code).toBe("SQL_CONNECTION_LOST");
      // The server went away: the running query is named, not blamed (no source, no SQL).
      expect(error.message).toMatch(
        /^lost the connection to the MySQL server at 127\.0\.0\.1:\d+ while query #1 ran: the server closed the connection$/,
      );
      expect(error.source).toBeUndefined();
    });

    it("reports a lock wait timeout as SQL_LOCK_TIMEOUT", async () => {
      const holder = await db.connect();
      try {
        await holder.query("START TRANSACTION");
        await holder.query("SELECT * FROM lockme WHERE id = 1 FOR UPDATE");
        const error = await failure(
          run("web01", [
            "SET STATEMENT innodb_lock_wait_timeout=1 FOR SELECT id, v FROM lockme WHERE id = 1 AND %s <> '' FOR UPDATE",
          ]),
        );
        expect(error.code).toBe("SQL_LOCK_TIMEOUT");
      } finally {
        await holder.query("ROLLBACK");
        await holder.end();
      }
    });

    it("recovers when the server has closed the pool's idle connection", async () => {
      const pillar = createMysqlPillar({
        connection: settingsFor(server, db.name),
        connectionLimit: 1,
        queries: ["SELECT 'ok', %s"],
      });
      try {
        expect(await pillar.fetch("first")).toEqual({ ok: "first" });
        const [rows] = await db.admin.query(
          "SELECT ID FROM information_schema.PROCESSLIST WHERE DB = ? AND ID <> CONNECTION_ID() AND COMMAND = 'Sleep'",
          [db.name],
        );
        for (const { ID } of rows as { ID: number }[]) await db.admin.query(`KILL CONNECTION ${Number(ID)}`);
        expect(await pillar.fetch("second")).toEqual({ ok: "second" });
      } finally {
        await pillar.close();
      }
    });

    it("refuses to fetch after close", async () => {
      const pillar = createMysqlPillar({
        connection: settingsFor(server, db.name),
        queries: ["SELECT 1, 2"],
      });
      await pillar.close();
      expect((await failure(pillar.fetch("web01"))).code).toBe("SQL_CLOSED");
    });
  }

  it("serves 1,000 concurrent fetches through one bounded pool", async () => {
    const limit = 4;
    const pillar = createMysqlPillar({
      connection: settingsFor(server, db.name),
      connectionLimit: limit,
      queries: {
        main: "SELECT pillar,value FROM pillars WHERE minion_id = %s ORDER BY id",
        users: ["SELECT name,uid,shell FROM users WHERE minion_id = %s ORDER BY id", 1],
      },
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
    try {
      const minions = Array.from({ length: 1000 }, (_, i) => (i % 2 === 0 ? "web01" : "db01"));
      const results = await Promise.all(minions.map((minion) => pillar.fetch(minion)));
      results.forEach((result, i) => {
        if (i % 2 === 0) {
          expect(result).toEqual({
            main: { role: "webserver", env: "prod", motd: null },
            users: { deploy: { uid: 1001, shell: "/bin/bash" }, www: { uid: 1002, shell: null } },
          });
        } else {
          expect(result).toEqual({
            main: { role: "database", env: "prod" },
            users: { postgres: { uid: 1001, shell: "/bin/sh" } },
          });
        }
      });
    } finally {
      sampling = false;
      await sampler;
      await pillar.close();
    }
    // Other tests' pools are closed by now; only this pool's connections use this database.
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(limit);
  });

  it("streams a large result into the shaper", async () => {
    await db.admin.query(`
      CREATE TABLE digits (d INT PRIMARY KEY);
      INSERT INTO digits VALUES (0),(1),(2),(3),(4),(5),(6),(7),(8),(9);
    `);
    const out = await run("web01", {
      big: {
        query: `SELECT CONCAT('h', a.d, b.d, c.d, e.d), CONCAT('k', f.d), a.d + b.d FROM digits a, digits b, digits c,
                digits e, digits f WHERE %s <> ''`,
        depth: 0,
      },
    });
    const big = out.big as Record<string, Record<string, number>>;
    expect(Object.keys(big)).toHaveLength(10_000);
    expect(big.h1234).toEqual({ k0: 3, k1: 3, k2: 3, k3: 3, k4: 3, k5: 3, k6: 3, k7: 3, k8: 3, k9: 3 });
  });
});
