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

/** Where a driver failure happened: the server, the database asked for, and the query running (if one was). */
export interface DriverErrorContext {
  /** `host:port` or the socket path. */
  readonly server: string;
  readonly database?: string | undefined;
  /** The query that was running; `undefined` while connecting or between queries. */
  readonly query?: QueryLabel | undefined;
  /** What was being done when no query was running: `starting the transaction`. */
  readonly step?: string;
}

// Codes a query is to blame for: the message is about that query, which the error's source names. Everything else
// (the network, the login, the database name, a connection that went away) is about the server, never a query.
const QUERY_FAULTS = new Set<MysqlErrorCode>([
  "SQL_QUERY",
  "SQL_TIMEOUT",
  "SQL_LOCK_TIMEOUT",
  "SQL_INTERRUPTED",
]);

// Node's socket errors in words; its own text repeats the code and the address the message already names.
const SOCKET_REASONS: Readonly<Record<string, string>> = {
  ECONNREFUSED: "connection refused (is the server running and listening there?)",
  ENOTFOUND: "no such host",
  EAI_AGAIN: "the host name could not be looked up (DNS did not answer)",
  EHOSTUNREACH: "the host is unreachable",
  ENETUNREACH: "the network is unreachable",
  EADDRNOTAVAIL: "the address is not available",
  ENOENT: "no such socket file",
  EACCES: "permission denied",
  ETIMEDOUT: "no answer in time",
  ECONNRESET: "the server closed the connection",
  EPIPE: "the server closed the connection",
  PROTOCOL_CONNECTION_LOST: "the server closed the connection",
  PROTOCOL_SEQUENCE_TIMEOUT: "no answer in time",
};

/**
 * Turns any failure of the driver into our coded error, in one line that says each thing once: what failed (the
 * server and, only when a query is at fault, the query as the error's source and its SQL), then the server's own
 * reason, without the driver's code names or a second copy of the address. Secrets are removed.
 */
export function wrapDriverError(
  error: unknown,
  phase: "connect" | "query",
  context: DriverErrorContext,
  secrets: readonly string[],
): MergeError {
  const code = classifyDriverError(error, phase);
  const cause = sanitizeDriverError(error, secrets);
  const e = (typeof error === "object" && error !== null ? error : {}) as DriverErrorLike;
  const driverCode = typeof e.code === "string" ? e.code : undefined;
  const reason = reasonOf(cause.message, driverCode);
  const { server, query } = context;
  const sql = query === undefined ? "" : abbreviateSql(query.sql ?? "");
  // The SQL after the reason, unless the server's text already quotes all of it (a syntax error near the start).
  const withSql = (text: string) => (sql === "" || text.includes(sql) ? text : `${text}; the SQL: ${sql}`);
  let during = "";
  if (query !== undefined) during = ` while ${describeQuery(query)} ran`;
  else if (context.step !== undefined) during = ` while ${context.step}`;
  let message: string;
  // A query-kind failure with no query running (while starting the transaction) is the server's.
  switch (query === undefined && QUERY_FAULTS.has(code) ? "SQL_QUERY" : code) {
    case "SQL_CONNECT":
      message = `cannot connect to the MySQL server at ${server}: ${reason}`;
      break;
    case "SQL_AUTH":
      message =
        phase === "connect" || query === undefined
          ? `the MySQL server at ${server} refused the login: ${reason}`
          : withSql(`refused: ${reason}`);
      break;
    case "SQL_UNKNOWN_DATABASE":
      message =
        context.database === undefined || context.database === ""
          ? `the MySQL server at ${server}: ${reason}`
          : `the MySQL server at ${server} has no database ${JSON.stringify(context.database)}`;
      break;
    case "SQL_CONNECTION_LOST":
      message = `lost the connection to the MySQL server at ${server}${during}: ${reason}`;
      break;
    case "SQL_TIMEOUT":
      message = withSql(`timed out: ${reason}`);
      break;
    case "SQL_LOCK_TIMEOUT":
      message = withSql(`gave up waiting for a lock: ${reason}`);
      break;
    case "SQL_INTERRUPTED":
      message = withSql(`was interrupted (KILL QUERY): ${reason}`);
      break;
    default:
      message =
        query === undefined ? `the MySQL server at ${server} failed${during}: ${reason}` : withSql(reason);
  }
  const blamed = query !== undefined && phase === "query" && (QUERY_FAULTS.has(code) || code === "SQL_AUTH");
  return mysqlError(code, message, {
    query: blamed ? query : undefined,
    cause,
    details: {
      driverCode,
      errno: e.errno,
      ...(query !== undefined && !blamed ? { runningQuery: query.root ?? query.index } : {}),
    },
  });
}

/** The server's or the socket's reason, once: no driver code in front, no `connect ECONNREFUSED 1.2.3.4:5`. */
function reasonOf(message: string, driverCode: string | undefined): string {
  // A socket error's text is the code, the system call and the address (or "Connection lost"): all said already.
  if (driverCode !== undefined && Object.hasOwn(SOCKET_REASONS, driverCode))
    return SOCKET_REASONS[driverCode]!;
  const text = driverCode === undefined ? message : message.replace(new RegExp(`^${driverCode}:? `), "");
  return text.trim() === "" ? (driverCode ?? "unknown failure") : text.trim();
}
