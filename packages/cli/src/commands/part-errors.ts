import { isMergeError } from "@merge/core";
import type { CloudConfigPart } from "@merge/mergers-cloudinit";
import { reissued, withExcerpt } from "../load-document.js";

/** Where a cloud-config part came from. */
export interface PartOrigin {
  /** The input as named on the command line. */
  readonly input: string;
  /**
   * The part's text is what the user wrote, so its lines may be quoted in a message. A part a `## template: jinja`
   * rendered is not: its text holds instance data, which may be sensitive (cloud-init keeps some of it root-only).
   */
  readonly quotable: boolean;
}

/**
 * A part's syntax error (`YAML_PARSE`, `JSON_PARSE`) as the CLI reports it: a part unpacked from a MIME message or
 * gzip data is named after the input and the part (`user-data.mime (part config.yaml):3:7`; its line numbers count
 * from the part's own first line, as the parser saw it), and the line it points at is quoted with a caret under the
 * column unless the part was rendered from a template. Any other error is returned as it is.
 */
export function partProblem(error: unknown, part: CloudConfigPart, origin: PartOrigin | undefined): unknown {
  if (!isMergeError(error) || (error.code !== "YAML_PARSE" && error.code !== "JSON_PARSE")) return error;
  if (origin === undefined) return error;
  const named =
    part.name !== origin.input && error.source !== undefined
      ? reissued(error, { source: { ...error.source, file: `${origin.input} (part ${part.name})` } })
      : error;
  return origin.quotable ? withExcerpt(named, textOf(part)) : named;
}

/** The part's text as the parser read it. */
export function textOf(part: CloudConfigPart): string {
  return typeof part.text === "string" ? part.text : new TextDecoder().decode(part.text ?? new Uint8Array());
}
