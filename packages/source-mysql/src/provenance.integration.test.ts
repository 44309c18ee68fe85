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

describeWithServer("MySQL pillar provenance against a real server", (server) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase(server, "provenance");
    await db.load(SCHEMA);
    await db.load(FIXTURES);
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
      // with_lists moves what the rows wrote into lists: that query is traced as a whole only.
      expect(provenance.queries.map((q) => [q.name, q.traced])).toEqual([
        ['query "fromdb"', true],
        ['query "grouped"', false],
      ]);
    } finally {
      await pillar.close();
    }
  });
});
