import { type Dict, hasOwn, isPlainObject } from "@merge/core";
import { mysqlError } from "./errors.js";

/** TLS files (paths) for the connection, as Salt's `mysql.ssl_ca`/`ssl_cert`/`ssl_key` or `ssl: {ca, ...}`. */
export interface MysqlSslSettings {
  readonly ca?: string;
  readonly cert?: string;
  readonly key?: string;
  readonly cipher?: string;
  /** Check the server certificate (default true when any TLS setting is given). */
  readonly verify?: boolean;
}

/** Where and how to connect. `password` is never put in an error message. */
export interface MysqlSettings {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly password: string;
  readonly database: string;
  /** A Unix socket path; when set, host and port are not used. */
  readonly socketPath?: string;
  readonly ssl?: MysqlSslSettings;
  /** Milliseconds to wait for a connection (`mysql.connect_timeout` is in seconds, as in Salt's returner). */
  readonly connectTimeout?: number;
}

/** Salt's defaults when a setting is missing (`salt/pillar/mysql.py`). */
export const SALT_MYSQL_DEFAULTS: Readonly<MysqlSettings> = Object.freeze({
  host: "localhost",
  port: 3306,
  user: "salt",
  password: "salt",
  database: "salt",
});

// Salt's option names, and the spellings people also write.
const ALIASES: Record<string, string> = {
  host: "host",
  port: "port",
  user: "user",
  pass: "pass",
  password: "pass",
  passwd: "pass",
  db: "db",
  database: "db",
  unix_socket: "unix_socket",
  socket: "unix_socket",
  ssl_ca: "ssl_ca",
  ssl_cert: "ssl_cert",
  ssl_key: "ssl_key",
  ssl_cipher: "ssl_cipher",
  ssl_verify: "ssl_verify",
  ssl: "ssl",
  connect_timeout: "connect_timeout",
};

type Raw = Record<string, unknown>;

function collect(target: Raw, source: Readonly<Dict>, prefix: string): void {
  for (const key of Object.keys(source)) {
    if (prefix !== "" && !key.startsWith(prefix)) continue;
    const name = ALIASES[key.slice(prefix.length)];
    if (name !== undefined) target[name] = source[key];
  }
}

function text(raw: Raw, name: string, fallback: string): string {
  const value = raw[name];
  if (value === undefined || value === null || value === "") return fallback;
  if (typeof value === "string") return value;
  if (typeof value === "number" && name !== "pass") return String(value);
  // Never echo the value: it may be the password.
  throw mysqlError("SQL_CONFIG", `mysql.${name} must be text`);
}

function optionalText(raw: Raw, name: string): string | undefined {
  const value = raw[name];
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string") throw mysqlError("SQL_CONFIG", `mysql.${name} must be text`);
  return value;
}

function portOf(value: unknown): number {
  if (value === undefined || value === null || value === "") return SALT_MYSQL_DEFAULTS.port;
  const port = typeof value === "string" && /^\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof port !== "number" || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw mysqlError(
      "SQL_CONFIG",
      `mysql.port must be a whole number from 1 to 65535, got ${JSON.stringify(value)}`,
    );
  }
  return port;
}

function sslOf(raw: Raw): MysqlSslSettings | undefined {
  const nested = raw.ssl;
  const ssl: Record<string, string | boolean> = {};
  if (isPlainObject(nested)) {
    for (const key of ["ca", "cert", "key", "cipher"]) {
      const value = nested[key];
      if (value === undefined || value === null) continue;
      if (typeof value !== "string") throw mysqlError("SQL_CONFIG", `mysql.ssl.${key} must be a file path`);
      ssl[key] = value;
    }
    if (typeof nested.verify === "boolean") ssl.verify = nested.verify;
  } else if (nested !== undefined && nested !== null && nested !== false) {
    throw mysqlError("SQL_CONFIG", "mysql.ssl must be a mapping of ca, cert, key, cipher");
  }
  for (const key of ["ca", "cert", "key", "cipher"]) {
    const value = optionalText(raw, `ssl_${key}`);
    if (value !== undefined) ssl[key] = value;
  }
  if (typeof raw.ssl_verify === "boolean") ssl.verify = raw.ssl_verify;
  return Object.keys(ssl).length === 0 ? undefined : (ssl as MysqlSslSettings);
}

function timeoutOf(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  const seconds = typeof value === "string" ? Number(value) : value;
  if (typeof seconds !== "number" || !(seconds > 0)) {
    throw mysqlError("SQL_CONFIG", `mysql.connect_timeout must be a positive number of seconds`);
  }
  return seconds * 1000;
}

function fromRaw(raw: Raw): MysqlSettings {
  const socketPath = optionalText(raw, "unix_socket");
  const ssl = sslOf(raw);
  const connectTimeout = timeoutOf(raw.connect_timeout);
  return {
    host: text(raw, "host", SALT_MYSQL_DEFAULTS.host),
    port: portOf(raw.port),
    user: text(raw, "user", SALT_MYSQL_DEFAULTS.user),
    password:
      raw.pass === undefined || raw.pass === null ? SALT_MYSQL_DEFAULTS.password : text(raw, "pass", ""),
    database: text(raw, "db", SALT_MYSQL_DEFAULTS.database),
    ...(socketPath === undefined ? {} : { socketPath }),
    ...(ssl === undefined ? {} : { ssl }),
    ...(connectTimeout === undefined ? {} : { connectTimeout }),
  };
}

function decode(part: string, what: string): string {
  try {
    return decodeURIComponent(part);
  } catch (cause) {
    throw mysqlError("SQL_CONFIG", `the MySQL URL has a badly escaped ${what}`, {
      cause: new Error(String(cause)),
    });
  }
}

/** `mysql://user:pass@host:port/db?socket=/run/mysqld.sock&ssl_ca=/etc/ca.pem` (also `mariadb://`). */
function fromUrl(input: string): Raw {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw mysqlError("SQL_CONFIG", "the MySQL connection URL cannot be parsed");
  }
  if (url.protocol !== "mysql:" && url.protocol !== "mariadb:") {
    throw mysqlError(
      "SQL_CONFIG",
      `a MySQL connection URL starts with mysql:// or mariadb://, not ${url.protocol}//`,
    );
  }
  const raw: Raw = {};
  if (url.hostname !== "") raw.host = decode(url.hostname.replace(/^\[(.*)\]$/, "$1"), "host");
  if (url.port !== "") raw.port = url.port;
  if (url.username !== "") raw.user = decode(url.username, "user name");
  if (url.password !== "") raw.pass = decode(url.password, "password");
  const db = url.pathname.replace(/^\//, "");
  if (db !== "") raw.db = decode(db, "database name");
  for (const [key, value] of url.searchParams) {
    const name = ALIASES[key];
    if (name === undefined || name === "pass" || name === "ssl") continue;
    raw[name] = name === "ssl_verify" ? value !== "false" && value !== "0" : value;
  }
  return raw;
}

/**
 * Reads connection settings from a connection URL or from a Salt master configuration: the flat keys
 * (`mysql.host`, `mysql.user`, `mysql.pass`, `mysql.db`, `mysql.port`, `mysql.unix_socket`, `mysql.ssl_ca`, ...)
 * and/or the nested `mysql: {host, user, pass, db, port, ...}` block (which may itself be a URL). When both forms
 * set the same option the flat key wins. A mapping of only connection keys is read as the block itself. Missing
 * settings get Salt's defaults (localhost, 3306, salt/salt, database salt).
 */
export function parseMysqlSettings(input: string | Readonly<Dict>): MysqlSettings {
  if (typeof input === "string") return fromRaw(fromUrl(input));
  if (!isPlainObject(input)) throw mysqlError("SQL_CONFIG", "MySQL settings must be a URL or a mapping");
  const raw: Raw = {};
  const hasFlat = Object.keys(input).some((key) => key.startsWith("mysql."));
  const nested = hasOwn(input, "mysql") ? input.mysql : undefined;
  if (typeof nested === "string") Object.assign(raw, fromUrl(nested));
  else if (isPlainObject(nested)) collect(raw, nested, "");
  else if (nested !== undefined && nested !== null) {
    throw mysqlError("SQL_CONFIG", "the mysql: block must be a mapping or a connection URL");
  }
  if (hasFlat) collect(raw, input, "mysql.");
  // A mapping of only connection keys is the block itself. A master configuration without a mysql block must not
  // be read that way: its top-level `user` is the account Salt runs as, not the database user.
  if (nested === undefined && !hasFlat && Object.keys(input).every((key) => hasOwn(ALIASES, key))) {
    collect(raw, input, "");
  }
  return fromRaw(raw);
}

/** True for a value `parseMysqlSettings` already produced (or one written in its shape). */
export function isMysqlSettings(value: unknown): value is MysqlSettings {
  return (
    isPlainObject(value) &&
    typeof value.host === "string" &&
    typeof value.port === "number" &&
    typeof value.user === "string" &&
    typeof value.password === "string" &&
    typeof value.database === "string"
  );
}

/** The settings with the password masked, for logs and `--explain` output. */
export function describeSettings(settings: MysqlSettings): string {
  const where = settings.socketPath === undefined ? `${settings.host}:${settings.port}` : settings.socketPath;
  return `mysql://${settings.user}:***@${where}/${settings.database}`;
}
