import type { ShapedValue } from "./shape.js";

/** One query of a fetch, as provenance names it. */
export interface MysqlQuerySource {
  /** 0-based index of its `- mysql:` entry among the pillar's entries. */
  readonly entry: number;
  /** 0-based position among the entry's queries, in the order they run (Salt's order). */
  readonly index: number;
  /** `query "main"` for a named query, `query #2` for a positional one: as error messages name it. */
  readonly name: string;
  /** The keyword it was given under (its values go below it), `undefined` for a positional query. */
  readonly root: string | undefined;
  /** The SQL as configured. */
  readonly sql: string;
  /**
   * True when every value the query wrote is listed in `values` at the place it has in the entry's result. False for
   * an `as_json` query (its JSON objects are merged, not listed) and one with `with_lists` (the levels it turns into
   * lists move the values it wrote): their values are attributed to the query as a whole only.
   */
  readonly traced: boolean;
}

/** One value a row wrote: where in the entry's result, which query and which row. */
export interface MysqlValueSource extends ShapedValue {
  readonly query: MysqlQuerySource;
}

/**
 * Where a fetch's values came from, beside the data (`fetchWithProvenance`). `values` lists every value every row
 * wrote, in the order written, with its path from the top of its entry's result (a named query's keyword first): a
 * later value at the same path replaced an earlier one, unless it was appended (`appended`: a list built by
 * `as_list`, or `with_lists` on the last level). An earlier value a later query or row replaced is still listed, so
 * a consumer can name what lost.
 */
export interface MysqlProvenance {
  /** Every query that ran, entry by entry, in the order they ran. */
  readonly queries: readonly MysqlQuerySource[];
  readonly values: readonly MysqlValueSource[];
}
