import { numberValue, PyDict } from "@merge/core";
import { pythonInt } from "./python-text.js";

/*
 * JSON pointers (RFC 6901) read the way Python's `jsonpointer` 2.3 (Debian 12's python3-json-pointer, which
 * cloud-init's `jsonpatch` uses) reads them, on the exact value model: a mapping is a `PyDict` whose keys a pointer
 * names as strings only (`/8080` is the string key "8080", never the int key 8080, as in Python); a list, a string
 * and a byte string are sequences indexed by number; nothing else can be indexed. Only what a value holds is
 * reachable: there are no inherited members, so `/constructor`, `/toString` or `/length` are ordinary names that a
 * mapping may or may not hold and a list never does.
 */

/** Why a pointer cannot be used; the patch code turns this into a coded error. */
export class PointerError extends Error {
  override readonly name = "PointerError";
}

/** The step past the last item of a list (`-`), which can be appended to but holds nothing. */
export const END_OF_LIST: unique symbol = Symbol("end of list");

/**
 * A step as Python's `get_part` returns it: a mapping key (string), a sequence index (number), `-` for the end of a
 * sequence, or `null` for "no step" (the pointer `""` names the whole document; Python then uses `None` as the key).
 */
export type Step = string | number | null;

/**
 * Splits a pointer into its unescaped parts. Like `JsonPointer(text)`: a `~` not followed by `0` or `1` is invalid,
 * a non-empty pointer must start with `/`, and `""` is the whole document (no parts). A pointer that is not a string
 * is refused too (Python fails on it with a TypeError).
 */
export function parsePointer(text: unknown): string[] {
  if (typeof text !== "string") throw new PointerError("a JSON pointer must be a string");
  for (let i = text.indexOf("~"); i >= 0; i = text.indexOf("~", i + 1)) {
    const next = text[i + 1];
    if (next !== "0" && next !== "1") throw new PointerError("a JSON pointer has an invalid ~ escape");
  }
  const parts = text.split("/");
  if (parts.shift() !== "") throw new PointerError("a JSON pointer must start with /");
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.includes("~")) parts[i] = part.replaceAll("~1", "/").replaceAll("~0", "~");
  }
  return parts;
}

/** A sequence as Python sees one: a list, a string (of code points) or a byte string. */
export function isSequence(value: unknown): value is unknown[] | string | Uint8Array {
  return Array.isArray(value) || typeof value === "string" || value instanceof Uint8Array;
}

/** Python's `len()` of a sequence (a string counts code points). */
export function sequenceLength(value: unknown[] | string | Uint8Array): number {
  if (typeof value !== "string") return value.length;
  let n = 0;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0xd800 || code > 0xdbff || i + 1 >= value.length) n++;
    else {
      const low = value.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) i++;
      n++;
    }
  }
  return n;
}

/** Item `index` of a sequence, or undefined past its end (a string gives a code point, bytes give an int). */
export function sequenceItem(value: unknown[] | string | Uint8Array, index: number): unknown {
  if (typeof value !== "string") return index < value.length ? value[index] : undefined;
  let n = 0;
  for (const char of value) {
    if (n === index) return char;
    n++;
  }
  return undefined;
}

/**
 * Python's `JsonPointer.get_part(doc, part)`: how one step reads in this document. A mapping takes the step as a
 * key. A sequence takes `-`, or an index that the library's pattern `0|[1-9][0-9]*$` accepts at the start (so
 * anything starting with `0` passes it) and that Python's `int()` then reads: `01`, `00` and `0_1` are indexes,
 * `0x1` is an error, `1 `, `+1` and `-1` are refused. Anything else cannot be indexed.
 */
export function stepFor(doc: unknown, part: string | number): Exclude<Step, null> {
  if (doc instanceof PyDict) return part;
  if (isSequence(doc)) {
    if (part === "-" || typeof part === "number") return part;
    if (!(part.startsWith("0") || /^[1-9][0-9]*\n?$/.test(part))) {
      throw new PointerError("a list index must be a number without sign or leading spaces, or -");
    }
    const index = pythonInt(part);
    if (index === undefined) throw new PointerError("a list index is not a number");
    return index;
  }
  throw new PointerError(`${describeType(doc)} cannot be indexed`);
}

/** Python's `JsonPointer.walk`: one step down; `-` of a sequence gives `END_OF_LIST`. */
export function walk(doc: unknown, part: string | number): unknown {
  const step = stepFor(doc, part);
  if (isSequence(doc)) {
    if (step === "-") return END_OF_LIST;
    const item = sequenceItem(doc, step as number);
    if (item === undefined) throw new PointerError("a list index is out of range");
    return item;
  }
  const dict = doc as PyDict;
  if (!dict.has(step)) throw new PointerError("a key on the path is missing");
  return dict.get(step);
}

/**
 * Python's `JsonPointer.to_last`: the container of the last step and that step, read for that container (`null` for
 * the pointer `""`, where the container is the document itself).
 */
export function toLast(doc: unknown, parts: readonly string[]): [unknown, Step] {
  if (parts.length === 0) return [doc, null];
  let at = doc;
  for (let i = 0; i < parts.length - 1; i++) at = walk(at, parts[i]!);
  return [at, stepFor(at, parts[parts.length - 1]!)];
}

/** A type name for messages (never a value: configuration carries secrets). */
export function describeType(value: unknown): string {
  if (value === END_OF_LIST) return "the end of a list";
  if (value === null || value === undefined) return "null";
  if (value instanceof PyDict) return "a mapping";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return "a string";
  if (typeof value === "boolean") return "a boolean";
  if (numberValue(value) !== undefined) return "a number";
  if (value instanceof Uint8Array) return "a byte string";
  if (value instanceof Date) return "a timestamp";
  if (value instanceof Set) return "a set";
  return "an object";
}
