import { cloneTree, isPlainObject, MergeError } from "@merge/core";
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
  if (isPlainObject(patch) && Object.keys(patch).length === 0) return cloneTree(value);
  if (!Array.isArray(patch)) {
    throw new MergeError("JSON_PATCH", "a JSON patch must be a list of operations", {
      source: file === undefined ? undefined : { file },
    });
  }
  let document = cloneTree(value);
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
