import { readdirSync, readFileSync } from "node:fs";
import { isPlainObject } from "@merge/core";
import { parse } from "yaml";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createMysqlPillar, type MysqlPillar, mysqlEntriesFromMaster, mysqlPillar } from "./pillar.js";
import { parseMysqlSettings } from "./settings.js";
import { createTestDatabase, describeWithServer, type TestDatabase } from "./test-db.js";

const EXAMPLE = new URL("../../../examples/mysql/", import.meta.url);
const master = parse(readFileSync(new URL("master.yml", EXAMPLE), "utf8")) as Record<string, unknown>;
const expectedFiles = readdirSync(new URL("expected/", EXAMPLE)).filter((name) => name.endsWith(".json"));

it("reads the example master configuration like Salt would", () => {
  expect(parseMysqlSettings(master)).toEqual({
    host: "127.0.0.1",
    port: 3306,
    user: "salt",
    password: "super_secret_password",
    database: "salt_db",
  });
  const entries = mysqlEntriesFromMaster(master);
  expect(entries).toHaveLength(3);
  expect(isPlainObject(entries[0]) && Object.keys(entries[0])).toEqual(["mysql_query"]);
  expect(expectedFiles.sort()).toEqual(["db01.json", "unknown-minion.json", "web01.json"]);
});

describeWithServer("examples/mysql against a real server", (server) => {
  let db: TestDatabase;
  let pillar: MysqlPillar;

  beforeAll(async () => {
    db = await createTestDatabase(server, "example");
    await db.load(new URL("schema.sql", EXAMPLE));
    await db.load(new URL("fixtures.sql", EXAMPLE));
    // The example's own mysql: block names a production server; point it at the test server and database.
    const connection = {
      ...master,
      mysql: {
        ...(master.mysql as object),
        host: server.host,
        port: server.port,
        user: server.user,
        pass: server.password,
        db: db.name,
      },
    };
    pillar = createMysqlPillar({ connection, entries: mysqlEntriesFromMaster(master) });
  });

  afterAll(async () => {
    await pillar?.close();
    await db?.drop();
  });

  for (const file of expectedFiles) {
    const minion = file.replace(/\.json$/, "");
    it(`gives ${minion} the pillar in expected/${file}`, async () => {
      const expected = JSON.parse(readFileSync(new URL(`expected/${file}`, EXAMPLE), "utf8"));
      expect(await pillar.fetch(minion)).toEqual(expected);
    });
  }

  it("accepts the whole master configuration in place of options", async () => {
    const adjusted = {
      ...master,
      mysql: { host: server.host, port: server.port, user: server.user, pass: server.password, db: db.name },
    };
    const expected = JSON.parse(readFileSync(new URL("expected/db01.json", EXAMPLE), "utf8"));
    expect(await mysqlPillar("db01", {}, adjusted)).toEqual(expected);
  });

  it("gives an injection attempt as minion id nothing but the empty named roots", async () => {
    const expected = JSON.parse(readFileSync(new URL("expected/unknown-minion.json", EXAMPLE), "utf8"));
    expect(await pillar.fetch("' OR '1'='1")).toEqual(expected);
  });
});
