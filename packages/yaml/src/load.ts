import type { CST, Node, Parser, YAMLError } from "yaml";
import { yamlLibrary } from "#yaml-library";
import { type YamlMark, yamlError, type YamlErrorCode } from "./errors.js";
import { isMergeError, keyIdentity } from "@merge/core";
import { fastParse } from "./fastpath.js";
import { firstProblem, nodeStarts } from "./mark-parser.js";
import { pyRepr, type ScanMark } from "./mark-scanner.js";
import { nodeNumber } from "./node-marks.js";
import { LineIndex } from "./nodes.js";
import { type BuiltPosition, type Reread, type RereadKind, YamlConstructor } from "./construct.js";
import type { YamlFlavor } from "./scalars.js";
import { tagAsPyyamlSplits } from "./tag-spelling.js";

// An anchor or alias name, as PyYAML and libyaml scan it, and what may follow it.
const ANCHOR_NAME = /^[0-9A-Za-z_-]+$/;
const AFTER_ANCHOR = " \t\r\n?:,]}%@`";
const ANCHOR_CHAR = /[0-9A-Za-z_-]/;

/** Default budget of constructed nodes, aliases counted as often as they are used (billion-laughs defence). */
export const DEFAULT_MAX_NODES = 10_000_000;
/** Default limit of collection nesting; deeper input is a `DEPTH_LIMIT` error (never a stack overflow). */
export const DEFAULT_MAX_DEPTH = 500;

export interface LoadYamlOptions {
  /** Which loader to agree with: `pyyaml` (`yaml.safe_load`, cloud-init; default) or `salt` (`SaltYamlSafeLoader`). */
  readonly flavor?: YamlFlavor;
  /** File name put in error positions. */
  readonly filename?: string;
  /** Budget of nodes after alias expansion (default 10,000,000); exceeding it is a `SIZE_LIMIT` error. */
  readonly maxNodes?: number;
  /** Deepest collection nesting accepted (default 500); deeper is a `DEPTH_LIMIT` error. */
  readonly maxDepth?: number;
  /**
   * `plain` (default): mappings are plain objects with keys named as `json.dumps` names them (`1`, `true`, `null`,
   * `1.5`; integer-like keys first, as JavaScript orders them) and whole floats are numbers (`1.0` reads as `1`).
   * `exact`: what PyYAML builds, in `@merge/core`'s exact model: mappings are `PyDict`s keyed by the typed value
   * (`1` and `"1"` are two keys, every key in document order) and whole floats are `PyFloat`s (`1.0`).
   */
  readonly values?: "plain" | "exact";
  /** Older spelling: `map` gives `PyDict` mappings as `values: "exact"` does (floats as `keepFloats` says). */
  readonly mappings?: "object" | "map";
  /** Older spelling: whole floats as `PyFloat` (also implied by `values: "exact"`). */
  readonly keepFloats?: boolean;
}

/** What `loadYamlWithPositions` returns. */
export interface YamlWithPositions {
  readonly value: unknown;
  /**
   * 1-based line and column of the key (for a mapping entry) or item (for a sequence entry) at `path`; `[]` is the
   * document's root. Keys are given as in the loaded value (object keys, typed `PyDict` keys, or array indexes).
   */
  positionOf(path: readonly unknown[]): { line: number; column: number } | undefined;
}

// PyYAML's reader refuses these characters anywhere in the stream.
// biome-ignore lint/suspicious/noControlCharactersInRegex: this pattern exists to find control characters
const NON_PRINTABLE = /[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

const YAML11_BREAKS = /[\u0085\u2028\u2029]/;
const YAML11_BREAKS_ALL = /[\u0085\u2028\u2029]/g;
const LONE_CR = /\r(?!\n)/g;

/** A parsed document: the yaml package's, or one built by the fast path. */
interface ParsedDoc {
  readonly contents: Node | null;
  readonly errors: readonly YAMLError[];
  readonly range: readonly [number, number, number];
}

interface Prepared {
  readonly text: string;
  readonly lines: LineIndex;
  readonly docs: readonly ParsedDoc[];
  /** Scalars to read again from the original text (see `Reread`), or undefined when there are none. */
  readonly reread: Reread | undefined;
}

function decode(input: string | Uint8Array, file: string | undefined): string {
  if (typeof input === "string") return input;
  // PyYAML's reader: a UTF-16 byte-order mark picks UTF-16, anything else must be UTF-8.
  let encoding = "utf-8";
  if (input[0] === 0xff && input[1] === 0xfe) encoding = "utf-16le";
  else if (input[0] === 0xfe && input[1] === 0xff) encoding = "utf-16be";
  try {
    return new TextDecoder(encoding, { fatal: true, ignoreBOM: false }).decode(input);
  } catch (cause) {
    let bad = 0;
    // Find the first offending byte for the message: decode growing prefixes would be slow, so scan UTF-8 by hand.
    if (encoding === "utf-8") bad = firstInvalidUtf8(input);
    throw yamlError(
      "YAML_ENCODING",
      `'${encoding}' codec can't decode byte at position ${bad}`,
      file,
      undefined,
      cause,
    );
  }
}

function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const n =
      b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
    if (n === 0) return i;
    for (let k = 1; k < n; k++) if (((bytes[i + k] ?? 0) & 0xc0) !== 0x80) return i;
    i += n;
  }
  return i;
}

function mark(lines: LineIndex, offset: number): { line: number; column: number; offset: number } {
  const pos = lines.linePos(offset);
  return { line: pos.line, column: pos.col, offset };
}

function tabError(offset: number, lines: LineIndex, file: string | undefined): never {
  throw yamlError(
    "YAML_PARSE",
    "found character '\\t' that cannot start any token (while scanning for the next token)",
    file,
    mark(lines, offset),
  );
}

/** How tabs between tokens are judged: PyYAML refuses them all; libyaml (Salt) only some; none when no tab. */
type TabRule = "pyyaml" | "libyaml" | "none";

/**
 * PyYAML's scanner skips only spaces between tokens, so a tab there is an error. libyaml skips tabs too, except
 * where a block key could start: in the first column, in the white space that opens a line with content on it (a
 * blank or comment line may hold tabs after a space), and right after a block indicator (`-`, `?`, or a `:`
 * opening a line).
 */
function checkTabs(
  tokens: readonly CST.SourceToken[] | undefined,
  rule: TabRule,
  text: string,
  lines: LineIndex,
  file: string | undefined,
  inBlock = true,
): void {
  if (tokens === undefined) return;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type !== "space" || !t.source.includes("\t")) continue;
    const at = t.offset + t.source.indexOf("\t");
    if (rule === "pyyaml") tabError(at, lines, file);
    const previous = tokens[i - 1];
    let before = t.offset - 1;
    while (before >= 0 && (text[before] === " " || text[before] === "\t")) before--;
    const lineStart = before < 0 || text[before] === "\n" || text[before] === "\r";
    const afterIndicator =
      previous !== undefined &&
      (previous.type === "seq-item-ind" ||
        previous.type === "explicit-key-ind" ||
        (previous.type === "map-value-ind" && (previous.offset === 0 || text[previous.offset - 1] === "\n")));
    let after = t.offset + t.source.length;
    while (after < text.length && (text[after] === " " || text[after] === "\t")) after++;
    const content = after < text.length && !"\n\r#".includes(text[after]!);
    // A tab in the first column "violates indentation" inside a block collection (not around a root scalar).
    const firstColumn =
      inBlock && t.source[0] === "\t" && (t.offset === 0 || "\n\r".includes(text[t.offset - 1]!));
    if ((lineStart && (content || firstColumn)) || afterIndicator) tabError(at, lines, file);
  }
}

/**
 * Walks the concrete syntax tree without recursion (hostile input cannot overflow the stack): nesting depth
 * against `maxDepth`, and for the `pyyaml` flavour the tabs PyYAML's pure-Python scanner refuses.
 */
function checkTree(
  token: CST.Token,
  maxDepth: number,
  tabs: TabRule,
  text: string,
  lines: LineIndex,
  file: string | undefined,
  reread: Map<number, RereadKind>,
  separators: boolean,
  flavor: YamlFlavor,
): void {
  // Each token with its nesting depth, whether it sits in a flow collection, and the indentation of the block
  // collection around it (-1 at the top).
  const stack: [CST.Token, number, boolean, number][] = [[token, 0, false, -1]];
  const tags = text.includes("!");
  while (stack.length > 0) {
    const [tok, depth, inFlow, blockIndent] = stack.pop()!;
    if (tok.type === "block-map") attachBlockScalarValues(tok);
    if (tabs === "libyaml" && tok.type === "scalar") checkPlainContinuation(tok, blockIndent, lines, file);
    const kind = rereadKind(tok, separators);
    if (kind !== undefined) reread.set((tok as CST.FlowScalar).offset, kind);
    checkNames(tok, text, lines, file);
    if (tags) checkTags(tok, inFlow, flavor, text, lines, file);
    if (inFlow && tok.type === "scalar")
      checkFlowPlain(tok, tabs === "pyyaml" || flavor === "pyyaml", lines, file);
    if (tabs === "libyaml" && tok.type === "block-scalar") checkBlockScalarTabs(tok, text, lines, file);
    if (flavor === "salt" && tok.type === "double-quoted-scalar") checkEscapedCodes(tok, lines, file);
    if (flavor === "pyyaml" && tok.type === "block-scalar") checkBlockScalarHeader(tok, text, lines, file);
    // Inside flow collections libyaml skips tabs like spaces.
    if (tabs !== "none" && !(inFlow && tabs === "libyaml")) {
      const root = tok.type === "document" ? tok.value?.type : undefined;
      const inBlock = blockIndent >= 0 || root === "block-map" || root === "block-seq";
      if (tok.type === "space") checkTabs([tok], tabs, text, lines, file, inBlock);
      if ("start" in tok && Array.isArray(tok.start)) checkTabs(tok.start, tabs, text, lines, file, inBlock);
      // Inside flow collections libyaml skips tabs like spaces, up to the closing bracket.
      if ("end" in tok && Array.isArray(tok.end) && !(tok.type === "flow-collection" && tabs === "libyaml")) {
        checkTabs(tok.end, tabs, text, lines, file, inBlock);
      }
      if ("props" in tok) checkTabs(tok.props as CST.SourceToken[], tabs, text, lines, file, inBlock);
      if (tabs === "pyyaml" && tok.type === "scalar" && tok.source.includes("\t")) {
        tabError(tok.offset + tok.source.indexOf("\t"), lines, file);
      }
      if (tok.type === "block-map" || tok.type === "block-seq" || tok.type === "flow-collection") {
        const flow = tok.type === "flow-collection";
        for (const item of tok.items) {
          // Inside flow collections libyaml skips tabs like spaces.
          if (flow && tabs === "libyaml") continue;
          checkTabs(item.start, tabs, text, lines, file);
          if ("sep" in item) checkTabs(item.sep, tabs, text, lines, file);
        }
      }
    }
    if (tok.type === "flow-collection") checkFlowKeys(tok, text, lines, file);
    if (tok.type === "block-map") {
      for (const item of tok.items) {
        // The parser hangs a node that follows an explicit `? key` line without `:` on that key, and the composer
        // then drops it; PyYAML refuses such text.
        // PyYAML has no empty implicit key in block context: a line starting with `: ` is an error there.
        const sep: CST.SourceToken[] = item.sep ?? [];
        const valueInd = sep.find((t) => t.type === "map-value-ind");
        const props = item.start.some((t) => t.type === "anchor" || t.type === "tag");
        if (
          !item.explicitKey &&
          !props &&
          (item as { key?: unknown }).key == null &&
          valueInd !== undefined
        ) {
          const at = valueInd;
          throw yamlError(
            "YAML_PARSE",
            "expected <block end>, but found ':' (while parsing a block mapping)",
            file,
            mark(lines, at.offset),
          );
        }
        if (item.value && !item.sep?.some((t) => t.type === "map-value-ind")) {
          throw yamlError(
            "YAML_PARSE",
            "expected ':' after an explicit key (while parsing a block mapping)",
            file,
            mark(lines, item.value.offset),
          );
        }
      }
    }
    if (depth > maxDepth) {
      throw yamlError(
        "DEPTH_LIMIT",
        `collections nested deeper than ${maxDepth} levels`,
        file,
        mark(lines, "offset" in tok ? tok.offset : 0),
      );
    }
    switch (tok.type) {
      case "document":
        if (tok.value) stack.push([tok.value, depth, false, -1]);
        break;
      case "block-map":
      case "block-seq":
      case "flow-collection":
        if (tok.type !== "flow-collection") for (const item of tok.items) liftKeyProps(item, text);
        for (const item of tok.items) {
          const flow = inFlow || tok.type === "flow-collection";
          const indent = tok.type === "flow-collection" ? blockIndent : tok.indent;
          if ("key" in item && item.key) stack.push([item.key, depth + 1, flow, indent]);
          if (item.value) stack.push([item.value, depth + 1, flow, indent]);
        }
        break;
      default:
        break;
    }
  }
}

/**
 * PyYAML and libyaml take a block scalar that starts on the line after `key:`, at the key's own indentation, for
 * the key's value (`script:\n|\n  echo hi`); the `yaml` package's parser makes it the next entry's key, with the
 * entries after it as that key's value. The scalar is given back to the entry before as its value, and the entries
 * after it to the mapping.
 */
function attachBlockScalarValues(map: CST.BlockMap): void {
  for (let i = 1; i < map.items.length; i++) {
    const item = map.items[i]!;
    const before = map.items[i - 1]!;
    if (item.key?.type !== "block-scalar" || item.explicitKey || before.value !== undefined) continue;
    if (!before.sep?.some((t) => t.type === "map-value-ind")) continue;
    // With an anchor or tag before it the line starts a simple key in PyYAML too, and lacks its `:`.
    if (item.start.some((t) => t.type !== "space" && t.type !== "newline" && t.type !== "comment")) continue;
    if (item.sep?.some((t) => t.type !== "space" && t.type !== "newline")) continue;
    const rest = item.value;
    if (rest !== undefined && (rest.type !== "block-map" || rest.indent !== map.indent)) continue;
    // As a key the scalar may have taken lines at the mapping's own indentation, which end it in PyYAML.
    const content = /^(?: *(?:\r?\n|$))*( *)\S/.exec(item.key.source);
    if (content !== null && content[1]!.length <= map.indent) continue;
    before.sep.push(...item.start);
    before.value = item.key;
    map.items.splice(i, 1, ...(rest === undefined ? [] : rest.items));
  }
}

/**
 * An anchor or tag followed on its line by `:` belongs to an empty key in PyYAML (`p:\n  &a:\n    k: v` is
 * `{p: {null: {k: v}}}`): the simple key starts at the property. The `yaml` package's parser gives a property that
 * opens a nested block mapping to that mapping, so such properties are moved from the entry before onto the
 * mapping's first, empty key. A property on a line of its own still belongs to the mapping.
 */
function liftKeyProps(
  item: CST.BlockMap["items"][number] | CST.BlockSequence["items"][number],
  text: string,
): void {
  const sep = "sep" in item ? item.sep : undefined;
  const map = item.value;
  if (sep === undefined || map?.type !== "block-map") return;
  const first = map.items[0];
  if (first === undefined || first.explicitKey || ("key" in first && first.key != null)) return;
  if (first.start.some((t) => t.type === "anchor" || t.type === "tag")) return;
  const valueInd = first.sep?.find((t) => t.type === "map-value-ind");
  if (valueInd === undefined) return;
  // The properties at the end of the entry before, followed by nothing but spaces up to the `:`.
  let from = sep.length;
  while (from > 0 && ["anchor", "tag", "space"].includes(sep[from - 1]!.type)) from--;
  while (from < sep.length && sep[from]!.type === "space") from++;
  if (from === sep.length || !sep.slice(from).some((t) => t.type === "anchor" || t.type === "tag")) return;
  const start = sep[from]!.offset;
  if (/[\r\n]/.test(text.slice(start, valueInd.offset))) return;
  first.start.unshift(...sep.splice(from));
}

/**
 * PyYAML's rules for keys in flow collections that the `yaml` package relaxes: an implicit key ends with its `:`
 * on the same line and within 1,024 characters (else the `:` is unexpected), and a `:` with no key before it
 * (`[: a]`, `{: a}`) is an error.
 */
function checkFlowKeys(
  tok: CST.FlowCollection,
  text: string,
  lines: LineIndex,
  file: string | undefined,
): void {
  for (const item of tok.items) {
    const sep: readonly CST.SourceToken[] = "sep" in item && item.sep !== undefined ? item.sep : [];
    const valueInd = sep.find((t) => t.type === "map-value-ind");
    if (valueInd === undefined || item.start.some((t) => t.type === "explicit-key-ind")) continue;
    const key = "key" in item ? item.key : undefined;
    const props = item.start.filter((t) => t.type === "anchor" || t.type === "tag");
    if ((key === undefined || key === null) && props.length === 0) {
      throw yamlError(
        "YAML_PARSE",
        "expected the node content, but found ':' (while parsing a flow node)",
        file,
        mark(lines, valueInd.offset),
      );
    }
    const start = Math.min(key?.offset ?? valueInd.offset, ...props.map((t) => t.offset));
    const between = text.slice(start, valueInd.offset);
    if (between.length > 1024 || between.includes("\n") || between.includes("\r")) {
      throw yamlError(
        "YAML_PARSE",
        "expected ',' or the end of the flow collection, but found ':' (a simple key must be on one line)",
        file,
        mark(lines, valueInd.offset),
      );
    }
  }
}

/**
 * libyaml refuses a tab that opens a continuation line of a plain scalar left of the indentation the scalar needs
 * (one more than the block collection around it): `k: [a\n\tb]` ("a tab character that violates indentation").
 */
function checkPlainContinuation(
  tok: CST.FlowScalar,
  blockIndent: number,
  lines: LineIndex,
  file: string | undefined,
): void {
  if (blockIndent < 0 || !tok.source.includes("\t")) return;
  const source = tok.source;
  for (let nl = source.indexOf("\n"); nl >= 0; nl = source.indexOf("\n", nl + 1)) {
    let column = 0;
    while (source[nl + 1 + column] === " ") column++;
    if (source[nl + 1 + column] === "\t" && column <= blockIndent) {
      throw yamlError(
        "YAML_PARSE",
        "found a tab character that violates indentation (while scanning a plain scalar)",
        file,
        mark(lines, tok.offset + nl + 1 + column),
      );
    }
  }
}

/** Anchor and alias names: PyYAML and libyaml take only ASCII letters, digits, `-` and `_`. */
function checkNames(tok: CST.Token, text: string, lines: LineIndex, file: string | undefined): void {
  const check = (t: { type: string; source: string; offset: number }): void => {
    if (t.type !== "anchor" && t.type !== "alias") return;
    const end = t.offset + t.source.length;
    if (ANCHOR_NAME.test(t.source.slice(1)) && (end >= text.length || AFTER_ANCHOR.includes(text[end]!)))
      return;
    throw yamlError(
      "YAML_PARSE",
      `expected alphabetic or numeric character (while scanning an ${t.type === "anchor" ? "anchor" : "alias"})`,
      file,
      mark(lines, t.offset),
    );
  };
  if (tok.type === "alias") check(tok);
  forEachProperty(tok, check);
}

/** Calls `visit` with each source token held by `tok` itself or by its items (properties, indicators, spaces). */
function forEachProperty(tok: CST.Token, visit: (t: CST.SourceToken) => void): void {
  for (const field of ["start", "props", "sep", "end"] as const) {
    const list = (tok as unknown as Record<string, unknown>)[field];
    if (Array.isArray(list)) for (const t of list) visit(t as CST.SourceToken);
  }
  if ("items" in tok) {
    for (const item of tok.items) {
      for (const t of item.start) visit(t);
      if ("sep" in item && item.sep !== undefined) for (const t of item.sep) visit(t);
    }
  }
}

/**
 * A tag must be followed by white space or a line break in PyYAML (`expected ' '`) and libyaml, which also lets a
 * `,` end it in a flow collection: the `yaml` package reads `[!!str]` as `[""]`. Tags whose handle PyYAML (Salt:
 * libyaml) ends elsewhere than the `yaml` package does (`!!!int`) are spelt so that the package reads the same tag
 * (see tag-spelling.ts). Only the token's text changes: positions come from offsets, and the composer reads a tag's
 * text only to resolve it.
 */
function checkTags(
  tok: CST.Token,
  inFlow: boolean,
  flavor: YamlFlavor,
  text: string,
  lines: LineIndex,
  file: string | undefined,
): void {
  const libyaml = flavor === "salt";
  const flow = inFlow || tok.type === "flow-collection";
  forEachProperty(tok, (t) => {
    if (t.type !== "tag") return;
    const end = t.offset + t.source.length;
    const next = text[end];
    if (
      next !== undefined &&
      !(libyaml ? " \t\n\r" : " \n\r\x85\u2028\u2029\0").includes(next) &&
      !(libyaml && flow && next === ",")
    ) {
      const problem = libyaml
        ? "did not find expected whitespace or line break"
        : `expected ' ', but found ${pyRepr(next)}`;
      throw yamlError("YAML_PARSE", `${problem} (while scanning a tag)`, file, mark(lines, end));
    }
    // An empty verbatim tag, which the `yaml` package reads as no tag at all.
    if (t.source === "!<>")
      throw yamlError("YAML_PARSE", "expected URI (while parsing a tag)", file, mark(lines, t.offset + 2));
    const source = tagAsPyyamlSplits(t.source, libyaml);
    if (source !== undefined) t.source = source;
  });
}

/**
 * The directives before each document as PyYAML's parser and libyaml take them: one `%YAML` at most, of major
 * version 1 (libyaml: 1.1 or 1.2 only), and one `%TAG` per handle; libyaml also refuses a directive of another name,
 * which PyYAML skips.
 */
function checkDirectives(
  tokens: readonly CST.Token[],
  flavor: YamlFlavor,
  lines: LineIndex,
  file: string | undefined,
): void {
  let version = false;
  const handles = new Set<string>();
  const refuse = (message: string, offset: number): never => {
    throw yamlError("YAML_PARSE", message, file, mark(lines, offset));
  };
  for (const tok of tokens) {
    if (tok.type === "document") {
      version = false;
      handles.clear();
      continue;
    }
    if (tok.type !== "directive") continue;
    const [name, first, second] = tok.source.split(/[ \t]+/);
    if (name === "%YAML") {
      if (version) refuse("found duplicate YAML directive", tok.offset);
      version = true;
      const number = /^(\d+)\.(\d+)$/.exec(first ?? "");
      // A malformed number is the yaml package's error already.
      if (number === null) continue;
      const major = Number(number[1]);
      const minor = Number(number[2]);
      if (major !== 1 || (flavor === "salt" && minor !== 1 && minor !== 2)) {
        refuse("found incompatible YAML document (version 1.* is required)", tok.offset);
      }
    } else if (name === "%TAG") {
      if (first !== undefined && handles.has(first)) refuse(`duplicate tag handle '${first}'`, tok.offset);
      if (first !== undefined) handles.add(first);
      // A handle is `!`, `!!` or `!word!`, with white space after it (the mark parser places the error).
      if (first !== undefined && !/^!(?:[0-9A-Za-z_-]*!)?$/.test(first))
        refuse(`bad tag handle '${first}' in a %TAG directive`, tok.offset);
      // The prefix's `%` escapes are read even where no tag uses it (the mark parser places the error).
      if (second !== undefined && /%(?![0-9A-Fa-f]{2})/.test(second))
        refuse("bad URI escape in the %TAG prefix", tok.offset);
    } else if (flavor === "salt") {
      // libyaml marks the end of the name.
      refuse("found unknown directive name (while scanning a directive)", tok.offset + name!.length);
    }
  }
}

/**
 * PyYAML's scanner separates a directive's name and parameters by spaces only: a tab in a `%YAML` or `%TAG` line
 * (`%YAML\t1.1`), or right after another directive's name, is an error at that tab. libyaml takes tabs there.
 */
function checkDirectiveTabs(tokens: readonly CST.Token[], lines: LineIndex, file: string | undefined): void {
  for (const tok of tokens) {
    if (tok.type !== "directive" || !tok.source.includes("\t")) continue;
    const name = /^%[0-9A-Za-z_-]*/.exec(tok.source)![0];
    const tab = tok.source.indexOf("\t");
    if (name === "%YAML" || name === "%TAG" || tab === name.length) {
      throw yamlError(
        "YAML_PARSE",
        "found a tab in a directive, where PyYAML separates with spaces only (while scanning a directive)",
        file,
        mark(lines, tok.offset + tab),
      );
    }
  }
}

/**
 * PyYAML wants white space or the end of the line right after a block scalar's indicators (`|#c` is "expected
 * chomping or indentation indicators, but found '#'"); libyaml, like the `yaml` package, takes the `#` for a comment.
 */
function checkBlockScalarHeader(
  tok: CST.BlockScalar,
  text: string,
  lines: LineIndex,
  file: string | undefined,
): void {
  const header = tok.props.find((t) => t.type === "block-scalar-header") as CST.SourceToken | undefined;
  if (header === undefined) return;
  const after = header.offset + header.source.length;
  if (text[after] !== "#") return;
  throw yamlError(
    "YAML_PARSE",
    "expected chomping or indentation indicators, but found '#' (while scanning a block scalar)",
    file,
    mark(lines, after),
  );
}

/**
 * libyaml refuses a `\u` or `\U` escape that names a surrogate (U+D800 to U+DFFF) or a code point past U+10FFFF
 * ("found invalid Unicode character escape code"), so JSON that escapes a character outside the Basic Multilingual
 * Plane as a surrogate pair (`"\ud83d\ude00"`, as `json.dumps` and Jinja's `tojson` write emoji) cannot be read
 * by Salt; PyYAML's own scanner takes the pair as two code points.
 */
function checkEscapedCodes(tok: CST.FlowScalar, lines: LineIndex, file: string | undefined): void {
  const source = tok.source;
  for (let i = source.indexOf("\\"); i >= 0; i = source.indexOf("\\", i + 2)) {
    const kind = source[i + 1];
    if (kind !== "u" && kind !== "U") continue;
    const digits = source.slice(i + 2, i + (kind === "u" ? 6 : 10));
    const code = /^[0-9A-Fa-f]+$/.test(digits) ? Number.parseInt(digits, 16) : 0;
    if ((code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) {
      throw yamlError(
        "YAML_PARSE",
        "found invalid Unicode character escape code (while parsing a quoted scalar)",
        file,
        mark(lines, tok.offset + i + 2),
      );
    }
  }
}

/**
 * A plain scalar inside a flow collection: `:` there always starts a value (so `[:a]` is an error in PyYAML and
 * libyaml), and PyYAML (not libyaml) ends a plain scalar at `?`, which can only begin a key. libyaml refuses a `:`
 * followed by `?` inside such a scalar (`[a:?b]`: "found unexpected ':'"), which PyYAML refuses for its `?`.
 */
function checkFlowPlain(
  tok: CST.FlowScalar,
  pyyaml: boolean,
  lines: LineIndex,
  file: string | undefined,
): void {
  if (!pyyaml) {
    const colon = tok.source.indexOf(":?");
    if (colon > 0) {
      throw yamlError(
        "YAML_PARSE",
        "found unexpected ':' (while scanning a plain scalar)",
        file,
        mark(lines, tok.offset + colon),
      );
    }
  }
  const question = pyyaml ? tok.source.indexOf("?") : -1;
  if (tok.source[0] !== ":" && question < 0) return;
  throw yamlError(
    "YAML_PARSE",
    `expected ',' or the end of the flow collection, but found '${tok.source[0] === ":" ? ":" : "?"}'`,
    file,
    mark(lines, tok.offset + (tok.source[0] === ":" ? 0 : question)),
  );
}

/**
 * libyaml refuses a tab in the indentation of a block scalar: before the content's indentation is known (a line
 * whose first non-space is a tab while it is being detected) and to the left of that indentation afterwards.
 */
function checkBlockScalarTabs(
  tok: CST.BlockScalar,
  text: string,
  lines: LineIndex,
  file: string | undefined,
): void {
  if (!tok.source.includes("\t")) return;
  const header = tok.props.find((t) => t.type === "block-scalar-header") as CST.SourceToken | undefined;
  const explicit = /[1-9]/.exec(header?.source ?? "");
  let indent = explicit === null ? 0 : Math.max(tok.indent, 0) + Number(explicit[0]);
  const start = text.indexOf("\n", tok.offset) + 1;
  if (start === 0) return;
  let pos = start;
  const end = tok.offset + (text.length - tok.offset);
  while (pos < end) {
    let lineEnd = text.indexOf("\n", pos);
    if (lineEnd < 0) lineEnd = text.length;
    let column = 0;
    while (text.charCodeAt(pos + column) === 32 && (indent === 0 || column < indent)) column++;
    const c = text[pos + column];
    if (c === "\t" && (indent === 0 || column < indent)) {
      throw yamlError(
        "YAML_PARSE",
        "found a tab character where an indentation space is expected (while scanning a block scalar)",
        file,
        mark(lines, pos + column),
      );
    }
    if (indent === 0 && pos + column < lineEnd && c !== "\r") {
      // The first line with content fixes the indentation; a less indented one ends the scalar.
      indent = column;
    } else if (indent > 0 && column < indent && pos + column < lineEnd && c !== "\r") {
      return;
    }
    pos = lineEnd + 1;
  }
}

/** Whether a scalar token must be read again from the original text, and how. */
function rereadKind(tok: CST.Token, separators: boolean): RereadKind | undefined {
  switch (tok.type) {
    case "scalar":
    case "single-quoted-scalar":
    case "double-quoted-scalar":
      return tok.source.includes("\n") || tok.source.includes("\r") ? tok.type : undefined;
    case "block-scalar":
      // A block scalar needs its LINE and PARAGRAPH SEPARATORs back, unfolded.
      return separators ? { block: tok.indent } : undefined;
    default:
      return undefined;
  }
}

/**
 * PyYAML's scanner does not check the indentation of a quoted scalar's continuation lines (only that none of them
 * starts with a document marker), so `a: 'x\ny'` is `{a: "x y"}`; the `yaml` package's lexer ends the scalar at
 * the first line indented no deeper than its parent. The parser's lexer gets this reading of quoted scalars
 * instead: the scalar runs to its closing quote, unless a line inside starts with `---` or `...` (then it ends
 * before that line, and the parser reports the missing quote).
 */
function* lexQuotedScalar(this: LexerInternals): Generator<string, string> {
  const buffer = this.buffer;
  const quote = buffer[this.pos]!;
  let end = buffer.indexOf(quote, this.pos + 1);
  if (quote === "'") {
    while (end !== -1 && buffer[end + 1] === "'") end = buffer.indexOf("'", end + 2);
  } else {
    while (end !== -1) {
      let backslashes = 0;
      while (buffer[end - 1 - backslashes] === "\\") backslashes++;
      if (backslashes % 2 === 0) break;
      end = buffer.indexOf('"', end + 1);
    }
  }
  const limit = end === -1 ? buffer.length : end;
  for (let nl = buffer.indexOf("\n", this.pos); nl !== -1 && nl < limit; nl = buffer.indexOf("\n", nl + 1)) {
    const marker = buffer.slice(nl + 1, nl + 4);
    const after = buffer[nl + 4];
    if ((marker === "---" || marker === "...") && (after === undefined || " \t\r\n".includes(after))) {
      end = nl - (buffer[nl - 1] === "\r" ? 2 : 1);
      break;
    }
  }
  if (end === -1) {
    if (!this.atEnd) return this.setNext("quoted-scalar");
    end = buffer.length;
  }
  yield* this.pushToIndex(end + 1, false);
  return this.flowLevel > 0 ? "flow" : "doc";
}

/** The parts of the `yaml` package's lexer that `lexQuotedScalar` uses (not in its typings). */
interface LexerInternals {
  readonly buffer: string;
  readonly pos: number;
  readonly atEnd: boolean;
  readonly flowLevel: number;
  indentNext: number;
  /** Whether a `:` right here is a value indicator in a flow collection even when no space follows it. */
  flowKey: boolean;
  setNext(state: string): string;
  pushToIndex(index: number, allowEmpty: boolean): Generator<string, number>;
  parseQuotedScalar: unknown;
  parseFlowCollection: (this: LexerInternals) => Generator<string, string>;
  pushUntil: (this: LexerInternals, test: (ch: string | undefined) => boolean) => Generator<string, number>;
  pushTag: (this: LexerInternals) => Generator<string, number>;
}

/**
 * Inside a flow collection PyYAML checks no indentation at all (`k: [a,\nb]` and `k: [x\ny]` are fine); the
 * `yaml` package's lexer ends the collection at a line indented no deeper than the block around it. While it reads
 * a flow collection it is told that the block around starts at column 0, where only `---` and `...` end things.
 */
function flowWithoutIndentation(
  original: (this: LexerInternals) => Generator<string, string>,
): (this: LexerInternals) => Generator<string, string> {
  return function* (this: LexerInternals) {
    const saved = this.indentNext;
    this.indentNext = 0;
    try {
      return yield* original.call(this);
    } finally {
      if (this.flowLevel > 0) this.indentNext = saved;
    }
  };
}

/**
 * PyYAML and libyaml end an anchor or alias name at the first character that is not an ASCII letter, digit, `-` or
 * `_`, and accept it when one of `AFTER_ANCHOR` follows: `&base:` is the anchor `base` on an empty key, `*a: 1` an
 * alias used as a key. The `yaml` package's lexer takes every character up to a space or flow indicator into the
 * name (`base:`), so anchors and aliases (the only names it reads with `pushUntil`) are cut where PyYAML cuts them;
 * a name followed by anything else is left whole, for `checkNames` to refuse.
 */
function anchorsAsPyyaml(
  original: (this: LexerInternals, test: (ch: string | undefined) => boolean) => Generator<string, number>,
): (this: LexerInternals, test: (ch: string | undefined) => boolean) => Generator<string, number> {
  return function* (this: LexerInternals, test) {
    const buffer = this.buffer;
    const first = buffer[this.pos];
    if (first === "&" || first === "*") {
      let end = this.pos + 1;
      while (end < buffer.length && ANCHOR_CHAR.test(buffer[end]!)) end++;
      const next = buffer[end];
      const n =
        end > this.pos + 1 && next !== undefined && AFTER_ANCHOR.includes(next) && !test(next)
          ? yield* this.pushToIndex(end, false)
          : yield* original.call(this, test);
      // A `:` right after an anchor or alias in a flow collection is the value indicator (see `tagsAsPyyaml`).
      if (this.flowLevel > 0) this.flowKey = true;
      return n;
    }
    return yield* original.call(this, test);
  };
}

/**
 * In a flow collection PyYAML and libyaml take a `:` that follows an anchor, alias or tag on its line for the
 * value indicator, space after it or not: `[&a:b]` is `[{null: b}]`, `[*a :b]` maps the alias's value to `b`. The
 * `yaml` package wants a space after such a `:` (else it starts a plain scalar), as it does after any plain node;
 * after these properties it is told, as after a quoted key, that a `:` is an indicator.
 */
function tagsAsPyyaml(
  original: (this: LexerInternals) => Generator<string, number>,
  flavor: YamlFlavor,
): (this: LexerInternals) => Generator<string, number> {
  return function* (this: LexerInternals) {
    const buffer = this.buffer;
    const n =
      flavor === "pyyaml" && buffer[this.pos + 1] !== "<"
        ? yield* this.pushToIndex(tagEnd(buffer, this.pos + 1), false)
        : yield* original.call(this);
    if (this.flowLevel > 0) this.flowKey = true;
    return n;
  };
}

/**
 * The characters the `yaml` package's lexer takes into a tag, and `,`, `[` and `]`, which PyYAML's scanner takes
 * as URI characters too, even in a flow collection (`[!!b]ool x]` is the tag `tag:yaml.org,2002:b]ool` on `x`).
 * libyaml ends a tag before them, as the `yaml` package does.
 */
const PYYAML_TAG_CHAR = /[0-9A-Za-z\-#;/?:@&=+$_.!~*'(),[\]]/;

/** Where a tag that is not verbatim ends, from `from` (after its `!`), for PyYAML: `%XX` escapes included. */
function tagEnd(buffer: string, from: number): number {
  let i = from;
  for (;;) {
    const ch = buffer[i];
    if (ch === undefined) return i;
    if (PYYAML_TAG_CHAR.test(ch)) i++;
    else if (ch === "%" && HEX_DIGIT.test(buffer[i + 1] ?? "") && HEX_DIGIT.test(buffer[i + 2] ?? "")) i += 3;
    else return i;
  }
}

const HEX_DIGIT = /[0-9A-Fa-f]/;

/** A `yaml` parser whose lexer reads quoted scalars as PyYAML does. */
function pyyamlParser(onNewLine: (offset: number) => void, flavor: YamlFlavor): Parser {
  const parser = new (yamlLibrary().Parser)(onNewLine);
  const lexer = (parser as unknown as { lexer: LexerInternals }).lexer;
  if (
    typeof lexer?.parseQuotedScalar !== "function" ||
    typeof lexer.parseFlowCollection !== "function" ||
    typeof lexer.pushUntil !== "function" ||
    typeof lexer.pushTag !== "function"
  ) {
    throw new Error("@merge/yaml: the yaml package's lexer has changed; quoted scalars cannot be read");
  }
  lexer.parseQuotedScalar = lexQuotedScalar;
  lexer.parseFlowCollection = flowWithoutIndentation(lexer.parseFlowCollection);
  lexer.pushUntil = anchorsAsPyyaml(lexer.pushUntil);
  lexer.pushTag = tagsAsPyyaml(lexer.pushTag, flavor);
  return parser;
}

/**
 * Deeply nested flow collections (`[[[[...`) and same-line block sequences (`- - - - x`) make the syntax tree
 * builder slow long before the depth check could see them, so when the text looks suspect the lexer (which knows
 * when `[` or `-` is an indicator) measures that nesting first and stops at the limit.
 */
export function checkLexicalDepth(text: string, maxDepth: number, file: string | undefined): void {
  let brackets = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 91 || c === 123) brackets++;
  }
  if (brackets <= maxDepth && !text.includes("- - - - - - - - ")) return;
  let depth = 0;
  let lineDepth = 0;
  let offset = 0;
  let scalarNext = false;
  for (const lexeme of new (yamlLibrary().Lexer)().lex(text)) {
    if (scalarNext) scalarNext = false;
    else if (lexeme === "[" || lexeme === "{") depth++;
    else if (lexeme === "]" || lexeme === "}") depth--;
    else if (lexeme === "-" || lexeme === "?") lineDepth++;
    else if (lexeme === "\n" || lexeme === "\r\n") lineDepth = 0;
    else if (lexeme === "\x1f") scalarNext = true;
    if (depth + lineDepth > maxDepth) {
      const lines = new LineIndex();
      lines.addNewLine(0);
      for (let i = text.indexOf("\n"); i >= 0 && i < offset; i = text.indexOf("\n", i + 1))
        lines.addNewLine(i + 1);
      throw yamlError(
        "DEPTH_LIMIT",
        `collections nested deeper than ${maxDepth} levels`,
        file,
        mark(lines, offset),
      );
    }
    // The lexer's control lexemes (document start, flow end, scalar) carry no source text.
    if (lexeme !== "\x02" && lexeme !== "\x18" && lexeme !== "\x1f") offset += lexeme.length;
  }
}

/**
 * Stream-level rules PyYAML enforces and the yaml package lets pass: a directive needs a well-formed name and must
 * be followed by `---`; a document cannot start with `...`.
 */
function checkDocumentMarkers(
  tokens: readonly CST.Token[],
  lines: LineIndex,
  file: string | undefined,
): void {
  let pendingDirective: CST.Token | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i]!;
    if (tok.type === "directive") {
      if (!/^%[0-9A-Za-z_-]+(?:[ \t]|$)/.test(tok.source)) {
        throw yamlError(
          "YAML_PARSE",
          "expected alphabetic or numeric character (while scanning a directive)",
          file,
          mark(lines, tok.offset),
        );
      }
      pendingDirective ??= tok;
    } else if (tok.type === "document") {
      const explicit = tok.start.some((t) => t.type === "doc-start");
      if (pendingDirective !== undefined && !explicit) {
        throw yamlError(
          "YAML_PARSE",
          "expected '<document start>' after a directive",
          file,
          mark(lines, tok.offset),
        );
      }
      pendingDirective = undefined;
      // `...` with nothing before it in the stream: PyYAML expected node content there.
      if (
        !explicit &&
        tok.value === undefined &&
        tokens[i + 1]?.type === "doc-end" &&
        i === firstContent(tokens)
      ) {
        throw yamlError(
          "YAML_PARSE",
          "expected the node content, but found '<document end>' (while parsing a block node)",
          file,
          mark(lines, tokens[i + 1]!.offset),
        );
      }
    }
  }
  if (pendingDirective !== undefined) {
    throw yamlError(
      "YAML_PARSE",
      "expected '<document start>', but found '<stream end>'",
      file,
      mark(lines, pendingDirective.offset),
    );
  }
}

function firstContent(tokens: readonly CST.Token[]): number {
  return tokens.findIndex(
    (t) => t.type !== "comment" && t.type !== "newline" && t.type !== "space" && t.type !== "byte-order-mark",
  );
}

/** The text as the scanner reads it: decoded, without a byte-order mark, every line break a `\n` (same length). */
interface Readable {
  readonly text: string;
  readonly original: string;
  readonly separators: boolean;
}

function readable(input: string | Uint8Array, file: string | undefined): Readable {
  let text = decode(input, file);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const original = text;
  // YAML 1.1 (PyYAML, libyaml) also ends lines at NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR; the parser knows
  // only YAML 1.2's breaks, so they are handed to it as newlines (same length, so positions stay right). Scalars
  // that span lines are read again from the original text (where LS and PS are kept, see fold.ts).
  const separators = YAML11_BREAKS.test(text);
  if (separators) text = text.replace(YAML11_BREAKS_ALL, "\n");
  // A carriage return alone also ends a line (old Mac files); the parser only knows it before a line feed.
  if (text.includes("\r")) text = text.replace(LONE_CR, "\n");
  const bad = NON_PRINTABLE.exec(text);
  if (bad !== null) {
    const code = bad[0].codePointAt(0)!.toString(16).padStart(4, "0");
    const lines = new LineIndex();
    lines.addNewLine(0);
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) lines.addNewLine(i + 1);
    throw yamlError(
      "YAML_PARSE",
      `unacceptable character #x${code}: special characters are not allowed`,
      file,
      mark(lines, bad.index),
    );
  }
  return { text, original, separators };
}

function prepare(source: Readable, options: LoadYamlOptions): Prepared {
  const file = options.filename;
  const { text, original, separators } = source;
  const lines = new LineIndex();
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const fast = fastParse(text, maxDepth);
  // The fast path knows an upper bound of the nesting the lexical check measures: only a text that might exceed
  // the limit pays for the lexer (which costs as much as the fast path itself on a large flow document).
  if (fast === undefined || fast.lexicalDepth > maxDepth) checkLexicalDepth(text, maxDepth, file);
  if (fast !== undefined) {
    for (const start of fast.lineStarts) lines.addNewLine(start);
    return {
      text,
      lines,
      docs: fast.root === null ? [] : [{ contents: fast.root, errors: [], range: [0, 0, 0] }],
      reread: undefined,
    };
  }
  const tokens: CST.Token[] = Array.from(
    pyyamlParser(lines.addNewLine, options.flavor ?? "pyyaml").parse(text),
  );
  const tabs: TabRule = !text.includes("\t")
    ? "none"
    : (options.flavor ?? "pyyaml") === "pyyaml"
      ? "pyyaml"
      : "libyaml";
  const reread = new Map<number, RereadKind>();
  const flavor = options.flavor ?? "pyyaml";
  for (const token of tokens) checkTree(token, maxDepth, tabs, text, lines, file, reread, separators, flavor);
  checkDirectives(tokens, flavor, lines, file);
  if (tabs === "libyaml") {
    // Before the first document libyaml still expects a simple key, so it refuses any tab in white space there,
    // except on a directive's line, whose separators it scans as blanks (spaces or tabs).
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!;
      if (token.type === "document") break;
      if (token.type === "space" && token.source.includes("\t") && tokens[i - 1]?.type !== "directive") {
        tabError(token.offset + token.source.indexOf("\t"), lines, file);
      }
    }
  } else if (tabs === "pyyaml") checkDirectiveTabs(tokens, lines, file);
  checkDocumentMarkers(tokens, lines, file);
  const composer = new (yamlLibrary().Composer)({
    version: "1.1",
    schema: "failsafe",
    uniqueKeys: false,
    merge: false,
  });
  const docs: ParsedDoc[] = Array.from(composer.compose(withoutRepeatedEnds(tokens)));
  return { text, lines, docs, reread: reread.size === 0 ? undefined : { original, kinds: reread } };
}

/**
 * PyYAML and libyaml skip a `...` that follows another `...` (with only comments and blank lines between): the
 * stream `a\n...\n...\n` is one document. The `yaml` package opens an empty document before each further `...`,
 * which `loadYaml` would refuse as a second document: such empty documents and their `...` are left out.
 */
function withoutRepeatedEnds(tokens: CST.Token[]): CST.Token[] {
  let out: CST.Token[] | undefined;
  let afterEnd = false;
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i]!;
    if (
      afterEnd &&
      tok.type === "document" &&
      tok.start.length === 0 &&
      tok.value === undefined &&
      tokens[i + 1]?.type === "doc-end"
    ) {
      out ??= tokens.slice(0, i);
      i++;
      continue;
    }
    out?.push(tok);
    if (tok.type !== "comment" && tok.type !== "newline" && tok.type !== "space")
      afterEnd = tok.type === "doc-end";
  }
  return out ?? tokens;
}

/** Whether `offset` is right after an anchor's name, where PyYAML lets `:` and the other `AFTER_ANCHOR` follow. */
function afterAnchorName(text: string, offset: number): boolean {
  let start = offset;
  while (start > 0 && ANCHOR_CHAR.test(text[start - 1]!)) start--;
  return start < offset && text[start - 1] === "&" && AFTER_ANCHOR.includes(text[offset] ?? " ");
}

function syntaxError(doc: ParsedDoc, prepared: Prepared, file: string | undefined): void {
  // PyYAML starts a comment at any `#` met between tokens (`"d"# c`); the yaml package wants white space first.
  // It also ends an anchor's name before `:` (`&base:` anchors an empty key), where the yaml package wants a space.
  const first = doc.errors.find(
    (e) =>
      !(
        e.code === "MISSING_CHAR" &&
        (e.message.startsWith("Comments must be separated") ||
          (e.message.startsWith("Tags and anchors must be separated") &&
            afterAnchorName(prepared.text, e.pos[0])))
      ),
  );
  const lines = prepared.lines;
  if (first === undefined) return;
  // The yaml package reports its own stack exhaustion; it is a nesting problem for the user.
  const code: YamlErrorCode = first.code === "RESOURCE_EXHAUSTION" ? "DEPTH_LIMIT" : "YAML_PARSE";
  const message = first.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
  throw yamlError(code, message, file, mark(lines, first.pos[0]), first);
}

function constructDocument(
  doc: ParsedDoc,
  prepared: Prepared,
  options: LoadYamlOptions,
  track: boolean,
  index: number,
): { value: unknown; pos: BuiltPosition | undefined } {
  syntaxError(doc, prepared, options.filename);
  // Read only once a construction error is thrown: PyYAML's node starts, found by reading the text again.
  let starts: ScanMark[] | undefined | null = null;
  const markOf = (node: object, emptyValue: boolean): YamlMark | undefined => {
    const { number, count } = nodeNumber(doc.contents, node, emptyValue);
    if (number === undefined) return undefined;
    if (starts === null) starts = nodeStarts(prepared.text, options.flavor === "salt", index);
    // The same count of nodes on both sides, or the trees are not the same and nothing is said.
    const at = starts?.length === count ? starts[number] : undefined;
    return at === undefined ? undefined : { line: at.line + 1, column: at.column + 1, offset: at.offset };
  };
  const ctor = new YamlConstructor({
    flavor: options.flavor ?? "pyyaml",
    file: options.filename,
    maxNodes: options.maxNodes ?? DEFAULT_MAX_NODES,
    mappings: options.values === "exact" || options.mappings === "map" ? "exact" : "object",
    keepFloats: options.values === "exact" || options.keepFloats === true,
    lines: prepared.lines,
    track,
    hasAnchors: prepared.text.includes("&"),
    mayMerge: prepared.text.includes("<<") || prepared.text.includes("!"),
    openEnd: /[\n\r]$/.test(prepared.text) ? undefined : prepared.text.length,
    text: prepared.text,
    reread: prepared.reread,
    markOf,
  });
  return ctor.document(doc.contents);
}

/**
 * Reads one YAML document as PyYAML's `safe_load` (flavour `pyyaml`) or Salt's loader (flavour `salt`) does:
 * empty text gives null, several documents are an error. Throws a `MergeError` with a code and a 1-based position.
 */
export function loadYaml(input: string | Uint8Array, options: LoadYamlOptions = {}): unknown {
  return loadSingle(input, options, false).value;
}

function loadSingle(
  input: string | Uint8Array,
  options: LoadYamlOptions,
  track: boolean,
): { value: unknown; pos: BuiltPosition | undefined } {
  const source = readable(input, options.filename);
  try {
    return loadPrepared(prepare(source, options), options, track);
  } catch (error) {
    throw atPyyamlMark(error, source.text, options, true);
  }
}

function loadPrepared(
  prepared: Prepared,
  options: LoadYamlOptions,
  track: boolean,
): { value: unknown; pos: BuiltPosition | undefined } {
  const [first, second] = prepared.docs;
  if (first === undefined) return { value: null, pos: undefined };
  syntaxError(first, prepared, options.filename);
  if (second !== undefined) {
    throw yamlError(
      "YAML_PARSE",
      "expected a single document in the stream, but found another document",
      options.filename,
      mark(prepared.lines, second.range[0]),
    );
  }
  return constructDocument(first, prepared, options, track, 0);
}

/** Reads every document of a stream (`yaml.safe_load_all`); an empty stream gives `[]`. */
export function loadYamlAll(input: string | Uint8Array, options: LoadYamlOptions = {}): unknown[] {
  const source = readable(input, options.filename);
  try {
    const prepared = prepare(source, options);
    return prepared.docs.map((doc, index) => constructDocument(doc, prepared, options, false, index).value);
  } catch (error) {
    throw atPyyamlMark(error, source.text, options, false);
  }
}

/**
 * A syntax error is reported where PyYAML (Salt: libyaml) reports it. The `yaml` package notices a problem where
 * its own grammar fails, often at the start of a key whose `:` PyYAML refuses, or at the end of what it read; the
 * re-reading in mark-parser.ts finds PyYAML's first problem and its `problem_mark`, and the error moves there (code
 * and message stay ours). A construction error (a bad key, tag or repeated key) met while PyYAML would already
 * have stopped on a syntax or anchor problem, as PyYAML composes the whole document before it constructs, becomes
 * that `YAML_PARSE` error. When the re-reading meets no problem, the error is left as it is.
 */
function atPyyamlMark(error: unknown, text: string, options: LoadYamlOptions, single: boolean): unknown {
  if (!isMergeError(error) || !REMARKED.has(error.code) || error.source?.line === undefined) return error;
  let problem: ReturnType<typeof firstProblem>;
  try {
    problem = firstProblem(text, { libyaml: options.flavor === "salt", single });
  } catch {
    // The re-reading only places an error: should it fail itself, the error stays as the loader made it.
    return error;
  }
  if (problem === undefined) return error;
  const at = { line: problem.mark.line + 1, column: problem.mark.column + 1, offset: problem.mark.offset };
  if (error.code !== "YAML_PARSE")
    return yamlError("YAML_PARSE", problem.problem, options.filename, at, error);
  // The syntax error the yaml package met lies after an anchor problem PyYAML meets first: name that problem.
  if (problem.composing && !COMPOSING.test(error.message))
    return yamlError("YAML_PARSE", problem.problem, options.filename, at, error);
  error.source = { ...error.source, ...at };
  return error;
}

/** Our messages for the composer's problems (see construct.ts and `loadSingle`). */
const COMPOSING =
  /^(found undefined alias|found duplicate anchor|found recursive alias|expected a single document)/;

/** The errors PyYAML may meet later than a syntax problem: syntax errors, then construction errors. */
const REMARKED = new Set(["YAML_PARSE", "YAML_KEY", "YAML_TAG", "YAML_DUPLICATE_KEY"]);

/** `loadYaml` plus the line and column of every key and item, for provenance (`file:line`). */
export function loadYamlWithPositions(
  input: string | Uint8Array,
  options: LoadYamlOptions = {},
): YamlWithPositions {
  const { value, pos } = loadSingle(input, options, true);
  return {
    value,
    positionOf(path) {
      let at = pos;
      for (const step of path) {
        if (at === undefined) return undefined;
        at = at.items !== undefined ? at.items[step as number] : at.keys?.get(keyIdentity(step));
      }
      return at === undefined ? undefined : { line: at.line, column: at.column };
    },
  };
}
