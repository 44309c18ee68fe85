import type { PathKey } from "@merge/core";
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
   * True when every value the query wrote is listed in `values` with its place in the entry's result (`at`). Always
   * true now: an `as_json` query lists every value of each row's JSON object, and the values of a `with_lists` query
   * are followed into the lists it makes. Kept so that code written for the earlier `false` still compiles.
   */
  readonly traced: boolean;
}

/** One value a row wrote: where in the entry's result, which query and which row. */
export interface MysqlValueSource extends ShapedValue {
  readonly query: MysqlQuerySource;
  /**
   * Where the value is in the entry's result once all of the entry's queries ran, from its top, list indexes
   * included: after `with_lists` made lists of levels (`hosts.0.ip`), `as_list` put it into a list (`a.b.1`), a list
   * merge of `as_json` moved it. For a value a later row or query overwrote, the place where it lost. Undefined when
   * nothing says where it would be.
   */
  readonly at: readonly PathKey[] | undefined;
  /**
   * Set when the value was inside a mapping or list that a later row or query replaced as a whole (an `as_json`
   * row's list replaced by a later row's, a named query's mapping by a later query of the same keyword): where that
   * mapping or list was (a start of `at`; there it lost, as a whole), that mapping or list as it was when replaced,
   * and a number telling such mappings and lists of one entry apart.
   */
  readonly within?: { readonly at: readonly PathKey[]; readonly value: unknown; readonly id: number };
}

/**
 * Where a fetch's values came from, beside the data (`fetchWithProvenance`). `values` lists every value every row
 * wrote, in the order written, with its path as written (`path`, a named query's keyword first) and its place in
 * the entry's result (`at`): a later value at the same `at` replaced an earlier one. An earlier value a later query
 * or row replaced is still listed, so a consumer can name what lost, with its row.
 */
export interface MysqlProvenance {
  /** Every query that ran, entry by entry, in the order they ran. */
  readonly queries: readonly MysqlQuerySource[];
  readonly values: readonly MysqlValueSource[];
}
