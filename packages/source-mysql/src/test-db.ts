// Test helper (not built): the throwaway MariaDB server scripts/mariadb.sh starts, and one database per test file.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { type Connection, createConnection } from "mysql2/promise";
import { describe, it } from "vitest";
import type { MysqlSettings } from "./settings.js";

export interface TestServer {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly password: string;
  readonly socket: string | undefined;
}

function readServer(): TestServer | undefined {
  const env = process.env;
  const host = env.MERGE_TEST_MYSQL_HOST;
  const port = env.MERGE_TEST_MYSQL_PORT;
  if (host === undefined || host === "" || port === undefined || port === "") return undefined;
  // Loopback only: these tests kill queries and create databases.
  if (host !== "127.0.0.1" && host !== "::1" && host !== "localhost") {
    throw new Error(`MERGE_TEST_MYSQL_HOST must be a loopback address, got ${host}`);
  }
  return {
    host,
    port: Number(port),
    user: env.MERGE_TEST_MYSQL_USER ?? "root",
    password: env.MERGE_TEST_MYSQL_PASS ?? "",
    socket: env.MERGE_TEST_MYSQL_SOCKET === "" ? undefined : env.MERGE_TEST_MYSQL_SOCKET,
  };
}

export const testServer: TestServer | undefined = readServer();

const MISSING =
  "MySQL integration tests need a server: run `source scripts/mariadb.sh && mariadb_start` " +
  "(it exports MERGE_TEST_MYSQL_HOST/PORT/USER/PASS/SOCKET)";

/**
 * `describe` for tests that need the server. Without one they are skipped with a message, except in CI
 * (`CI` set), where a missing server is a failure: the integration tests must not silently vanish there.
 */
export function describeWithServer(name: string, body: (server: TestServer) => void): void {
  const server = testServer;
  if (server !== undefined) {
    describe(name, () => body(server));
    return;
  }
  if (process.env.CI) {
    describe(name, () => {
      it("has a MySQL server to run against", () => {
        throw new Error(`CI is set but no server is configured. ${MISSING}`);
      });
    });
    return;
  }
  process.stderr.write(`[@merge/source-mysql] skipped "${name}": ${MISSING}\n`);
  describe.runIf(false)(`${name} (skipped: no MERGE_TEST_MYSQL_HOST)`, () => body(undefined as never));
}

/** Settings for the pillar pointing at the test server's TCP port and the given database. */
export function settingsFor(server: TestServer, database: string): MysqlSettings {
  return { host: server.host, port: server.port, user: server.user, password: server.password, database };
}

export interface TestDatabase {
  readonly name: string;
  /** An administrative connection (multiple statements allowed), on the test database. */
  readonly admin: Connection;
  /** Opens another connection to the test database (for locks and kills). */
  connect(): Promise<Connection>;
  /** Runs a file of SQL statements. */
  load(path: string | URL): Promise<void>;
  drop(): Promise<void>;
}

/** Creates a database with a unique name for one test file; `drop()` removes it. */
export async function createTestDatabase(server: TestServer, label: string): Promise<TestDatabase> {
  const name = `merge_${label}_${process.pid}_${randomBytes(4).toString("hex")}`;
  const base = {
    host: server.host,
    port: server.port,
    user: server.user,
    password: server.password,
    multipleStatements: true,
    supportBigNumbers: true,
    dateStrings: true,
  } as const;
  const root = await createConnection(base);
  await root.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`);
  await root.end();
  const admin = await createConnection({ ...base, database: name });
  return {
    name,
    admin,
    connect: () => createConnection({ ...base, database: name }),
    async load(path) {
      const file = typeof path === "string" ? path : fileURLToPath(path);
      await admin.query(readFileSync(file, "utf8"));
    },
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await admin.end();
    },
  };
}

/** A loopback TCP port nothing listens on (bound, then released). */
export function unusedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Waits until the server shows a running statement containing `marker`, and returns its connection id. It waits as
 * long as that takes (a busy machine can be slow to start the query), but no longer than `pending`, the run that
 * sends the statement: when that ends first, the statement will never show.
 */
export async function waitForQuery(
  admin: Connection,
  marker: string,
  pending: Promise<unknown>,
): Promise<number> {
  let settled = false;
  pending.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  while (!settled) {
    const [rows] = await admin.query(
      "SELECT ID FROM information_schema.PROCESSLIST WHERE INFO LIKE ? AND INFO NOT LIKE '%PROCESSLIST%'",
      [`%${marker}%`],
    );
    const list = rows as { ID: number }[];
    if (list.length > 0) return Number(list[0]!.ID);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`the run ended before a query containing ${marker} showed on the server`);
}
