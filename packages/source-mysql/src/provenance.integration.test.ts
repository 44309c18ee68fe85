import { formatPath, PyDict, toPlain } from "@merge/core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createMysqlPillar } from "./pillar.js";
import type { MysqlValueSource } from "./provenance.js";
import { createTestDatabase, describeWithServer, settingsFor, type TestDatabase } from "./test-db.js";

const SCHEMA = new URL("../../../examples/mysql/schema.sql", import.meta.url);
const FIXTURES = new URL("../../../examples/mysql/fixtures.sql", import.meta.url);

/** `path ← query "x" row 2 (pillar=env)`: one line per value written, for compact assertions. */
function lines(values: readonly MysqlValueSource[]): string[] {
  return values.map((value) => {
    const keys = value.keys.map((key) => `${key.column}=${String(key.value)}`).join(", ");
    const how = value.appended ? " (appended)" : "";
    return `${value.query.entry}:${formatPath(value.path)} = ${JSON.stringify(toPlain(value.value))}${how} ← ${value.query.name} row ${value.row} (${keys})`;
  });
}

/** `q.name row N: VALUE at a.0.b`: where each value is in its entry's result (`at`), steps joined by dots. */
function places(values: readonly MysqlValueSource[]): string[] {
  return values.map((value) => {
    const at = value.at === undefined ? "(gone)" : value.at.map(String).join(".");
    const within = value.within === undefined ? "" : ` (replaced whole at ${value.within.at.join(".")})`;
    return `${value.query.name} row ${value.row}: ${JSON.stringify(toPlain(value.value))} at ${at}${within}`;
  });
}

describeWithServer("MySQL pillar provenance against a real server", (server) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase(server, "provenance");
    await db.load(SCHEMA);
    await db.load(FIXTURES);
    await db.admin.query(`
      CREATE TABLE jdocs (id INT PRIMARY KEY, minion VARCHAR(32), doc JSON);
      INSERT INTO jdocs VALUES
        (1, 'web01', '{"ntp": {"servers": ["a", "b"], "iburst": true}, "tier": "web"}'),
        (2, 'web01', '{"ntp": {"servers": ["c"]}, "tier": {"name": "front"}}'),
        (3, 'web01', '{"tier": {"name": "edge", "zone": 2}}');
    `);
  });

  afterAll(async () => {
    await db?.drop();
  });

  it("names the query and row of every value, the ones a later query replaced included", async () => {
    const pillar = createMysqlPillar({
      connection: settingsFor(server, db.name),
      values: "exact",
      entries: [
        { mysql_query: "SELECT pillar,value FROM pillars WHERE minion_id = %s ORDER BY id" },
        [
          "SELECT pillar,value FROM more_pillars WHERE minion_id = %s ORDER BY id",
          { query: "SELECT 'services',name,port FROM services WHERE minion_id = %s ORDER BY id", depth: 2 },
        ],
      ],
    });
    try {
      const { data, provenance } = await pillar.fetchWithProvenance("web01");
      // The same data as a plain fetch.
      expect(data).toEqual(await pillar.fetch("web01"));
      expect(data).toBeInstanceOf(PyDict);
      expect(provenance.queries.map((q) => [q.entry, q.index, q.name, q.traced])).toEqual([
        [0, 0, "query #1", true],
        [1, 0, "query #1", true],
        [1, 1, "query #2", true],
      ]);
      expect(provenance.queries[2]!.sql).toBe(
        "SELECT 'services',name,port FROM services WHERE minion_id = %s ORDER BY id",
      );
      expect(lines(provenance.values)).toEqual([
        '0:role = "webserver" ← query #1 row 1 (pillar=role)',
        '0:env = "staging" ← query #1 row 2 (pillar=env)',
        '0:env = "prod" ← query #1 row 3 (pillar=env)',
        "0:motd = null ← query #1 row 4 (pillar=motd)",
        '1:ntp_server = "ntp1.example.com" ← query #1 row 1 (pillar=ntp_server)',
        '1:role = "frontend" ← query #1 row 2 (pillar=role)',
        "1:services.nginx = 443 ← query #2 row 1 (services=services, name=nginx)",
        "1:services.varnish = 6081 ← query #2 row 2 (services=services, name=varnish)",
      ]);
    } finally {
      await pillar.close();
    }
  });

  it("puts a named query's values below its keyword and marks values added to a list", async () => {
    const pillar = createMysqlPillar({
      connection: settingsFor(server, db.name),
      queries: {
        fromdb: {
          query: "SELECT col1,col2,col7 FROM some_random_table WHERE minion_pattern LIKE %s ORDER BY id",
          as_list: true,
        },
        grouped: { query: "SELECT col1,col7 FROM some_random_table ORDER BY id", with_lists: [1] },
      },
    });
    try {
      const { data, provenance } = await pillar.fetchWithProvenance("web01");
      expect(data.fromdb).toEqual({ a: { b: ["one", "two"], z: ["three", "four", "five"] } });
      expect(lines(provenance.values).slice(0, 3)).toEqual([
        '0:fromdb.a.b = "one" ← query "fromdb" row 1 (col1=a, col2=b)',
        '0:fromdb.a.b = "two" (appended) ← query "fromdb" row 2 (col1=a, col2=b)',
        '0:fromdb.a.z = "three" ← query "fromdb" row 3 (col1=a, col2=z)',
      ]);
      // with_lists on the last level: each row's value is an item of its key's list (no WHERE: db01's row too).
      expect(data.grouped).toEqual({ a: ["one", "two", "three", "four", "five", "nine"] });
      expect(provenance.queries.map((q) => [q.name, q.traced])).toEqual([
        ['query "fromdb"', true],
        ['query "grouped"', true],
      ]);
      expect(places(provenance.values.filter((v) => v.query.name === 'query "grouped"'))).toEqual([
        'query "grouped" row 1: "one" at grouped.a.0',
        'query "grouped" row 2: "two" at grouped.a.1',
        'query "grouped" row 3: "three" at grouped.a.2',
        'query "grouped" row 4: "four" at grouped.a.3',
        'query "grouped" row 5: "five" at grouped.a.4',
        'query "grouped" row 6: "nine" at grouped.a.5',
      ]);
    } finally {
      await pillar.close();
    }
  });

  it("places a value a later row of the same query overwrote where it lost, beside the winner", async () => {
    const pillar = createMysqlPillar({
      connection: settingsFor(server, db.name),
      queries: ["SELECT pillar,value FROM pillars WHERE minion_id = %s ORDER BY id"],
    });
    try {
      const { data, provenance } = await pillar.fetchWithProvenance("web01");
      // Salt processes the rows in the order the server returns them (ORDER BY id): row 3 wins.
      expect(data.env).toBe("prod");
      expect(places(provenance.values)).toEqual([
        'query #1 row 1: "webserver" at role',
        'query #1 row 2: "staging" at env',
        'query #1 row 3: "prod" at env',
        "query #1 row 4: null at motd",
      ]);
      // The other order, the other winner: rows are applied as they come.
      const reversed = createMysqlPillar({
        connection: settingsFor(server, db.name),
        queries: ["SELECT pillar,value FROM pillars WHERE minion_id = %s ORDER BY id DESC"],
      });
      try {
        const again = await reversed.fetchWithProvenance("web01");
        expect(again.data.env).toBe("staging");
        expect(places(again.provenance.values).filter((line) => line.includes(" at env"))).toEqual([
          'query #1 row 2: "prod" at env',
          'query #1 row 3: "staging" at env',
        ]);
      } finally {
        await reversed.close();
      }
    } finally {
      await pillar.close();
    }
  });

  it("follows the values of levels with_lists makes lists into those lists (Salt's documented example)", async () => {
    const pillar = createMysqlPillar({
      connection: settingsFor(server, db.name),
      queries: {
        fromdb: {
          query:
            "SELECT col1,col2,col3,col4,col5,col6,col7 FROM some_random_table WHERE minion_pattern LIKE %s ORDER BY id",
          depth: 5,
          as_list: true,
          with_lists: [1, 3],
        },
      },
    });
    try {
      const { data, provenance } = await pillar.fetchWithProvenance("web01");
      expect(data.fromdb).toEqual({
        a: [
          { c: [{ e: { col6: 1, col7: "one" } }, { g: { col6: 2, col7: "two" } }] },
          { h: [{ j: { col6: 3, col7: "three" }, k: { col6: [4, 5], col7: ["four", "five"] } }] },
        ],
      });
      expect(places(provenance.values.filter((v) => v.path[v.path.length - 1] === "col7"))).toEqual([
        'query "fromdb" row 1: "one" at fromdb.a.0.c.0.e.col7',
        'query "fromdb" row 2: "two" at fromdb.a.0.c.1.g.col7',
        'query "fromdb" row 3: "three" at fromdb.a.1.h.0.j.col7',
        'query "fromdb" row 4: "four" at fromdb.a.1.h.0.k.col7.0',
        'query "fromdb" row 5: "five" at fromdb.a.1.h.0.k.col7.1',
      ]);
    } finally {
      await pillar.close();
    }
  });

  it("lists every value of each as_json row's object with its row, and where a later row replaced it", async () => {
    const pillar = createMysqlPillar({
      connection: settingsFor(server, db.name),
      queries: { cfg: { query: "SELECT doc FROM jdocs WHERE minion = %s ORDER BY id", as_json: true } },
    });
    try {
      const { data, provenance } = await pillar.fetchWithProvenance("web01");
      // salt.utils.dictupdate.update row by row: ntp merges (servers replaced: as_list is off), tier is replaced by
      // row 2's mapping, which row 3 merges into.
      expect(data.cfg).toEqual({
        ntp: { servers: ["c"], iburst: true },
        tier: { name: "edge", zone: 2 },
      });
      expect(provenance.queries.map((q) => q.traced)).toEqual([true]);
      expect(places(provenance.values)).toEqual([
        // Row 2's list replaced row 1's whole (as_list is off).
        'query "cfg" row 1: "a" at cfg.ntp.servers.0 (replaced whole at cfg.ntp.servers)',
        'query "cfg" row 1: "b" at cfg.ntp.servers.1 (replaced whole at cfg.ntp.servers)',
        'query "cfg" row 1: true at cfg.ntp.iburst',
        'query "cfg" row 1: "web" at cfg.tier',
        'query "cfg" row 2: "front" at cfg.tier.name',
        'query "cfg" row 2: "c" at cfg.ntp.servers.0',
        'query "cfg" row 3: "edge" at cfg.tier.name',
        'query "cfg" row 3: 2 at cfg.tier.zone',
      ]);
      expect(provenance.values.every((value) => value.keys.length === 0)).toBe(true);
    } finally {
      await pillar.close();
    }
  });
});
