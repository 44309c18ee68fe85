import { commentText, Emitter } from "./emit.js";
import { Representer, type YNode } from "./represent.js";

/** Ready-made settings matching a real dumper. */
export type DumpPreset = "pyyaml" | "cloud-init" | "salt" | "readable";

export interface DumpYamlOptions {
  /**
   * Starting point for the other options:
   * - `pyyaml` (default): `yaml.safe_dump(value)` — block style, keys sorted, width 80, indent 2, non-ASCII escaped.
   * - `cloud-init`: `cloudinit.safeyaml.dumps` — block style, indent 4, `---` and `...`, keys sorted.
   * - `salt`: Salt's Jinja `|yaml` filter — libyaml (`CSafeDumper`) with `allow_unicode`, flow style, keys sorted,
   *   undefined as `NULL`, the result stripped and without a trailing `...`.
   * - `readable`: for people (the CLI) — block style, keys in insertion order, no aliases, Unicode as is.
   */
  readonly preset?: DumpPreset;
  /** `block` (`default_flow_style=False`), `flow` (`True`) or `auto` (`None`: flow for collections of scalars). */
  readonly style?: "block" | "flow" | "auto";
  /** Sort mapping keys (`sort_keys`). */
  readonly sortKeys?: boolean;
  /** Preferred line width (`width`, default 80); longer scalars and flow collections wrap. */
  readonly width?: number;
  /** Indentation step (`indent`, 2..9, default 2). */
  readonly indent?: number;
  /** Write printable non-ASCII characters as they are (`allow_unicode`). */
  readonly allowUnicode?: boolean;
  /** Begin with `---` (`explicit_start`). */
  readonly explicitStart?: boolean;
  /** End with `...` (`explicit_end`). */
  readonly explicitEnd?: boolean;
  /** Write an object met twice once, with `&id001` / `*id001` (PyYAML's default); false repeats it. */
  readonly aliases?: boolean;
  /** How `undefined` is written: `null`, `NULL` (Salt's undefined) or refused (`error`). */
  readonly undefinedAs?: "null" | "NULL" | "error";
  /** Follow libyaml's emitter where it differs from PyYAML's Python one (Salt uses libyaml). */
  readonly libyaml?: boolean;
  /** Strip surrounding whitespace and a trailing `...`, as Salt's `|yaml` filter does. */
  readonly trim?: boolean;
  /** Deepest nesting accepted (default 1000); deeper values are a `DEPTH_LIMIT` error. */
  readonly maxDepth?: number;
  /**
   * Comment lines written before the document, each as `# line` (not a YAML dumper option: for annotated output
   * such as `merge --explain`). Line breaks and characters PyYAML refuses are written as escapes. A function is
   * called once the document is written (after every `comment`), for a header that says what the comments found.
   */
  readonly header?: readonly string[] | (() => readonly string[]);
  /**
   * The comment for the value at a path (mapping keys as given, list indexes as numbers), or undefined for none:
   * written ` # text` at the end of the value's line, after `key:` or `-` for a block mapping or list, on the
   * header of a block scalar, on a line of its own above a complex (`?`) key. Block context only (nothing inside
   * flow collections); the root gets none. The text is made one line PyYAML and libyaml read as a comment.
   */
  readonly comment?: (path: readonly unknown[]) => string | undefined;
}

type Settings = Required<Omit<DumpYamlOptions, "preset" | "header" | "comment">>;

const BASE: Settings = {
  style: "block",
  sortKeys: true,
  width: 80,
  indent: 2,
  allowUnicode: false,
  explicitStart: false,
  explicitEnd: false,
  aliases: true,
  undefinedAs: "null",
  libyaml: false,
  trim: false,
  maxDepth: 1000,
};

const PRESETS: Record<DumpPreset, Partial<Settings>> = {
  pyyaml: {},
  "cloud-init": { indent: 4, explicitStart: true, explicitEnd: true },
  salt: { style: "flow", allowUnicode: true, undefinedAs: "NULL", libyaml: true, trim: true },
  readable: { sortKeys: false, aliases: false, allowUnicode: true },
};

function settings(options: DumpYamlOptions): Settings {
  const preset = PRESETS[options.preset ?? "pyyaml"];
  const out: Record<string, unknown> = { ...BASE, ...preset };
  for (const [key, value] of Object.entries(options))
    if (key !== "preset" && key !== "header" && key !== "comment" && value !== undefined) out[key] = value;
  return out as Settings;
}

// Python's str.strip() whitespace (it differs from String.prototype.trim: \x1c-\x1f and NEL yes, BOM no).
const PY_SPACE =
  "[\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const PY_STRIP = new RegExp(`^${PY_SPACE}+|${PY_SPACE}+$`, "g");

function pythonStrip(text: string): string {
  return text.replace(PY_STRIP, "");
}

/** The serializer's anchors: a node reached a second time gets `id001`, `id002`... in the order of those visits. */
function assignAnchors(root: YNode): Map<YNode, string | null> {
  const anchors = new Map<YNode, string | null>();
  let last = 0;
  const visit = (node: YNode): void => {
    if (anchors.has(node)) {
      if (anchors.get(node) === null) anchors.set(node, `id${String(++last).padStart(3, "0")}`);
      return;
    }
    anchors.set(node, null);
    if (node.kind === "seq") for (const item of node.items) visit(item);
    else if (node.kind === "map") {
      for (const [key, value] of node.pairs) {
        visit(key);
        visit(value);
      }
    }
  };
  visit(root);
  return anchors;
}

/**
 * Writes a value as PyYAML's `yaml.dump(value, Dumper=SafeDumper, ...)` does, or as a preset of a real system.
 * Throws a `MergeError` (`YAML_DUMP`, `DEPTH_LIMIT`) for values YAML cannot hold.
 */
export function dumpYaml(value: unknown, options: DumpYamlOptions = {}): string {
  const s = settings(options);
  const representer = new Representer({
    flowStyle: s.style === "block" ? false : s.style === "flow" ? true : null,
    sortKeys: s.sortKeys,
    aliases: s.aliases,
    undefinedAs: s.undefinedAs,
    maxDepth: s.maxDepth,
    keepKeys: options.comment !== undefined,
  });
  const root = representer.represent(value);
  const anchors = s.aliases ? assignAnchors(root) : new Map<YNode, string | null>();
  const emitter = new Emitter(
    {
      indent: s.indent,
      width: s.width,
      allowUnicode: s.allowUnicode,
      libyaml: s.libyaml,
      explicitStart: s.explicitStart,
      explicitEnd: s.explicitEnd,
      comment: options.comment,
    },
    anchors,
  );
  let text = emitter.document(root);
  const header = typeof options.header === "function" ? options.header() : options.header;
  if (header !== undefined && header.length > 0) {
    text = `${header.map((line) => `# ${commentText(line)}`.trimEnd()).join("\n")}\n${text}`;
  }
  if (s.trim) {
    text = pythonStrip(text);
    if (text.endsWith("\n...")) text = text.slice(0, -4);
  }
  return text;
}
