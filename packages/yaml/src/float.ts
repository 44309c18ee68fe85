import { pythonFloatRepr } from "./pyfloat.js";

/**
 * A YAML float whose value is a whole number (`1.0`, `2.0e+3`, `-0.0`). JavaScript would make it the number `1`,
 * indistinguishable from the integer `1`; with `keepFloats` the loader returns this wrapper instead, so the value
 * prints (`String(x)` → `1.0`, as Python's `str()`) and dumps (`1.0`) the way Python would. `valueOf()` gives the
 * number, so arithmetic and comparisons with `<`, `>` still work.
 */
export class YamlFloat {
  readonly value: number;

  constructor(value: number) {
    this.value = value;
  }

  valueOf(): number {
    return this.value;
  }

  /** Python's `str(float)` / `repr(float)`: `1.0`, `1e+16`. */
  toString(): string {
    return pythonFloatRepr(this.value);
  }

  toJSON(): number {
    return this.value;
  }
}
