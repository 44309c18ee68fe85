import { yamlError } from "./errors.js";
import { analyzeScalar, toChars } from "./analyze.js";
import { Emitter, writeDoubleQuoted, writeSingleQuoted } from "./emit.js";
import { Representer } from "./represent.js";
import { resolvePlain, TAG } from "./resolver.js";

export interface ScalarStyleOptions {
  /** The string sits inside a flow collection (`[...]`, `{...}`), where `,[]{}:` also need quotes. */
  readonly flow?: boolean;
  /** The string is a mapping key. */
  readonly key?: boolean;
  /** Printable non-ASCII characters may stay as they are (`allow_unicode`); otherwise they force double quotes. */
  readonly allowUnicode?: boolean;
  /** Follow libyaml, where characters outside the Basic Multilingual Plane force double quotes. */
  readonly libyaml?: boolean;
}

/**
 * How PyYAML writes a string: `plain` when it reads back as the same string, `single` when quoting is needed
 * (`'yes'`, `'123'`, `'12:30'`, `''`, `'<<'`, leading indicators, `: ` or ` #` inside), `double` when only
 * escapes can carry it (tabs, control characters, trailing spaces after a break...).
 */
export function yamlScalarStyle(
  text: string,
  options: ScalarStyleOptions = {},
): "plain" | "single" | "double" {
  const analysis = analyzeScalar(text, {
    allowUnicode: options.allowUnicode ?? false,
    libyaml: options.libyaml ?? false,
  });
  const implicit = resolvePlain(text) === TAG.str;
  const key = options.key ?? false;
  if (implicit && !(key && (analysis.empty || analysis.multiline))) {
    if (options.flow ? analysis.allowFlowPlain : analysis.allowBlockPlain) return "plain";
  }
  if (analysis.allowSingleQuoted && !(key && analysis.multiline)) return "single";
  return "double";
}

function withEmitter(write: (e: Emitter) => void, allowUnicode: boolean): string {
  const e = new Emitter(
    {
      indent: 2,
      width: Number.MAX_SAFE_INTEGER,
      allowUnicode,
      libyaml: false,
      explicitStart: false,
      explicitEnd: false,
    },
    new Map(),
  );
  write(e);
  return e.out;
}

/**
 * Salt's `yaml_dquote` filter: the text as a YAML double-quoted string, escapes included, never wrapped
 * (non-ASCII characters escaped unless `allowUnicode`).
 */
export function yamlDoubleQuote(text: string, options: { allowUnicode?: boolean } = {}): string {
  const allowUnicode = options.allowUnicode ?? false;
  return withEmitter((e) => writeDoubleQuoted(e, toChars(text), false, allowUnicode), allowUnicode);
}

/** Salt's `yaml_squote` filter: the text as a YAML single-quoted string (`'` doubled, a newline as a blank line). */
export function yamlSingleQuote(text: string): string {
  return withEmitter((e) => writeSingleQuoted(e, toChars(text), false), false);
}

/**
 * Salt's `yaml_encode` filter: a scalar as YAML text — strings double-quoted, other scalars as PyYAML represents
 * them (`true`, `1`, `1.5`, `null`). Collections are a `YAML_DUMP` error.
 */
export function yamlEncode(value: unknown): string {
  const node = new Representer({
    flowStyle: null,
    sortKeys: false,
    aliases: false,
    undefinedAs: "error",
    maxDepth: 1,
  }).represent(value);
  if (node.kind !== "scalar") {
    throw yamlError("YAML_DUMP", "yaml_encode only works with YAML scalar data", undefined, undefined);
  }
  return node.tag === TAG.str ? yamlDoubleQuote(node.value) : node.value;
}
