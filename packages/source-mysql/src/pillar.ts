import type { EventEmitter } from "node:events";
import {
  type Dict,
  isMergeError,
  isPlainObject,
  type MappingKey,
  MergeError,
  PyDict,
  PyFloat,
  toPlain,
} from "@merge/core";
import type { FieldPacket, Pool, PoolConnection } from "mysql2";
import { type ColumnFixes, columnFixes, decimalColumns, type FieldLike, fixRow } from "./columns.js";
import { decimalKeysAsText, decimalPathAsText, storedPathAsText } from "./keys.js";
import { classifyDriverError, type DriverErrorContext, redact, wrapDriverError } from "./driver-errors.js";
import { abbreviateSql, describeQuery, mysqlError, type QueryLabel } from "./errors.js";
import { mergeExtPillar } from "./merge.js";
import { type PreparedSql, prepareSql } from "./placeholders.js";
import type { MysqlProvenance, MysqlQuerySource, MysqlValueSource } from "./provenance.js";
import { openPool, type PoolLimits, runOnce } from "./pool.js";
import { type ExtractOptions, extractQueriesFromConfig, type QuerySpec } from "./queries.js";
import type { ValuePlace } from "./places.js";
import { checkDepth, createShaper, type RowSink, type ShapedValue, type Shaper } from "./shape.js";
import { isMysqlSettings, type MysqlSettings, parseMysqlSettings } from "./settings.js";

export interface MysqlPillarOptions extends PoolLimits {
  /**
   * Where to connect: a `mysql://` URL, a Salt master configuration (`mysql.host` ... or `mysql: {...}`), or
   * settings from `parseMysqlSettings`. Missing settings get Salt's defaults.
   */
  readonly connection?: string | Readonly<Dict> | MysqlSettings;
  /** The value under one `- mysql:` entry of `ext_pillar` (a mapping, a list, or one query). */
  readonly queries?: unknown;
  /** Several `- mysql:` values; their results are merged in order, as Salt merges ext_pillar results. */
  readonly entries?: readonly unknown[];
  /** Milliseconds one query may run (default 60000; 0 turns the limit off). */
  readonly queryTimeout?: number;
  /**
   * `true` (default): a `mysql_query` keyword runs first, at the top level (Salt 2014.7 – 2016.3). `false`: it is an
   * ordinary named query like any other keyword (Salt 2016.11 and later). In a master configuration:
   * `merge: {legacy_mysql_query: false}`.
   */
  readonly legacyMysqlQuery?: boolean;
  /**
   * `plain` (default): the data as plain objects (keys named as `json.dumps` names them, whole floats as numbers).
   * `exact`: what Salt's Python holds, in `@merge/core`'s exact model: `PyDict`s whose keys are the column values
   * (an int key stays an int, in row order), FLOAT/DOUBLE as floats (`1.0` a `PyFloat`), big ints as `bigint`.
   */
  readonly values?: "plain" | "exact";
}

/** The shaped data of a fetch: plain objects, or `PyDict`s with `values: "exact"`. */
export type MysqlData<V extends "plain" | "exact" = "plain"> = V extends "exact" ? PyDict : Dict;

/** A reusable MySQL pillar: one bounded pool, many fetches. */
export interface MysqlPillar<V extends "plain" | "exact" = "plain"> {
  /** The normalised queries of each entry, in the order they run. */
  readonly queries: readonly (readonly QuerySpec[])[];
  /** Runs every query for one minion and returns the shaped data; rejects with a coded `MergeError`. */
  fetch(minionId: string): Promise<MysqlData<V>>;
  /**
   * `fetch`, and beside the same data where each value came from: the query (entry, name, SQL) and the row (its
   * number and key columns) of every value a row wrote, including the ones a later query or row replaced.
   */
  fetchWithProvenance(
    minionId: string,
  ): Promise<{ readonly data: MysqlData<V>; readonly provenance: MysqlProvenance }>;
  /** Closes the pool (waits for running fetches to give their connections back). */
  close(): Promise<void>;
}

interface PreparedQuery {
  readonly spec: QuerySpec;
  readonly prepared: PreparedSql;
  readonly label: QueryLabel;
}

const DEFAULT_QUERY_TIMEOUT = 60_000;

function settingsOf(connection: MysqlPillarOptions["connection"]): MysqlSettings {
  if (connection === undefined) return parseMysqlSettings({});
  if (typeof connection !== "string" && isMysqlSettings(connection)) return connection;
  return parseMysqlSettings(connection);
}

/** A whole master configuration (with `mysql:`/`mysql.*` and `ext_pillar:`) is accepted in place of options. */
function optionsOf(input: MysqlPillarOptions | Readonly<Dict>): MysqlPillarOptions {
  if (!isPlainObject(input)) throw mysqlError("SQL_CONFIG", "MySQL pillar options must be a mapping");
  const ours = ["connection", "queries", "entries"].some((key) => Object.hasOwn(input, key));
  const master =
    Object.hasOwn(input, "ext_pillar") ||
    Object.hasOwn(input, "mysql") ||
    Object.keys(input).some((key) => key.startsWith("mysql."));
  if (ours || !master) return input as MysqlPillarOptions;
  return {
    ...(input as MysqlPillarOptions),
    ...mysqlOptionsFromMaster(input),
    connection: input,
    entries: mysqlEntriesFromMaster(input),
  };
}

/** The master configuration's mapping of options that only merge reads (Salt ignores keys it does not know). */
const MERGE_OPTIONS_KEY = "merge";

/**
 * The pillar options a Salt master configuration sets for merge itself, from its top-level `merge:` mapping
 * (`merge: {legacy_mysql_query: false}`). Salt ignores that key; `SQL_CONFIG` if it is malformed.
 */
export function mysqlOptionsFromMaster(master: Readonly<Dict>): Pick<MysqlPillarOptions, "legacyMysqlQuery"> {
  if (!Object.hasOwn(master, MERGE_OPTIONS_KEY)) return {};
  const block = master[MERGE_OPTIONS_KEY];
  if (block === null || block === undefined) return {};
  if (!isPlainObject(block)) {
    throw mysqlError("SQL_CONFIG", `${MERGE_OPTIONS_KEY}: must be a mapping of merge's own options`);
  }
  if (!Object.hasOwn(block, "legacy_mysql_query")) return {};
  const legacy = block.legacy_mysql_query;
  if (typeof legacy !== "boolean") {
    throw mysqlError(
      "SQL_CONFIG",
      `${MERGE_OPTIONS_KEY}.legacy_mysql_query must be true or false, got ${JSON.stringify(legacy) ?? String(legacy)}`,
    );
  }
  return { legacyMysqlQuery: legacy };
}

function prepareEntry(entry: unknown, extract: ExtractOptions): PreparedQuery[] {
  return extractQueriesFromConfig(entry, extract).map((spec, index) => ({
    spec,
    prepared: prepareSql(spec.query),
    label: { root: spec.root, index, sql: spec.query },
  }));
}

function acquire(pool: Pool): Promise<PoolConnection> {
  return new Promise((resolve, reject) => {
    pool.getConnection((error, connection) => (error ? reject(error) : resolve(connection)));
  });
}

function plainQuery(connection: PoolConnection, sql: string): Promise<void> {
  return new Promise((resolve, reject) => {
    connection.query(sql, (error) => (error ? reject(error) : resolve()));
  });
}

/**
 * Creates a MySQL pillar from options, or from a whole Salt master configuration (its `mysql` connection and every
 * `- mysql:` entry of `ext_pillar`). Configuration errors (`SQL_CONFIG`) are thrown here; the pool and the driver are
 * only opened by the first `fetch`.
 */
export function createMysqlPillar(
  input: MysqlPillarOptions & { readonly values: "exact" },
): MysqlPillar<"exact">;
export function createMysqlPillar(input: MysqlPillarOptions | Readonly<Dict>): MysqlPillar<"plain">;
export function createMysqlPillar(
  input: MysqlPillarOptions | Readonly<Dict>,
): MysqlPillar<"plain"> | MysqlPillar<"exact"> {
  const options = optionsOf(input);
  if (options.values !== undefined && options.values !== "plain" && options.values !== "exact") {
    throw mysqlError("SQL_CONFIG", `values must be "plain" or "exact", got ${String(options.values)}`);
  }
  const exact = options.values === "exact";
  const settings = settingsOf(options.connection);
  if (options.entries !== undefined && !Array.isArray(options.entries)) {
    throw mysqlError("SQL_CONFIG", "entries must be a list of `- mysql:` values");
  }
  const entryValues = options.entries ?? (options.queries === undefined ? [] : [options.queries]);
  if (options.legacyMysqlQuery !== undefined && typeof options.legacyMysqlQuery !== "boolean") {
    throw mysqlError(
      "SQL_CONFIG",
      `legacyMysqlQuery must be true or false, got ${String(options.legacyMysqlQuery)}`,
    );
  }
  const extract: ExtractOptions = { legacyMysqlQuery: options.legacyMysqlQuery ?? true };
  const entries = entryValues.map((entry) => prepareEntry(entry, extract));
  const queryTimeout = options.queryTimeout ?? DEFAULT_QUERY_TIMEOUT;
  if (!(queryTimeout >= 0))
    throw mysqlError("SQL_CONFIG", `queryTimeout must be ≥ 0 ms, got ${queryTimeout}`);
  const secrets = [settings.password];
  const where: DriverErrorContext = { server: describeServer(settings), database: settings.database };
  let poolPromise: Promise<Pool> | undefined;
  let closed = false;
  const cleanups = new Set<Promise<void>>();
  const running = new Set<Promise<unknown>>();
  // Shapers that were given DECIMAL key columns: only their results hold `DecimalKey`s to name by their text.
  const withDecimalKeys = new WeakSet<Shaper>();

  const getPool = (): Promise<Pool> => {
    poolPromise ??= openPool(settings, options);
    return poolPromise;
  };

  const stopQuery = (threadId: number | null | undefined) => {
    if (typeof threadId !== "number") return;
    // The thread id is a number the server gave us, not user input.
    const job = runOnce(settings, `KILL ${Math.trunc(threadId)}`).finally(() => cleanups.delete(job));
    cleanups.add(job);
  };

  const runQuery = (
    connection: PoolConnection,
    minionId: string,
    query: PreparedQuery,
    shaper: Shaper,
    trace: Trace | undefined,
  ) =>
    new Promise<void>((resolve, reject) => {
      const { spec, prepared, label } = query;
      let settled = false;
      let sink: RowSink | undefined;
      let fixes: ColumnFixes | undefined;
      let timer: NodeJS.Timeout | undefined;
      // In event mode mysql2 reports a dropped connection only on the connection, not on the command.
      const onConnectionError = (error: unknown) => {
        finish(wrapDriverError(error, "query", { ...where, query: label }, secrets));
      };
      const finish = (error?: unknown) => {
        if (settled) return;
        settled = true;
        if (timer !== undefined) clearTimeout(timer);
        connection.removeListener("error", onConnectionError);
        if (error === undefined) resolve();
        else reject(error);
      };
      connection.on("error", onConnectionError);
      shaper.enterRoot(spec.root);
      const values = new Array<string>(prepared.parameters).fill(minionId);
      const command = connection.execute(
        { sql: prepared.sql, rowsAsArray: true },
        values,
      ) as unknown as EventEmitter;
      command.on("fields", (fields: FieldPacket[], index?: number) => {
        if (settled || sink !== undefined || (index ?? 0) > 0) return;
        try {
          const decimals = decimalColumns(fields as unknown as FieldLike[]);
          if (decimals !== undefined) withDecimalKeys.add(shaper);
          sink = shaper.begin(
            fields.map((field) => field.name),
            {
              depth: spec.floatDepth === true ? new PyFloat(spec.depth) : spec.depth,
              asList: spec.asList,
              withLists: spec.withLists,
              ignoreNull: spec.ignoreNull,
              asJson: spec.asJson,
              query: label,
              decimalColumns: decimals,
              ...(trace === undefined ? {} : { onValue: trace.begin(query, fields.length) }),
            },
          );
          fixes = columnFixes(fields as unknown as FieldLike[]);
        } catch (error) {
          finish(error);
        }
      });
      command.on("result", (row: unknown[], index?: number) => {
        if (settled || sink === undefined || (index ?? 0) > 0) return;
        try {
          sink.push(fixes === undefined ? row : fixRow(row, fixes));
        } catch (error) {
          finish(error);
        }
      });
      command.on("error", (error: unknown) => {
        finish(wrapDriverError(error, "query", { ...where, query: label }, secrets));
      });
      command.on("end", () => {
        if (settled) return;
        if (sink === undefined) {
          finish(
            mysqlError(
              "SQL_QUERY",
              `returned no rows and no columns (is it a SELECT?): ${abbreviateSql(spec.query)}`,
              { query: label },
            ),
          );
          return;
        }
        try {
          sink.end();
          finish();
        } catch (error) {
          finish(error);
        }
      });
      if (queryTimeout > 0) {
        timer = setTimeout(() => {
          finish(
            mysqlError(
              "SQL_TIMEOUT",
              `did not finish within ${queryTimeout} ms: ${abbreviateSql(spec.query)}`,
              { query: label, details: { timeoutMs: queryTimeout } },
            ),
          );
          stopQuery(connection.threadId);
        }, queryTimeout);
      }
    });

  const fetch = async (minionId: string, trace?: Trace): Promise<Dict | PyDict> => {
    if (closed) throw mysqlError("SQL_CLOSED", "the MySQL pillar is closed; create a new one");
    if (typeof minionId !== "string") {
      throw mysqlError("SQL_CONFIG", `the minion id must be text, got ${typeof minionId}`);
    }
    const done = (data: PyDict) => (exact ? data : (toPlain(data) as Dict));
    if (entries.every((entry) => entry.length === 0)) return done(new PyDict());
    const pool = await getPool();
    const connect = async (): Promise<PoolConnection> => {
      try {
        return await acquire(pool);
      } catch (error) {
        throw wrapDriverError(error, "connect", where, secrets);
      }
    };
    // Salt's MySQLdb connection does not autocommit: all queries of a fetch read one snapshot and whatever a query
    // might write is rolled back when the connection closes. A transaction we roll back does the same.
    const begin = async (target: PoolConnection): Promise<unknown> => {
      try {
        await plainQuery(target, "START TRANSACTION");
        return undefined;
      } catch (error) {
        return error;
      }
    };
    let connection = await connect();
    let healthy = false;
    try {
      let failed = await begin(connection);
      if (failed !== undefined && classifyDriverError(failed, "query") === "SQL_CONNECTION_LOST") {
        // A pooled connection the server closed while it sat idle: nothing has been read yet, so try a fresh one.
        connection.destroy();
        connection = await connect();
        failed = await begin(connection);
      }
      if (failed !== undefined) {
        throw wrapDriverError(failed, "query", { ...where, step: "starting the transaction" }, secrets);
      }
      let merged = new PyDict();
      for (const [number, entry] of entries.entries()) {
        const shaper = createShaper();
        if (trace !== undefined) trace.entry = number;
        for (const query of entry) await runQuery(connection, minionId, query, shaper, trace);
        const part = shaper.result();
        const decimalKeys = withDecimalKeys.has(shaper);
        trace?.settle(shaper.places(), decimalKeys ? part : undefined);
        if (decimalKeys) decimalKeysAsText(part);
        checkDepth(part);
        merged = number === 0 ? part : mergeExtPillar(merged, part);
      }
      await plainQuery(connection, "ROLLBACK");
      healthy = true;
      return done(merged);
    } catch (error) {
      throw isMergeError(error)
        ? error
        : wrapDriverError(error, "query", { ...where, step: "ending the transaction" }, secrets);
    } finally {
      // After a failure the connection may still be streaming rows or be mid-transaction: drop it.
      if (healthy) connection.release();
      else connection.destroy();
    }
  };

  const tracked = async <T>(job: Promise<T>): Promise<T> => {
    running.add(job);
    try {
      return await job;
    } catch (error) {
      throw scrub(error, secrets);
    } finally {
      running.delete(job);
    }
  };

  return {
    queries: entries.map((entry) => entry.map((query) => query.spec)),
    fetch: (minionId: string): Promise<never> => tracked(fetch(minionId) as Promise<never>),
    fetchWithProvenance: async (minionId: string): Promise<never> => {
      const trace = createTrace();
      const data = await tracked(fetch(minionId, trace));
      return { data, provenance: { queries: trace.queries, values: trace.values } } as never;
    },
    async close() {
      if (closed) return;
      closed = true;
      // Let fetches that already started finish (or fail) before their connections go away.
      await Promise.allSettled([...running]);
      if (poolPromise !== undefined) {
        const pool = await poolPromise.catch(() => undefined);
        if (pool !== undefined) await new Promise<void>((resolve) => pool.end(() => resolve()));
      }
      await Promise.all([...cleanups]);
    },
  };
}

/** Collects the provenance of one fetch: the queries as they start, and every value their rows write. */
interface Trace {
  /** The entry running now. */
  entry: number;
  readonly queries: MysqlQuerySource[];
  readonly values: MysqlValueSource[];
  /** A query's columns arrived: its source, and the callback for the values its rows write. */
  begin(query: PreparedQuery, fieldCount: number): (write: ShapedValue) => void;
  /** The entry's queries all ran: where each of its values is now (`Shaper.places`) in the entry's result. */
  settle(places: readonly (ValuePlace | undefined)[], decimalKeysIn: PyDict | undefined): void;
}

function createTrace(): Trace {
  // The entry's values as written, until its last query ran and their places are known.
  let pending: {
    readonly write: ShapedValue;
    readonly query: MysqlQuerySource;
    readonly path: MappingKey[];
  }[] = [];
  const trace: Trace = {
    entry: 0,
    queries: [],
    values: [],
    begin({ spec, label }) {
      const source: MysqlQuerySource = {
        entry: trace.entry,
        index: label.index,
        name: describeQuery(label),
        root: spec.root,
        sql: spec.query,
        traced: true,
      };
      trace.queries.push(source);
      // A named query writes below its keyword (enterRoot): the path starts there.
      const prefix = spec.root === undefined || spec.root === "" ? [] : [spec.root];
      return (write) => {
        pending.push({
          write: { ...write, path: decimalPathAsText(write.path) },
          query: source,
          path: [...prefix, ...decimalPathAsText(write.path)],
        });
      };
    },
    settle(places, decimalKeysIn) {
      // Where DECIMAL keys were shaped, a place names each key as the mapping kept it, by its text.
      const named = (at: readonly MappingKey[]) =>
        decimalKeysIn === undefined ? at : storedPathAsText(decimalKeysIn, at);
      // `places` has one place per value the shaper reported, in the same order as `pending`.
      pending.forEach(({ write, query, path }, index) => {
        const place = places[index];
        const at = place?.at === undefined ? undefined : named(place.at);
        if (place?.within === undefined) {
          trace.values.push({ ...write, path, at, query });
        } else {
          if (decimalKeysIn !== undefined) decimalKeysAsText(place.within.value);
          const within = { ...place.within, at: named(place.within.at) };
          trace.values.push({ ...write, path, at, within, query });
        }
      });
      pending = [];
    },
  };
  return trace;
}

function describeServer(settings: MysqlSettings): string {
  return settings.socketPath === undefined ? `${settings.host}:${settings.port}` : settings.socketPath;
}

/** Last line of defence: no message leaves with the password in it (code, query and details are kept). */
function scrub(error: unknown, secrets: readonly string[]): unknown {
  if (!isMergeError(error) || !secrets.some((secret) => secret !== "" && error.message.includes(secret))) {
    return error;
  }
  return new MergeError(error.code, redact(error.message, secrets), {
    source: error.source,
    details: error.details,
    cause: error.cause,
    plugin: error.plugin,
  });
}

/**
 * One call as Salt makes it: `ext_pillar(minion_id, pillar, *args, **kwargs)` for the `- mysql:` value in
 * `options.queries`. Opens a pool, fetches, closes. The current `pillar` is accepted for the same signature and,
 * as in Salt, not used.
 */
export async function mysqlPillar(
  minionId: string,
  pillar: unknown,
  options: MysqlPillarOptions & { readonly values: "exact" },
): Promise<PyDict>;
export async function mysqlPillar(
  minionId: string,
  pillar: unknown,
  options: MysqlPillarOptions | Readonly<Dict>,
): Promise<Dict>;
export async function mysqlPillar(
  minionId: string,
  _pillar: unknown,
  options: MysqlPillarOptions | Readonly<Dict>,
): Promise<Dict | PyDict> {
  const pillar = createMysqlPillar(options) as MysqlPillar<"plain" | "exact">;
  try {
    return await pillar.fetch(minionId);
  } finally {
    await pillar.close();
  }
}

/** The values of every `- mysql:` entry in a master configuration's `ext_pillar` list, in order. */
export function mysqlEntriesFromMaster(master: Readonly<Dict>): unknown[] {
  const list = master.ext_pillar;
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw mysqlError("SQL_CONFIG", "ext_pillar must be a list");
  const out: unknown[] = [];
  for (const item of list) {
    if (isPlainObject(item) && Object.hasOwn(item, "mysql")) out.push(item.mysql);
  }
  return out;
}
