import { readFileSync } from "node:fs";
import type { ConnectionOptions, Pool, PoolOptions } from "mysql2";
import { mysqlError } from "./errors.js";
import type { MysqlSettings } from "./settings.js";

/** Pool sizing and time limits. */
export interface PoolLimits {
  /** Most connections open at once (default 10). Further fetches wait in the pool's queue. */
  readonly connectionLimit?: number;
  /** Most fetches waiting for a connection; 0 (default) means no limit. */
  readonly queueLimit?: number;
  /** Milliseconds to establish a connection (default: the settings' `connectTimeout`, else 10000). */
  readonly connectTimeout?: number;
}

function readTlsFile(path: string, what: string): Buffer {
  try {
    return readFileSync(path);
  } catch (cause) {
    throw mysqlError("SQL_CONFIG", `cannot read the ${what} file ${JSON.stringify(path)}`, {
      cause: cause instanceof Error ? new Error(cause.message) : undefined,
    });
  }
}

/**
 * The driver options every connection uses. The value mapping is chosen to match what Salt's MySQLdb gives and to
 * stay exact in JSON: BIGINT beyond 2^53 and DECIMAL arrive as decimal text, dates as the server's text, JSON
 * columns as their text (MySQLdb does not parse them either), BLOB as bytes.
 */
export function driverOptions(settings: MysqlSettings, limits: PoolLimits = {}): ConnectionOptions {
  const options: ConnectionOptions = {
    user: settings.user,
    password: settings.password,
    database: settings.database,
    connectTimeout: limits.connectTimeout ?? settings.connectTimeout ?? 10_000,
    charset: "UTF8MB4_UNICODE_CI",
    supportBigNumbers: true,
    bigNumberStrings: false,
    decimalNumbers: false,
    dateStrings: true,
    jsonStrings: true,
    multipleStatements: false,
    namedPlaceholders: false,
    enableKeepAlive: true,
    // mysql2's generated (eval) row parser refuses a column named `__proto__`, which is ordinary data for a pillar;
    // its static parser reads rows as arrays without that check, and no code is generated from server-sent names.
    disableEval: true,
  };
  if (settings.socketPath !== undefined) options.socketPath = settings.socketPath;
  else {
    options.host = settings.host;
    options.port = settings.port;
  }
  const ssl = settings.ssl;
  if (ssl !== undefined) {
    options.ssl = {
      ...(ssl.ca === undefined ? {} : { ca: readTlsFile(ssl.ca, "mysql.ssl_ca") }),
      ...(ssl.cert === undefined ? {} : { cert: readTlsFile(ssl.cert, "mysql.ssl_cert") }),
      ...(ssl.key === undefined ? {} : { key: readTlsFile(ssl.key, "mysql.ssl_key") }),
      ...(ssl.cipher === undefined ? {} : { ciphers: ssl.cipher }),
      rejectUnauthorized: ssl.verify !== false,
    };
  }
  return options;
}

/** Creates the bounded pool. mysql2 is loaded here, on first use, so shaping alone never loads the driver. */
export async function openPool(settings: MysqlSettings, limits: PoolLimits = {}): Promise<Pool> {
  const { createPool } = await import("mysql2");
  const connectionLimit = limits.connectionLimit ?? 10;
  const queueLimit = limits.queueLimit ?? 0;
  if (!Number.isInteger(connectionLimit) || connectionLimit < 1) {
    throw mysqlError("SQL_CONFIG", `connectionLimit must be a whole number ≥ 1, got ${connectionLimit}`);
  }
  if (!Number.isInteger(queueLimit) || queueLimit < 0) {
    throw mysqlError("SQL_CONFIG", `queueLimit must be a whole number ≥ 0, got ${queueLimit}`);
  }
  const options: PoolOptions = {
    ...driverOptions(settings, limits),
    connectionLimit,
    queueLimit,
    waitForConnections: true,
    maxIdle: connectionLimit,
    idleTimeout: 60_000,
  };
  const pool = createPool(options);
  // A connection the server drops while idle emits "error"; the pool replaces it on next use. Without a listener
  // a second such event would be an uncaught exception in the host process.
  pool.on("connection", (connection) => {
    connection.on("error", () => {});
  });
  return pool;
}

/** Opens one connection outside the pool (to stop a runaway query), runs `sql`, closes it; never throws. */
export async function runOnce(settings: MysqlSettings, sql: string): Promise<void> {
  try {
    const { createConnection } = await import("mysql2");
    const connection = createConnection({ ...driverOptions(settings), connectTimeout: 5_000 });
    connection.on("error", () => {});
    await new Promise<void>((resolve) => {
      connection.query(sql, () => {
        connection.destroy();
        resolve();
      });
    });
  } catch {
    // Best effort: the server ends the query on its own once it notices the closed connection.
  }
}
