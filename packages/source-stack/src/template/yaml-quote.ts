// Salt's yaml_dquote / yaml_squote / yaml_encode filters: PyYAML's emitter quoting a single scalar (default
// emitter: ASCII output, no line width).
import { TemplateProblem } from "./errors.js";
import { floatRepr, isSafeString, pyStr, pyTypeName } from "./pyvalues.js";

const DQ_ESCAPES: Record<string, string> = {
  "\0": "0",
  "\x07": "a",
  "\x08": "b",
  "\x09": "t",
  "\x0A": "n",
  "\x0B": "v",
  "\x0C": "f",
  "\x0D": "r",
  "\x1B": "e",
  '"': '"',
  "\\": "\\",
  "\x85": "N",
  "\xA0": "_",
  "\u2028": "L",
  "\u2029": "P",
};

/** PyYAML `Emitter.write_double_quoted` with `allow_unicode=False`. */
export function yamlDquote(text: string): string {
  let out = '"';
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    const plain = cp >= 0x20 && cp <= 0x7e && ch !== '"' && ch !== "\\";
    if (plain) {
      out += ch;
      continue;
    }
    const esc = DQ_ESCAPES[ch];
    if (esc !== undefined) out += `\\${esc}`;
    else if (cp <= 0xff) out += `\\x${cp.toString(16).toUpperCase().padStart(2, "0")}`;
    else if (cp <= 0xffff) out += `\\u${cp.toString(16).toUpperCase().padStart(4, "0")}`;
    else out += `\\U${cp.toString(16).toUpperCase().padStart(8, "0")}`;
  }
  return `${out}"`;
}

const BREAKS = "\n\x85\u2028\u2029";

/** PyYAML `Emitter.write_single_quoted` at indentation 0: quotes doubled, a line break written twice. */
export function yamlSquote(text: string): string {
  let out = "'";
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (BREAKS.includes(ch)) {
      let j = i;
      while (j < text.length && BREAKS.includes(text[j] as string)) j++;
      if (ch === "\n") out += "\n";
      for (let k = i; k < j; k++) out += text[k] === "\n" ? "\n" : (text[k] as string);
      i = j;
      continue;
    }
    out += ch === "'" ? "''" : ch;
    i++;
  }
  return `${out}'`;
}

/** `yaml_encode`: a scalar as PyYAML's SafeRepresenter writes it; strings double-quoted. */
export function yamlEncode(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number") {
    if (Number.isInteger(value) && !Object.is(value, -0)) return String(value);
    if (Number.isNaN(value)) return ".nan";
    if (!Number.isFinite(value)) return value > 0 ? ".inf" : "-.inf";
    let r = floatRepr(value).toLowerCase();
    if (!r.includes(".") && r.includes("e")) r = r.replace("e", ".0e");
    return r;
  }
  if (typeof value === "string" || isSafeString(value)) return yamlDquote(pyStr(value));
  throw new TemplateProblem(
    `TypeError: yaml_encode() only works with YAML scalar data; failed for ${pyTypeName(value)}`,
  );
}
