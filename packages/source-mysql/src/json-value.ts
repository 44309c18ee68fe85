import { isMergeError, parseJson } from "@merge/core";
import { mysqlError } from "./errors.js";

/**
 * The one place a JSON column is read (`as_json`): `@merge/core`'s `parseJson`, which reads as Python's `json.loads`
 * does (what Salt applies to such a column) into the exact model — ints and floats apart, big ints exact, `NaN` and
 * `Infinity` tokens, a repeated key keeping its first place and last value, at most 4300 digits in an int, nesting
 * past 1000 levels `DEPTH_LIMIT`. Invalid JSON is `SQL_JSON` with Python's message and the offset in
 * `details.offset`.
 */
export function parseJsonValue(text: string): unknown {
  try {
    return parseJson(text);
  } catch (error) {
    if (isMergeError(error) && error.code === "JSON_PARSE") {
      throw mysqlError("SQL_JSON", error.message, {
        cause: error,
        details: { offset: error.source?.offset },
      });
    }
    throw error;
  }
}
