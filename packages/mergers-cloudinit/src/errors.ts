/**
 * The codes this package raises itself (besides those of `@merge/core` and `@merge/yaml` it passes on). Each is
 * listed in the README's Errors table.
 */
export type CloudInitErrorCode =
  | "MERGE_TYPE"
  | "CLOUD_CONFIG_PART"
  | "CLOUD_CONFIG_MODE"
  | "JSON_PATCH"
  | "MIME_PARSE"
  | "SIZE_LIMIT"
  | "SYSTEM_CONFIG"
  | "INSTANCE_DATA"
  | "SCHEMA_LOAD"
  | "SCHEMA_VALIDATION"
  | "SCHEMA_DEPRECATED";

/** Every code of `CloudInitErrorCode`, for documentation checks. */
export const CLOUD_INIT_ERROR_CODES: readonly CloudInitErrorCode[] = Object.freeze([
  "MERGE_TYPE",
  "CLOUD_CONFIG_PART",
  "CLOUD_CONFIG_MODE",
  "JSON_PATCH",
  "MIME_PARSE",
  "SIZE_LIMIT",
  "SYSTEM_CONFIG",
  "INSTANCE_DATA",
  "SCHEMA_LOAD",
  "SCHEMA_VALIDATION",
  "SCHEMA_DEPRECATED",
]);
