import { measure } from "../harness.js";
import { loadOptional } from "../optional.js";
import type { Row } from "../result.js";

type Dict = Record<string, unknown>;
interface ShapeOptions {
  readonly depth?: number;
  readonly asList?: boolean;
  readonly withLists?: readonly number[];
}
interface MysqlModule {
  shapeRows(fields: readonly string[], rows: Iterable<readonly unknown[]>, options?: ShapeOptions): Dict;
  createMysqlPillar(options: { connection: Dict; queries: unknown }): {
    fetch(minionId: string): Promise<Dict>;
    close(): Promise<void>;
  };
}

export const MYSQL_WORKLOADS = ["shape", "mariadb"] as const;

const FIELDS = ["host", "role", "section", "setting", "value"];

/** `count` rows of a typical pillar table: 1,000 hosts × roles × sections, one setting per row. */
export function pillarRows(count: number): unknown[][] {
  const rows: unknown[][] = [];
  for (let i = 0; i < count; i++) {
    rows.push([
      `host${i % 1000}`,
      `role${(i >> 3) % 4}`,
      `section${(i >> 5) % 25}`,
      `setting${i % 97}`,
      `v${i}`,
    ]);
  }
  return rows;
}

/** Salt's shaping options to compare: depth 1, 3 and full, and the list modes. */
export const SHAPES: readonly { label: string; options: ShapeOptions }[] = [
  { label: "depth 1", options: { depth: 1 } },
  { label: "depth 3", options: { depth: 3 } },
  { label: "full depth", options: { depth: 0 } },
  { label: "full depth, as_list", options: { depth: 0, asList: true } },
  { label: "depth 3, with_lists 3", options: { depth: 3, withLists: [3] } },
  { label: "full depth, as_list, with_lists 2,4", options: { depth: 0, asList: true, withLists: [2, 4] } },
];

export async function runMysql(workload: string): Promise<{ rows: Row[]; notes: string[] }> {
  const loaded = await loadOptional<MysqlModule>("@merge/source-mysql", ["shapeRows", "createMysqlPillar"]);
  if (!loaded.ok)
    return { rows: [{ label: "MySQL pillar", status: "unavailable", note: loaded.reason }], notes: [] };
  const mysql = loaded.module;
  if (workload === "shape") {
    const count = 1_000_000;
    const rows = pillarRows(count);
    const out: Row[] = [];
    for (const shape of SHAPES) {
      const timing = await measure(shape.label, () => mysql.shapeRows(FIELDS, rows, shape.options), {
        iterations: 3,
        warmupIterations: 1,
      });
      out.push({
        label: shape.label,
        status: "ok",
        timing,
        extra: { usPerRow: (timing.median * 1000) / count },
      });
    }
    return { rows: out, notes: [`${count.toLocaleString("en")} rows of 5 columns, no database (shapeRows)`] };
  }
  return runMariaDb(mysql);
}

async function runMariaDb(mysql: MysqlModule): Promise<{ rows: Row[]; notes: string[] }> {
  const env = process.env;
  const host = env.MERGE_TEST_MYSQL_HOST;
  if (host === undefined || host === "" || env.MERGE_TEST_MYSQL_PORT === undefined) {
    return {
      rows: [
        {
          label: "end to end against MariaDB",
          status: "unavailable",
          note: "skipped: MERGE_TEST_MYSQL_* not set (source scripts/mariadb.sh && mariadb_start)",
        },
      ],
      notes: [],
    };
  }
  const { createConnection } = await import("mysql2/promise");
  const settings = {
    host,
    port: Number(env.MERGE_TEST_MYSQL_PORT),
    user: env.MERGE_TEST_MYSQL_USER ?? "root",
    password: env.MERGE_TEST_MYSQL_PASS ?? "",
  };
  const database = `merge_bench_${process.pid}`;
  const admin = await createConnection({ ...settings, multipleStatements: true });
  const count = 100_000;
  try {
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.query(`USE ${database}`);
    await admin.query(
      "CREATE TABLE pillar (host VARCHAR(32), role VARCHAR(16), section VARCHAR(16), setting VARCHAR(16), value VARCHAR(32))",
    );
    const all = pillarRows(count);
    for (let i = 0; i < all.length; i += 5000) {
      await admin.query("INSERT INTO pillar VALUES ?", [all.slice(i, i + 5000)]);
    }
    const out: Row[] = [];
    for (const shape of SHAPES.slice(0, 4)) {
      const query: Dict = {
        query: "SELECT host, role, section, setting, value FROM pillar",
        depth: shape.options.depth,
      };
      if (shape.options.asList) query.as_list = true;
      const pillar = mysql.createMysqlPillar({
        connection: { ...settings, database },
        queries: { bench: query },
      });
      try {
        // Wall time: the server's work on the same machine is part of the cost.
        const timing = await measure(shape.label, () => pillar.fetch("bench-minion"), {
          iterations: 5,
          warmupIterations: 1,
          clock: "wall",
        });
        out.push({
          label: `fetch, ${shape.label}`,
          status: "ok",
          timing,
          extra: { usPerRow: (timing.median * 1000) / count },
        });
      } finally {
        await pillar.close();
      }
    }
    return {
      rows: out,
      notes: [`${count.toLocaleString("en")} rows fetched from MariaDB on loopback and shaped (wall time)`],
    };
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${database}`).catch(() => undefined);
    await admin.end();
  }
}
