// Test helper (not built): Salt's `SqlBaseExtPillar` surface (enter_root / process_fields / process_results and
// its attributes) over our shaper, so Salt's own unit tests read here almost line for line.
import { type Dict, formatJson, PyDict, pyEquals, toPlain } from "@merge/core";
import { expect } from "vitest";
import { createShaper, effectiveDepth, type Row } from "./shape.js";

export class SaltExtPillar {
  private readonly shaper = createShaper();
  private fieldNames: string[] = [];
  num_fields = 0;
  depth = 0;
  as_list: unknown = false;
  as_json: unknown = false;
  with_lists: number[] | null = null;
  ignore_null: unknown = false;

  /** The result as plain objects (keys named as json.dumps names them), for walking it in tests. */
  get result(): Dict {
    return toPlain(this.shaper.result()) as Dict;
  }

  /** The result as Salt's Python holds it: column values as typed keys. */
  get exact(): PyDict {
    return this.shaper.result();
  }

  get focus(): PyDict {
    return this.shaper.focus();
  }

  /** Python truthiness decides, so `enter_root(None)` and `enter_root("")` both select the top level. */
  enter_root(root: string | number | null): void {
    this.shaper.enterRoot(root === null || root === "" || root === 0 ? undefined : root);
  }

  process_fields(fieldNames: string[], depth: number): void {
    this.fieldNames = fieldNames;
    this.num_fields = fieldNames.length;
    this.depth = effectiveDepth(depth, fieldNames.length);
  }

  process_results(rows: readonly Row[]): void {
    const sink = this.shaper.begin(this.fieldNames, {
      depth: this.depth,
      as_list: this.as_list as boolean,
      as_json: this.as_json as boolean,
      with_lists: this.with_lists ?? [],
      ignore_null: this.ignore_null as boolean,
    });
    for (const row of rows) sink.push(row);
    sink.end();
  }
}

/**
 * A Python literal written in JavaScript: objects become dicts whose digit-only keys are ints, as the column values
 * of Salt's test rows are (`{1: {2: 3}}`).
 */
export function pyLiteral(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(pyLiteral);
  if (typeof value !== "object" || value === null || value instanceof PyDict) return value;
  const out = new PyDict();
  for (const [key, item] of Object.entries(value))
    out.set(/^-?\d+$/.test(key) ? Number(key) : key, pyLiteral(item));
  return out;
}

/** Salt's `assert result == expected`: Python's `==` (key types count, key order does not). */
export function expectSalt(actual: unknown, expected: unknown): void {
  const want = pyLiteral(expected);
  if (!pyEquals(actual, want)) {
    expect(formatJson(actual, { indent: 0 })).toBe(formatJson(want, { indent: 0 }));
    expect.unreachable("values differ only in key types");
  }
}
