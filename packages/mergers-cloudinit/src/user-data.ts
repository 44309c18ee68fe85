import { type CloudConfigResult, type MergeCloudConfigOptions, mergeCloudConfig } from "./parts.js";
import { parseUserData, type SkippedPart, type UserDataOptions } from "./mime.js";

/** The merge of a whole user-data blob, plus the parts that were not cloud-config. */
export interface UserDataResult extends CloudConfigResult {
  readonly skipped: readonly SkippedPart[];
}

/**
 * Merges the cloud-config of a whole user-data blob (plain `#cloud-config`, gzip, or a MIME multipart message as
 * `cloud-init devel make-mime` writes it) the way cloud-init's cloud-config handler does. `values` chooses the
 * representation of `result.value` as for `mergeCloudConfig`; `result.exact` is always the exact model.
 */
export async function mergeUserData(
  raw: string | Uint8Array,
  options: MergeCloudConfigOptions & UserDataOptions = {},
): Promise<UserDataResult> {
  const data = await parseUserData(raw, options);
  return { ...mergeCloudConfig(data.parts, options), skipped: data.skipped };
}
