import { MergeError, type SourcePosition } from "@merge/core";

/**
 * Every code this package throws. Each is listed in the README's error table and in docs/mysql.md.
 * Database failures are split by what the operator has to fix: the network, the credentials, the database name,
 * the SQL, a slow or locked table, or a connection that went away.
 */
export type MysqlErrorCode =
  | "SQL_CONFIG"
  | "SQL_RESERVED_NAME"
  | "SQL_SHAPE"
  | "SQL_JSON"
  | "DEPTH_LIMIT"
  | "SQL_CONNECT"
  | "SQL_AUTH"
  | "SQL_UNKNOWN_DATABASE"
  | "SQL_QUERY"
  | "SQL_TIMEOUT"
  | "SQL_LOCK_TIMEOUT"
  | "SQL_INTERRUPTED"
  | "SQL_CONNECTION_LOST"
  | "SQL_CLOSED";

/** Where a query came from, for messages: `query main` or `query #2`. */
export interface QueryLabel {
  /** The named root (keyword) of the query, `undefined` for positional ones. */
  readonly root?: string | undefined;
  /** 0-based position of the query in the normalised list. */
  readonly index: number;
  /** The SQL text as configured. */
  readonly sql?: string;
}

export function describeQuery(label: QueryLabel): string {
  return label.root === undefined ? `query #${label.index + 1}` : `query ${JSON.stringify(label.root)}`;
}

function sourceOf(label: QueryLabel | undefined): SourcePosition | undefined {
  return label === undefined ? undefined : { file: describeQuery(label) };
}

/** Shortens SQL for a message: one line, at most 120 characters. */
export function abbreviateSql(sql: string): string {
  const flat = sql.replace(/\s+/g, " ").trim();
  return flat.length > 120 ? `${flat.slice(0, 117)}...` : flat;
}

export function mysqlError(
  code: MysqlErrorCode,
  message: string,
  options: { query?: QueryLabel | undefined; cause?: unknown; details?: Record<string, unknown> } = {},
): MergeError {
  const query = options.query;
  // The query is the error's source, which every report prints before the message: said once, not twice.
  const lead = query === undefined ? "" : `${describeQuery(query)}: `;
  const text = lead !== "" && message.startsWith(lead) ? message.slice(lead.length) : message;
  const details: Record<string, unknown> = { ...options.details };
  if (query !== undefined) {
    details.query = query.sql;
    details.root = query.root;
    details.index = query.index;
  }
  return new MergeError(code, text, {
    source: sourceOf(query),
    cause: options.cause,
    details,
    plugin: "mysql",
  });
}
