import { type Dict, isPlainObject, MergeError, setKey } from "@merge/core";
import fastJsonPatch from "fast-json-patch";

/** The first line that marks a JSON patch part. */
export const JSONP_PREFIX = "#cloud-config-jsonp";

/**
 * Applies a `#cloud-config-jsonp` part (an RFC 6902 JSON patch) to the configuration merged so far, as cloud-init's
 * handler does: leading whitespace and the exact-case `#cloud-config-jsonp` prefix are removed, the rest is parsed
 * as JSON and applied to a copy. Any failure (invalid JSON, an operation that cannot apply, a failed `test`) is a
 * `JSON_PATCH` error and leaves `value` as it was.
 */
export function applyJsonPatchPart(value: unknown, text: string, file?: string): unknown {
  let payload = text.trimStart();
  if (payload.startsWith(JSONP_PREFIX)) payload = payload.slice(JSONP_PREFIX.length);
  let patch: unknown;
  try {
    patch = JSON.parse(payload);
  } catch (cause) {
    throw new MergeError("JSON_PATCH", `the JSON patch is not valid JSON: ${(cause as Error).message}`, {
      source: file === undefined ? undefined : { file },
      cause,
    });
  }
  // Python iterates the patch document: an empty mapping has no operations, any other mapping yields strings.
  if (isPlainObject(patch) && Object.keys(patch).length === 0) return copyShared(value, new Map());
  if (!Array.isArray(patch)) {
    throw new MergeError("JSON_PATCH", "a JSON patch must be a list of operations", {
      source: file === undefined ? undefined : { file },
    });
  }
  let document = copyShared(value, new Map());
  // One operation at a time, so a failure names the operation that failed.
  for (let index = 0; index < patch.length; index++) {
    const operation = patch[index] as { op?: unknown; path?: unknown };
    try {
      if (!isPlainObject(operation)) throw new Error("an operation must be a mapping");
      document = fastJsonPatch.applyOperation(
        document,
        operation as never,
        true,
        true,
        true,
        index,
      ).newDocument;
    } catch (cause) {
      const which = isPlainObject(operation)
        ? ` (${String(operation.op)} ${JSON.stringify(operation.path)})`
        : "";
      // The library's message goes on with the operation and the whole document; keep only its first line.
      const reason = (cause as Error).message.split("\n")[0];
      throw new MergeError(
        "JSON_PATCH",
        `JSON patch operation ${index + 1}${which} cannot be applied: ${reason}`,
        {
          source: file === undefined ? undefined : { file },
          cause,
          details: { operation: index, name: (cause as { name?: string }).name },
        },
      );
    }
  }
  return document;
}

/**
 * A deep copy of mappings and lists that keeps shared subtrees shared (Python's `copy.deepcopy`, which jsonpatch
 * uses), so YAML aliases still come out as `&id001` / `*id001` when the result is written.
 */
function copyShared(value: unknown, seen: Map<object, unknown>): unknown {
  if (typeof value !== "object" || value === null) return value;
  const known = seen.get(value);
  if (known !== undefined) return known;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    seen.set(value, out);
    for (let i = 0; i < value.length; i++) out.push(copyShared(value[i], seen));
    return out;
  }
  if (!isPlainObject(value)) return value;
  const out: Dict = {};
  seen.set(value, out);
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) setKey(out, keys[i]!, copyShared(value[keys[i]!], seen));
  return out;
}
