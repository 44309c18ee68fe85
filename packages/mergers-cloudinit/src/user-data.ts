import type { InstanceData } from "./instance-data.js";
import { parseUserData, type SkippedPart, type UserDataOptions } from "./mime.js";
import { type CloudConfigResult, type MergeCloudConfigOptions, mergeCloudConfig } from "./parts.js";
import { renderTemplateParts, type TemplatePartOutcome } from "./template-parts.js";

/** The merge of a whole user-data blob, plus the parts that were not cloud-config. */
export interface UserDataResult extends CloudConfigResult {
  readonly skipped: readonly SkippedPart[];
  /** What became of each `## template: jinja` part (rendered with `instanceData`, or ignored without it). */
  readonly templates: readonly TemplatePartOutcome[];
}

/** Options of `mergeUserData`. */
export interface MergeUserDataOptions extends MergeCloudConfigOptions, UserDataOptions {
  /** The variables `## template: jinja` parts are rendered with (`loadInstanceData`); without it they are ignored. */
  readonly instanceData?: InstanceData;
}

/**
 * Merges the cloud-config of a whole user-data blob (plain `#cloud-config`, gzip, or a MIME multipart message as
 * `cloud-init devel make-mime` writes it) the way cloud-init's cloud-config handler does. `values` chooses the
 * representation of `result.value` as for `mergeCloudConfig`; `result.exact` is always the exact model.
 */
export async function mergeUserData(
  raw: string | Uint8Array,
  options: MergeUserDataOptions = {},
): Promise<UserDataResult> {
  const data = await renderTemplateParts(await parseUserData(raw, options), options.instanceData);
  return { ...mergeCloudConfig(data.parts, options), skipped: data.skipped, templates: data.templates };
}
