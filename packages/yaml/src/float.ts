import { PyFloat } from "@merge/core";

/**
 * A YAML float whose value is a whole number (`1.0`, `2.0e+3`, `-0.0`): `@merge/core`'s `PyFloat`, under the name this
 * package has always exported. It prints (`String(x)` → `1.0`) and dumps (`1.0`) as Python's float does; `valueOf()`
 * gives the number.
 */
export const YamlFloat = PyFloat;
export type YamlFloat = PyFloat;
