import { pyFloatRepr } from "@merge/core";

/** Python's `repr(float)` (`1e+16`, `1e-05`, `1.5`, `100.0`): `@merge/core`'s `pyFloatRepr`, under this package's name. */
export const pythonFloatRepr: (value: number) => string = pyFloatRepr;
