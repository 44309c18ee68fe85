import { isMergeError, MergeError, numberValue, PyDict, toPlain } from "@merge/core";
import { deepCopyExact } from "./deep-copy.js";
import {
  END_OF_LIST,
  PointerError,
  parsePointer,
  type Step,
  describeType,
  isSequence,
  sequenceItem,
  sequenceLength,
  toLast,
  walk,
} from "./jsonpointer.js";
import { parsePatchJson } from "./patch-json.js";
import { pythonLstrip } from "./python-text.js";

/** The first line that marks a JSON patch part. */
export const JSONP_PREFIX = "#cloud-config-jsonp";

/** Options of `applyJsonPatchPart`. */
export interface JsonPatchOptions {
  /** Names the part in errors. */
  readonly file?: string;
  /**
   * `"plain"` (default): the result as plain objects and numbers (`toPlain`). `"exact"`: as cloud-init holds it, in
   * `@merge/core`'s exact model (`PyDict` mappings, `PyFloat` whole floats).
   */
  readonly values?: "plain" | "exact";
  /** Deepest nesting of the configuration the patch is applied to; deeper is `DEPTH_LIMIT`. Default 1000. */
  readonly maxDepth?: number;
}

/**
 * Applies a `#cloud-config-jsonp` part (an RFC 6902 JSON patch) to the configuration merged so far, as cloud-init's
 * handler does with Python's `jsonpatch` 1.32: leading whitespace and the exact-case `#cloud-config-jsonp` prefix are
 * removed, the rest is read as JSON and applied to a deep copy, operation by operation. `value` may be plain or
 * exact; it is never changed.
 *
 * Any failure — invalid JSON, a malformed or unknown operation, a path that does not resolve, a failed `test` — is one
 * `JSON_PATCH` error naming the operation (`details.operation`, counted from 0), and nothing of the patch applies.
 * `file` may be given as the third argument directly, as in earlier versions.
 */
export function applyJsonPatchPart(
  value: unknown,
  text: string,
  options: string | JsonPatchOptions = {},
): unknown {
  const { file, values, maxDepth } = typeof options === "string" ? { file: options } : options;
  const result = applyJsonPatchExact(value, text, file, maxDepth);
  return values === "exact" ? result : toPlain(result);
}

type OperationName = "add" | "remove" | "replace" | "move" | "copy" | "test";
const OPERATIONS: ReadonlySet<string> = new Set(["add", "remove", "replace", "move", "copy", "test"]);

interface Operation {
  readonly index: number;
  readonly op: OperationName;
  readonly path: string;
  readonly parts: readonly string[];
  readonly member: PyDict;
}

/** Why an operation failed: `invalid` (malformed), `conflict` (does not fit the document), `test` (a failed test). */
type Failure = "invalid" | "conflict" | "test";

class PatchFailure extends Error {
  constructor(
    readonly kind: Failure,
    message: string,
  ) {
    super(message);
  }
}

/** `applyJsonPatchPart` on the exact model (what `mergeCloudConfig` uses): the result is a fresh exact value. */
export function applyJsonPatchExact(value: unknown, text: string, file?: string, maxDepth?: number): unknown {
  const patch = readPatch(text, file);
  // Python's `JsonPatch(patch)` iterates the document and checks each operation before anything is applied.
  const operations: Operation[] = [];
  const items = iterateLikePython(patch, file);
  for (let index = 0; index < items.length; index++)
    operations.push(checkOperation(items[index], index, file));
  let document = deepCopyExact(value, maxDepth);
  for (const operation of operations) {
    try {
      document = apply(document, operation);
    } catch (error) {
      if (error instanceof PatchFailure || error instanceof PointerError) {
        throw operationError(
          operation,
          error.message,
          error instanceof PatchFailure ? error.kind : "conflict",
          file,
        );
      }
      throw error;
    }
  }
  return document;
}

function readPatch(text: string, file: string | undefined): unknown {
  let payload = pythonLstrip(text);
  if (payload.startsWith(JSONP_PREFIX)) payload = payload.slice(JSONP_PREFIX.length);
  try {
    return parsePatchJson(payload, file);
  } catch (cause) {
    if (!isMergeError(cause)) throw cause;
    throw new MergeError("JSON_PATCH", `the JSON patch is not valid JSON: ${cause.message}`, {
      source: cause.source ?? sourceOf(file),
      cause,
      details: { reason: cause.code },
    });
  }
}

/**
 * What Python's `for op in patch` yields: a list's items, a mapping's keys, a string's characters. Only mappings are
 * operations, so a non-empty mapping or string fails on its first item, while `{}` and `""` are empty patches.
 */
function iterateLikePython(patch: unknown, file: string | undefined): readonly unknown[] {
  if (Array.isArray(patch)) return patch;
  if (patch instanceof PyDict) return patch.keyList();
  if (typeof patch === "string") return Array.from(patch);
  throw new MergeError(
    "JSON_PATCH",
    `a JSON patch must be a list of operations, not ${describeType(patch)}`,
    {
      source: sourceOf(file),
      details: { reason: "invalid" },
    },
  );
}

/** Python's `JsonPatch._get_operation`: a mapping with a known `op` string and a `path` that is a valid pointer. */
function checkOperation(item: unknown, index: number, file: string | undefined): Operation {
  const fail = (message: string, op?: string, path?: unknown) =>
    operationError(
      { index, op, path: typeof path === "string" ? path : undefined },
      message,
      "invalid",
      file,
    );
  if (!(item instanceof PyDict)) throw fail(`an operation must be a mapping, not ${describeType(item)}`);
  if (!item.has("op")) throw fail("the operation has no op member");
  const op = item.get("op");
  if (typeof op !== "string") throw fail(`op must be a string, not ${describeType(op)}`);
  if (!OPERATIONS.has(op)) throw fail(`unknown operation ${JSON.stringify(clip(op))}`);
  if (!item.has("path")) throw fail("the operation has no path member", op);
  const path = item.get("path");
  let parts: string[];
  try {
    parts = parsePointer(path);
  } catch (error) {
    throw fail((error as Error).message, op, path);
  }
  return { index, op: op as OperationName, path: path as string, parts, member: item };
}

function apply(document: unknown, operation: Operation): unknown {
  switch (operation.op) {
    case "add":
      return add(document, operation.parts, required(operation, "value"));
    case "remove":
      return remove(document, operation.parts);
    case "replace":
      return replace(document, operation.parts, operation);
    case "move":
      return move(document, operation);
    case "copy": {
      const from = parsePointer(required(operation, "from"));
      const [container, step] = toLast(document, from);
      return add(document, operation.parts, deepCopyExact(itemAt(container, step)));
    }
    case "test":
      return test(document, operation);
  }
}

function required(operation: Operation, name: "value" | "from"): unknown {
  if (!operation.member.has(name)) throw new PatchFailure("invalid", `the operation has no ${name} member`);
  return operation.member.get(name);
}

/** `add`: insert into a list (`-` appends; an index up to the length), set a mapping key, or replace the root. */
function add(document: unknown, parts: readonly string[], value: unknown): unknown {
  const [container, step] = toLast(document, parts);
  if (Array.isArray(container)) {
    if (step === "-") container.push(value);
    else if (typeof step !== "number") throw new PatchFailure("conflict", "a list has no item there");
    else if (step > container.length)
      throw new PatchFailure("conflict", "cannot insert past the end of a list");
    else container.splice(step, 0, value);
    return document;
  }
  if (container instanceof PyDict) {
    if (step === null) return value;
    container.set(step, value);
    return document;
  }
  throw new PatchFailure("conflict", `cannot add to ${describeType(container)}`);
}

/** `remove`: delete a mapping key or a list item that exists. */
function remove(document: unknown, parts: readonly string[]): unknown {
  const [container, step] = toLast(document, parts);
  if (container instanceof PyDict) {
    if (!container.delete(step)) throw new PatchFailure("conflict", "cannot remove a key that is missing");
    return document;
  }
  if (Array.isArray(container) && typeof step === "number") {
    if (step >= container.length) throw new PatchFailure("conflict", "cannot remove past the end of a list");
    container.splice(step, 1);
    return document;
  }
  throw new PatchFailure("conflict", `cannot remove from ${describeType(container)} there`);
}

/** `replace`: the root, an existing mapping key, or an existing list item. */
function replace(document: unknown, parts: readonly string[], operation: Operation): unknown {
  const value = required(operation, "value");
  const [container, step] = toLast(document, parts);
  if (step === null) return value;
  if (step === "-") throw new PatchFailure("invalid", "replace cannot use -");
  if (Array.isArray(container)) {
    if ((step as number) >= container.length) {
      throw new PatchFailure("conflict", "cannot replace past the end of a list");
    }
    container[step as number] = value;
    return document;
  }
  if (container instanceof PyDict) {
    if (!container.has(step)) throw new PatchFailure("conflict", "cannot replace a key that is missing");
    container.set(step, value);
    return document;
  }
  throw new PatchFailure("conflict", `cannot replace inside ${describeType(container)}`);
}

/**
 * `move`, as the library does it: read the value at `from`; nothing happens when `from` and `path` are the same
 * pointer; moving a mapping member into its own children is refused; otherwise `remove` at `from`, then `add` at
 * `path` (so a list index in `path` counts after the removal).
 */
function move(document: unknown, operation: Operation): unknown {
  const from = parsePointer(required(operation, "from"));
  const [container, step] = toLast(document, from);
  const value = itemAt(container, step);
  const { parts } = operation;
  if (samePointer(parts, from)) return document;
  if (container instanceof PyDict && startsWith(parts, from)) {
    throw new PatchFailure("conflict", "cannot move a value into its own children");
  }
  return add(remove(document, from), parts, value);
}

/** `test`: the value at `path` must equal `value` under Python's `==` (`1 == 1.0 == true`). */
function test(document: unknown, operation: Operation): unknown {
  let found: unknown;
  try {
    const [container, step] = toLast(document, operation.parts);
    found = step === null ? container : walk(container, step);
  } catch (error) {
    if (error instanceof PointerError) throw new PatchFailure("test", `test failed: ${error.message}`);
    throw error;
  }
  const value = required(operation, "value");
  if (!pythonEquals(found, value)) {
    throw new PatchFailure("test", `test failed: ${describeType(found)} is not equal to the tested value`);
  }
  return document;
}

/** Python's `container[step]` for `move` and `copy`. */
function itemAt(container: unknown, step: Step): unknown {
  if (container instanceof PyDict) {
    if (!container.has(step)) throw new PatchFailure("conflict", "the from key is missing");
    return container.get(step);
  }
  if (isSequence(container) && typeof step === "number") {
    if (step >= sequenceLength(container))
      throw new PatchFailure("conflict", "the from index is out of range");
    return sequenceItem(container, step);
  }
  throw new PatchFailure("conflict", `cannot read ${describeType(container)} there`);
}

function samePointer(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && startsWith(a, b);
}

function startsWith(parts: readonly string[], prefix: readonly string[]): boolean {
  if (prefix.length > parts.length) return false;
  for (let i = 0; i < prefix.length; i++) if (parts[i] !== prefix[i]) return false;
  return true;
}

/**
 * Python's `==` between a value of the document and one of the patch (which comes from JSON): numbers and booleans
 * by value across int, float and bool, NaN never equal (the two are never the same object), strings, None, lists
 * item by item, mappings by keys and values in any order. Anything else (timestamps, bytes, sets, the end of a list)
 * equals no JSON value.
 */
function pythonEquals(a: unknown, b: unknown): boolean {
  const na = numeric(a);
  if (na !== undefined) {
    const nb = numeric(b);
    // biome-ignore lint/suspicious/noDoubleEquals: bigint against number needs the mathematical comparison
    return nb !== undefined && na == nb;
  }
  if (typeof a === "string") return a === b;
  if (a === null || a === undefined) return b === null || b === undefined;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!pythonEquals(a[i], b[i])) return false;
    return true;
  }
  if (a instanceof PyDict) {
    if (!(b instanceof PyDict) || a.size !== b.size) return false;
    for (const [key, item] of a) {
      if (!b.has(key) || !pythonEquals(item, b.get(key))) return false;
    }
    return true;
  }
  return false;
}

function numeric(value: unknown): number | bigint | undefined {
  if (typeof value === "boolean") return value ? 1 : 0;
  return value === END_OF_LIST ? undefined : numberValue(value);
}

function operationError(
  operation: { index: number; op?: string; path?: string },
  reason: string,
  kind: Failure,
  file: string | undefined,
): MergeError {
  const which =
    operation.op === undefined
      ? ""
      : ` (${operation.op}${operation.path === undefined ? "" : ` ${JSON.stringify(clip(operation.path))}`})`;
  return new MergeError(
    "JSON_PATCH",
    `JSON patch operation ${operation.index + 1}${which} cannot be applied: ${reason}`,
    {
      source: sourceOf(file),
      details: { operation: operation.index, op: operation.op, reason: kind },
    },
  );
}

function sourceOf(file: string | undefined): { file: string } | undefined {
  return file === undefined ? undefined : { file };
}

function clip(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
