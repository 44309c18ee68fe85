// The values checkPlugin merges: small trees over a few keys (so two samples often share keys and really merge),
// hostile keys among them, and the hostile JSON payloads. Samples of a new kind of value are added here.
import { PyDict, PyFloat } from "@merge/core";
import fc from "fast-check";
import { HOSTILE_KEYS, hostileJsonTexts } from "./hostile.js";

/** The mapping keys of the default samples: a few ordinary ones, a digit string, and the hostile names. */
export const SAMPLE_KEYS: readonly string[] = Object.freeze(["a", "b", "name", "0", ...HOSTILE_KEYS]);

/** The string values of the default samples, some equal to keys (as list items keyed by name are). */
export const SAMPLE_STRINGS: readonly string[] = Object.freeze([
  "",
  "a",
  "b",
  "ab",
  "é",
  "__proto__",
  "constructor",
]);

export interface SampleShape {
  /** Mapping keys to draw from (default `SAMPLE_KEYS`). */
  readonly keys?: readonly string[];
  /** String values to draw from (default `SAMPLE_STRINGS`). */
  readonly strings?: readonly string[];
  /** Deepest nesting (default 4). */
  readonly maxDepth?: number;
}

/** Scalars of every kind a YAML or JSON loader gives, and a date (a value of kind `other`). */
export function sampleScalars(strings: readonly string[] = SAMPLE_STRINGS): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.integer({ min: -2, max: 2 }),
    fc.constantFrom(0.5, -1.25, 2 ** 53, 2n ** 64n),
    fc.constantFrom(...strings),
    fc.boolean(),
    fc.constant(null),
    fc.integer({ min: 0, max: 4 }).map((day) => new Date(Date.UTC(2024, 0, 1 + day))),
  );
}

/** Trees of mappings (some with a null prototype), lists and scalars. */
export function sampleValues(shape: SampleShape = {}): fc.Arbitrary<unknown> {
  const keys = shape.keys ?? SAMPLE_KEYS;
  const scalar = sampleScalars(shape.strings);
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small", maxDepth: shape.maxDepth ?? 4, withCrossShrink: true },
      { arbitrary: scalar, weight: 2 },
      { arbitrary: tie("list"), weight: 2 },
      { arbitrary: tie("mapping"), weight: 3 },
    ),
    list: fc.array(tie("value"), { maxLength: 4 }),
    mapping: fc.dictionary(fc.constantFrom(...keys), tie("value"), { maxKeys: 4 }),
  }));
  return value;
}

/** The hostile JSON payloads (`hostileJsonTexts`), parsed afresh for every run. */
export function hostileValues(): fc.Arbitrary<unknown> {
  return fc.constantFrom(...hostileJsonTexts()).map((text) => JSON.parse(text) as unknown);
}

/**
 * Keys of the exact samples: strings (a digit string among them), and what only a PyDict holds: ints that look
 * like those strings, True (equal to 1 in Python), None and a whole float.
 */
export const EXACT_SAMPLE_KEYS: readonly unknown[] = Object.freeze([
  "a",
  "name",
  "0",
  "10",
  0,
  1,
  10,
  true,
  null,
  new PyFloat(1),
  ...HOSTILE_KEYS,
]);

/**
 * Trees in `@merge/core`'s exact model: `PyDict` mappings with typed keys (their order is part of the value) and
 * `PyFloat` whole floats among the scalars, as the YAML, JSON and SQL readers of `@merge` produce them.
 */
export function sampleExactValues(
  shape: Pick<SampleShape, "strings" | "maxDepth"> = {},
): fc.Arbitrary<unknown> {
  const scalar = fc.oneof(
    { arbitrary: sampleScalars(shape.strings), weight: 3 },
    { arbitrary: fc.constantFrom(0, 1, 2, -0).map((n) => new PyFloat(n)), weight: 1 },
  );
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small", maxDepth: shape.maxDepth ?? 4, withCrossShrink: true },
      { arbitrary: scalar, weight: 2 },
      { arbitrary: tie("list"), weight: 2 },
      { arbitrary: tie("mapping"), weight: 3 },
    ),
    list: fc.array(tie("value"), { maxLength: 4 }),
    mapping: fc
      .array(fc.tuple(fc.constantFrom(...EXACT_SAMPLE_KEYS), tie("value")), { maxLength: 4 })
      .map((entries) => new PyDict(entries as [never, unknown][])),
  }));
  return value;
}
