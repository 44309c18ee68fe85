// Test helper (not built): Salt's `SqlBaseExtPillar` surface (enter_root / process_fields / process_results and
// its attributes) over our shaper, so Salt's own unit tests read here almost line for line.
import type { Dict } from "@merge/core";
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

  get result(): Dict {
    return this.shaper.result();
  }

  get focus(): Dict {
    return this.shaper.focus();
  }

  /** Python truthiness decides, so `enter_root(None)` and `enter_root("")` both select the top level. */
  enter_root(root: string | number | null): void {
    this.shaper.enterRoot(root === null || root === "" || root === 0 ? undefined : String(root));
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
