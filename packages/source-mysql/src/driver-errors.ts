import type { MergeError } from "@merge/core";
import { abbreviateSql, describeQuery, type MysqlErrorCode, mysqlError, type QueryLabel } from "./errors.js";

/** The fields of a mysql2 / Node socket error that we read. Everything else (and the config) is left behind. */
interface DriverErrorLike {
  code?: unknown;
  errno?: unknown;
  sqlState?: unknown;
  sqlMessage?: unknown;
  message?: unknown;
  fatal?: unknown;
}

// Server error numbers (MySQL and MariaDB share them below 2000; MariaDB's own ones are noted).
const AUTH_ERRNOS = new Set([1044, 1045, 1698, 1251, 1227, 1130, 1862]);
const CONNECT_ERRNOS = new Set([1040, 1129, 1203]);
const LOCK_ERRNOS = new Set([1205, 1213]);
// 1969 MariaDB max_statement_time exceeded, 3024 MySQL max_execution_time exceeded.
const TIMEOUT_ERRNOS = new Set([1969, 3024]);
// 1053 server shutdown, 1927 connection killed (MariaDB), 4031 idle timeout (MySQL).
const LOST_ERRNOS = new Set([1053, 1927, 4031]);
// 1317: KILL QUERY from another session; the connection survives.
const INTERRUPTED_ERRNO = 1317;

const CONNECT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "ENOENT",
  "EACCES",
  "HANDSHAKE_NO_SSL_SUPPORT",
  "HANDSHAKE_SSL_ERROR",
]);
const LOST_CODES = new Set([
  "PROTOCOL_CONNECTION_LOST",
  "ECONNRESET",
  "EPIPE",
  "ECONNABORTED",
  "PROTOCOL_PACKETS_OUT_OF_ORDER",
  "ERR_STREAM_WRITE_AFTER_END",
]);

/** Which of our codes a driver error maps to, and whether it happened while connecting. */
export function classifyDriverError(error: unknown, phase: "connect" | "query"): MysqlErrorCode {
  const e = (typeof error === "object" && error !== null ? error : {}) as DriverErrorLike;
  const errno = typeof e.errno === "number" ? e.errno : undefined;
  const code = typeof e.code === "string" ? e.code : "";
  if (errno !== undefined && AUTH_ERRNOS.has(errno)) return "SQL_AUTH";
  if (errno === 1049 || code === "ER_BAD_DB_ERROR") return "SQL_UNKNOWN_DATABASE";
  if (errno !== undefined && CONNECT_ERRNOS.has(errno)) return "SQL_CONNECT";
  if (errno !== undefined && LOCK_ERRNOS.has(errno)) return "SQL_LOCK_TIMEOUT";
  if (errno !== undefined && TIMEOUT_ERRNOS.has(errno)) return "SQL_TIMEOUT";
  if (errno === INTERRUPTED_ERRNO) return "SQL_INTERRUPTED";
  if (errno !== undefined && LOST_ERRNOS.has(errno)) return "SQL_CONNECTION_LOST";
  if (code === "ETIMEDOUT" || code === "PROTOCOL_SEQUENCE_TIMEOUT") {
    return phase === "connect" ? "SQL_CONNECT" : "SQL_TIMEOUT";
  }
  if (CONNECT_CODES.has(code)) return "SQL_CONNECT";
  if (LOST_CODES.has(code)) return phase === "connect" ? "SQL_CONNECT" : "SQL_CONNECTION_LOST";
  if (phase === "connect") return "SQL_CONNECT";
  return "SQL_QUERY";
}

/**
 * A copy of the driver error with only its code, number, SQL state and message: the original holds references to
 * the connection (and so to its configuration, password included), which must not travel with our error.
 */
export function sanitizeDriverError(error: unknown, secrets: readonly string[] = []): Error {
  const e = (typeof error === "object" && error !== null ? error : {}) as DriverErrorLike;
  const message = redact(typeof e.message === "string" ? e.message : String(error), secrets);
  const copy = new Error(message) as Error & Record<string, unknown>;
  copy.name = "MysqlDriverError";
  if (typeof e.code === "string") copy.code = e.code;
  if (typeof e.errno === "number") copy.errno = e.errno;
  if (typeof e.sqlState === "string") copy.sqlState = e.sqlState;
  return copy;
}

/** Removes every occurrence of each secret (the password) from a text. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret !== "") out = out.split(secret).join("***");
  }
  return out;
}

const LEADS: Record<MysqlErrorCode, string> = {
  SQL_CONFIG: "invalid MySQL pillar configuration",
  SQL_RESERVED_NAME: "a query name collides with ext_pillar's own arguments",
  SQL_SHAPE: "cannot shape the rows",
  SQL_JSON: "a JSON column cannot be read",
  DEPTH_LIMIT: "the pillar nests too deep",
  SQL_CONNECT: "cannot connect to the MySQL server",
  SQL_AUTH: "the MySQL server refused the credentials",
  SQL_UNKNOWN_DATABASE: "the MySQL database does not exist",
  SQL_QUERY: "the MySQL query failed",
  SQL_TIMEOUT: "the MySQL query timed out",
  SQL_LOCK_TIMEOUT: "the MySQL query gave up waiting for a lock",
  SQL_INTERRUPTED: "the MySQL query was interrupted (KILL QUERY)",
  SQL_CONNECTION_LOST: "the connection to the MySQL server was lost during the query",
  SQL_CLOSED: "the MySQL pillar is closed",
};

/** Turns any failure of the driver into our coded error naming the query, with secrets removed. */
export function wrapDriverError(
  error: unknown,
  phase: "connect" | "query",
  query: QueryLabel | undefined,
  secrets: readonly string[],
  where: string,
): MergeError {
  const code = classifyDriverError(error, phase);
  const cause = sanitizeDriverError(error, secrets);
  const e = (typeof error === "object" && error !== null ? error : {}) as DriverErrorLike;
  const driverCode = typeof e.code === "string" ? ` ${e.code}` : "";
  const what = query === undefined ? "" : ` (${describeQuery(query)}: ${abbreviateSql(query.sql ?? "")})`;
  return mysqlError(code, `${LEADS[code]} at ${where}${what}:${driverCode} ${cause.message}`, {
    query,
    cause,
    details: { driverCode: typeof e.code === "string" ? e.code : undefined, errno: e.errno },
  });
}
