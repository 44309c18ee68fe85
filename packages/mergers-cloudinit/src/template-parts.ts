import type { MergeError } from "@merge/core";
import type { InstanceData } from "./instance-data.js";
import { contentTypeOf, type SkippedPart, type UserData } from "./mime.js";
import type { CloudConfigPart } from "./parts.js";
import { decodeSurrogateEscape } from "./python-payload.js";
import { createTemplateRenderer, detectTemplate, type TemplateRenderer } from "./templates.js";

/** What became of one `## template: jinja` user-data part. */
export interface TemplatePartOutcome {
  readonly name: string;
  /**
   * - `cloud-config`: it rendered to `#cloud-config` (or `#cloud-config-jsonp`, which cloud-init then reads as YAML)
   *   and went on to the cloud-config handler; what the merge made of it is in `parts` under the same name;
   * - `other`: it rendered to a shell script, which cloud-init runs and this library does not;
   * - `ignored`: cloud-init drops it — it failed to render (`error`), rendered to nothing, rendered to a type no
   *   handler takes, or there was no instance data to render it with (`reason`).
   */
  readonly status: "cloud-config" | "other" | "ignored";
  /** The content type the rendered text announces (`text/cloud-config`, `text/x-shellscript`, ...). */
  readonly type?: string;
  readonly reason?: string;
  /** Why it could not render: `TEMPLATE_SYNTAX` or `TEMPLATE_RENDER` at the part's own line. */
  readonly error?: MergeError;
  /** Variables the instance data lacks; each is printed as `CI_MISSING_JINJA_VAR/name` (cloud-init warns). */
  readonly missing: readonly string[];
}

/** User-data with its template parts rendered. */
export interface RenderedUserData extends UserData {
  /** One outcome per template part, in message order. */
  readonly templates: readonly TemplatePartOutcome[];
}

/**
 * Renders the `## template: jinja` parts of parsed user-data as cloud-init's jinja handler does, with `instanceData`
 * as the variables. A part that renders to cloud-config takes its place among `parts` (as `text/cloud-config`, with
 * its name and headers); the others leave `skipped` and are reported in `templates`. Without instance data every
 * template part is ignored, as cloud-init ignores them when its instance-data file is missing.
 */
export async function renderTemplateParts(
  data: UserData,
  instanceData: InstanceData | undefined,
): Promise<RenderedUserData> {
  const templateParts = data.skipped.filter((part) => part.template !== undefined);
  if (templateParts.length === 0) return { ...data, templates: [] };
  const renderer = instanceData === undefined ? undefined : await createTemplateRenderer();
  const parts: CloudConfigPart[] = [];
  const templates: TemplatePartOutcome[] = [];
  let next = 0;
  for (const skipped of templateParts) {
    const template = skipped.template!;
    while (next < template.at && next < data.parts.length) parts.push(data.parts[next++]!);
    const { outcome, part } = renderTemplatePart(skipped, instanceData, renderer);
    templates.push(outcome);
    if (part !== undefined) parts.push(part);
  }
  while (next < data.parts.length) parts.push(data.parts[next++]!);
  return {
    parts,
    skipped: data.skipped.filter((part) => part.template === undefined),
    templates,
  };
}

function renderTemplatePart(
  skipped: SkippedPart,
  instanceData: InstanceData | undefined,
  renderer: TemplateRenderer | undefined,
): { outcome: TemplatePartOutcome; part?: CloudConfigPart } {
  const { name } = skipped;
  const { text: raw, headers } = skipped.template!;
  const ignored = (reason: string, error?: MergeError, missing: readonly string[] = []) => ({
    outcome: { name, status: "ignored" as const, reason, error, missing },
  });
  // cloud-init decodes the part with surrogateescape and renders it all the same: bytes that are not UTF-8 reach the
  // rendered text as lone surrogates, which the cloud-config handler's YAML reader then refuses.
  const text = typeof raw === "string" ? raw : decodeSurrogateEscape(raw);
  let body: string;
  try {
    const detected = detectTemplate(text, name);
    if (detected.type !== "jinja") return ignored("its first line is not `## template: jinja`");
    body = detected.body;
  } catch (error) {
    return ignored("its first line names a template type cloud-init does not know", error as MergeError);
  }
  if (instanceData === undefined || renderer === undefined) {
    return ignored("there is no instance data to render it with");
  }
  const rendered = renderer.render(body, name, instanceData);
  if (rendered.error !== undefined) return ignored("it does not render", rendered.error);
  if (rendered.text === undefined) return ignored("it renders to nothing", undefined, rendered.missing);
  const type = contentTypeOf(rendered.text);
  if (type === "text/cloud-config" || type === "text/cloud-config-jsonp") {
    // cloud-init hands the rendered text to its cloud-config handler with the jinja part's content type, so even a
    // #cloud-config-jsonp text is read as YAML.
    return {
      outcome: { name, status: "cloud-config", type, missing: rendered.missing },
      part: { text: rendered.text, name, headers: withType(headers), type: "text/cloud-config" },
    };
  }
  if (type === "text/x-shellscript") {
    return { outcome: { name, status: "other", type, missing: rendered.missing } };
  }
  return {
    outcome: {
      name,
      status: "ignored",
      type,
      reason: `it renders to ${type ?? "text of no known type"}, which no handler of jinja templates takes`,
      missing: rendered.missing,
    },
  };
}

function withType(headers: readonly (readonly [string, string])[]): [string, string][] {
  const out: [string, string][] = [];
  for (const [header, value] of headers) if (header !== "Content-Type") out.push([header, value]);
  out.push(["Content-Type", "text/jinja2"]);
  return out;
}
