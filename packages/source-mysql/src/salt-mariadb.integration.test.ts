import { formatJson, keyText, PyDict } from "@merge/core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createMysqlPillar, type MysqlPillarOptions, mysqlPillar } from "./pillar.js";
import { createTestDatabase, describeWithServer, settingsFor, type TestDatabase } from "./test-db.js";

// Cases where our results once differed from Salt's own ext_pillar (salt/pillar/mysql.py over MySQLdb) on the same
// MariaDB rows, found by a differential run. Every expected value here is what Salt returned for those rows.

describeWithServer("values Salt's ext_pillar gives on MariaDB", (server) => {
  let db: TestDatabase;
  const exact = async (queries: unknown): Promise<PyDict> => {
    const options: MysqlPillarOptions = {
      connection: settingsFor(server, db.name),
      queries,
      values: "exact",
      legacyMysqlQuery: false,
    };
    return (await mysqlPillar("web01", {}, options)) as unknown as PyDict;
  };
  const text = (value: unknown) => formatJson(value, { indent: 0 });

  beforeAll(async () => {
    db = await createTestDatabase(server, "salt_oracle");
    // Zero dates and zero months or days are stored only outside the strict modes some servers default to.
    await db.admin.query(`
      SET SESSION sql_mode = 'NO_ENGINE_SUBSTITUTION';
      CREATE TABLE pin_dates (id INT PRIMARY KEY, minion VARCHAR(16), d DATE, dt DATETIME, dt3 DATETIME(3),
        ts TIMESTAMP NULL, v INT);
      INSERT INTO pin_dates VALUES
        (1, 'web01', '0000-00-00', '0000-00-00 00:00:00', '0000-00-00 00:00:00.000', '0000-00-00 00:00:00', 1),
        (2, 'web01', '2024-01-00', '2024-00-10 10:00:00', '0000-01-01 00:00:00.500', '2024-02-29 13:14:15', 2),
        (3, 'web01', '2024-02-29', '0001-01-01 00:00:00', '2024-02-29 13:14:15.250', NULL, 3);
      CREATE TABLE pin_bytes (id INT PRIMARY KEY, minion VARCHAR(16), k VARBINARY(8), sub VARCHAR(8), v INT,
        f DOUBLE);
      INSERT INTO pin_bytes VALUES (1, 'web01', X'41', 'x', 1, 1.0), (2, 'web01', X'41', 'y', 2, 1.0),
        (3, 'web01', X'00FF', 'x', 3, 2.5), (4, 'web01', X'41', 'x', 4, 1.0);
      CREATE TABLE pin_decimals (id INT PRIMARY KEY, minion VARCHAR(16), i INT, d DECIMAL(10,2), f DOUBLE,
        v VARCHAR(8));
      INSERT INTO pin_decimals VALUES (1, 'web01', 1, 1.00, 2.5, 'one'), (2, 'web01', 0, 2.50, 0.1, 'two'),
        (3, 'web01', 7, 0.10, 0, 'three'), (4, 'web01', 5, -0.00, 1e16, 'four');
      CREATE TABLE pin_fixed (id INT PRIMARY KEY, minion VARCHAR(16), f2 FLOAT(10,2), d2 DOUBLE(10,2), d DOUBLE);
      INSERT INTO pin_fixed VALUES (1, 'web01', 12345.67, 1.005, 0.1), (2, 'web01', 99999.99, 12345678.125, 2.675);
    `);
  });

  afterAll(async () => {
    await db?.drop();
  });

  it("gives None for a date Python cannot hold: zero dates, zero months and days, year 0", async () => {
    const out = await exact({
      dates: { query: "SELECT d, dt, dt3, ts, v FROM pin_dates WHERE minion = %s ORDER BY id", depth: 1 },
      keys: "SELECT d, v FROM pin_dates WHERE minion = %s ORDER BY id",
    });
    // Rows 1 and 2 both have a date key MySQLdb reads as None: one key, the later row's values.
    expect(text(out.get("dates"))).toBe(
      text(
        new PyDict([
          [null, PyDict.fromObject({ dt: null, dt3: null, ts: "2024-02-29 13:14:15", v: 2 })],
          [
            "2024-02-29",
            PyDict.fromObject({ dt: "0001-01-01 00:00:00", dt3: "2024-02-29 13:14:15.250", ts: null, v: 3 }),
          ],
        ]),
      ),
    );
    expect(text(out.get("keys"))).toBe(
      text(
        new PyDict<unknown>([
          [null, 2],
          ["2024-02-29", 3],
        ]),
      ),
    );
  });

  it("lists a bytes or whole-float key of with_lists once, however many rows repeat it", async () => {
    const out = await exact({
      bytes: {
        query: "SELECT k, sub, v FROM pin_bytes WHERE minion = %s ORDER BY id",
        depth: 2,
        with_lists: [1],
      },
      floats: {
        query: "SELECT f, sub, v FROM pin_bytes WHERE minion = %s ORDER BY id",
        depth: 1,
        with_lists: "1",
      },
      last: { query: "SELECT k, v FROM pin_bytes WHERE minion = %s ORDER BY id", with_lists: [1] },
    });
    const bytes = out.get("bytes") as PyDict;
    expect(bytes.keyList()).toEqual([Buffer.from("A"), Buffer.from([0x00, 0xff])]);
    expect([...bytes.values()]).toEqual([[4, 2], [3]]);
    expect(text(out.get("floats"))).toBe('{"1.0": ["x", 4], "2.5": ["x", 3]}');
    expect([...(out.get("last") as PyDict).values()]).toEqual([[1, 2, 4], [3]]);
  });

  it("makes a DECIMAL key one key with the int or float of the same value, as Salt's Decimal keys are", async () => {
    const out = await exact([
      "SELECT i, v FROM pin_decimals WHERE minion = %s ORDER BY id",
      "SELECT f, v FROM pin_decimals WHERE minion = %s ORDER BY id",
      "SELECT d, id FROM pin_decimals WHERE minion = %s ORDER BY id",
    ]);
    // Salt: {1: 1, 0: 4, 7: 'three', 5: 'four', 2.5: 2, 0.1: 'two', 1e+16: 'four', Decimal('0.10'): 3}
    expect(out.keyList().map(keyText)).toEqual(["1", "0", "7", "5", "2.5", "0.1", "1e+16", "0.10"]);
    expect([...out.values()]).toEqual([1, 4, "three", "four", 2, "two", "four", 3]);
    expect(out.keyList()[0]).toBe(1); // the first key stays, as Python keeps the first key object
    expect(out.keyList()[7]).toBe("0.10"); // a DECIMAL key that stays is named by its text
  });

  it("reads a float column with fixed decimals as the text protocol writes it", async () => {
    const out = await exact({
      x: {
        query: `SELECT id, f2, d2, PI() AS pi, f2 * 1 AS f21, d2 / 3 AS d3, d * 1.5 AS dm
                  FROM pin_fixed WHERE minion = %s ORDER BY id`,
        depth: 1,
      },
    });
    // Salt: {1: {'f2': 12345.67, 'd2': 1.0, 'pi': 3.141593, 'f21': 12345.67, 'd3': 0.333333,
    //  'dm': 0.15000000000000002}, 2: {'f2': 99999.99, 'd2': 12345678.12, 'pi': 3.141593, 'f21': 99999.99,
    //  'd3': 4115226.04, 'dm': 4.012499999999999}}
    expect(text(out.get("x"))).toBe(
      '{"1": {"f2": 12345.67, "d2": 1.0, "pi": 3.141593, "f21": 12345.67, "d3": 0.333333, "dm": 0.15000000000000002}, ' +
        '"2": {"f2": 99999.99, "d2": 12345678.12, "pi": 3.141593, "f21": 99999.99, "d3": 4115226.04, "dm": 4.012499999999999}}',
    );
  });

  it("names DECIMAL keys by their text in provenance too, where the data has them", async () => {
    const pillar = createMysqlPillar({
      connection: settingsFor(server, db.name),
      values: "exact",
      legacyMysqlQuery: false,
      queries: [
        "SELECT i, v FROM pin_decimals WHERE minion = %s ORDER BY id",
        "SELECT d, id FROM pin_decimals WHERE minion = %s ORDER BY id",
      ],
    });
    try {
      const { data, provenance } = await pillar.fetchWithProvenance("web01");
      const keys = provenance.values.flatMap((value) => [...value.path, ...(value.at ?? [])]);
      expect(keys.some((key) => typeof key === "object" && key !== null)).toBe(false);
      // Row 3's DECIMAL 0.10 stayed a key of its own; row 4's -0.00 went to the INT key 0 that was already there.
      const [tenth, zero] = provenance.values.slice(-2);
      expect(tenth!.at).toEqual(["0.10"]);
      expect(data.get("0.10")).toBe(3);
      expect(zero!.at).toEqual([0]);
      expect(data.get(0)).toBe(4);
    } finally {
      await pillar.close();
    }
  });
});
