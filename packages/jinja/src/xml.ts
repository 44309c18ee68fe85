// Salt's `|xml` filter (SerializerExtension.format_xml): a value becomes an ElementTree, which is written with
// ElementTree's `tostring` (ASCII, non-ASCII as character references), read back by minidom and printed with
// `toprettyxml(indent=" ")`. We build the same tree and print what that round trip prints, including its quirks:
// - a mapping's scalar entries become attributes (`str()` of the value), its mappings and lists child elements;
// - a list repeats its key's element once per item (a list of strings must hold strings of two or more
//   characters, and an empty list fails, as Salt indexes `value[0]` and `item[1]`);
// - at the top level only the last element survives (Salt returns the last element it made);
// - a scalar becomes the element's text (`True`, `1.5`); `None` fails;
// - what the XML parser refuses fails: a name that is not an ASCII XML name (ElementTree writes `é` as `&#233;`),
//   an unbound namespace prefix, a character XML cannot hold (`\x01`, U+FFFE); carriage returns in text become
//   line feeds, in attributes they stay.
import { TemplateProblem, typeError } from "./errors.js";
import { textOf } from "./operators.js";
import { isDict, markSafe, PyTuple, pyStr, pyTypeName } from "./pyvalues.js";

interface XmlElement {
  readonly tag: string;
  attrs: [string, string][];
  text: string | undefined;
  readonly children: XmlElement[];
}

function notXml(): TemplateProblem {
  return new TemplateProblem("Value is not a dict or list. Cannot render as XML");
}

/** Salt's `normalize_iter`: a mapping's items, a list that starts with a string itself, or nothing. */
function normalize(value: unknown): readonly unknown[] {
  if (Array.isArray(value)) {
    if (value.length === 0) throw new TemplateProblem("IndexError: list index out of range");
    return textOf(value[0]) !== undefined ? value : [];
  }
  if (isDict(value)) return Object.keys(value).map((k) => PyTuple.from2<unknown>(k, value[k]));
  throw notXml();
}

/** `for tag, attrs in items`: each item unpacked into two (a string of two characters unpacks too). */
function unpack(item: unknown): [unknown, unknown] {
  const text = textOf(item);
  const parts =
    text !== undefined
      ? Array.from(text)
      : Array.isArray(item)
        ? item
        : isDict(item)
          ? Object.keys(item)
          : undefined;
  if (parts === undefined) throw typeError(`cannot unpack non-iterable ${pyTypeName(item)} object`);
  if (parts.length !== 2) {
    throw new TemplateProblem(
      parts.length > 2
        ? "ValueError: too many values to unpack (expected 2)"
        : `ValueError: not enough values to unpack (expected 2, got ${parts.length})`,
    );
  }
  return [parts[0], parts[1]];
}

/** `item[1]` of an item Salt looks at to find child elements, with Python's errors. */
function second(item: unknown): unknown {
  const text = textOf(item);
  if (text !== undefined) {
    const chars = Array.from(text);
    if (chars.length < 2) throw new TemplateProblem("IndexError: string index out of range");
    return chars[1];
  }
  if (Array.isArray(item)) {
    if (item.length < 2)
      throw new TemplateProblem(
        `IndexError: ${item instanceof PyTuple ? "tuple" : "list"} index out of range`,
      );
    return item[1];
  }
  // A mapping is indexed by the integer 1, a key our text-keyed mappings never hold.
  if (isDict(item)) throw new TemplateProblem("KeyError: 1");
  throw typeError(`'${pyTypeName(item)}' object is not subscriptable`);
}

const isList = (v: unknown): v is unknown[] => Array.isArray(v) && !(v instanceof PyTuple);
const isScalar = (v: unknown) =>
  textOf(v) !== undefined || typeof v === "number" || typeof v === "bigint" || typeof v === "boolean";

/** Salt's `recurse_tree`: adds the elements of `items` under `parent` and returns the last one it made. */
function build(items: readonly unknown[], parent: XmlElement | undefined): XmlElement | undefined {
  let made: XmlElement | undefined;
  for (const item of items) {
    const [tag, value] = unpack(item);
    if (isList(value)) {
      for (const each of value) build([PyTuple.from2(tag, each)], parent);
    } else {
      const name = textOf(tag);
      if (name === undefined) throw typeError(`cannot serialize ${pyStr(tag)} (type ${pyTypeName(tag)})`);
      made = { tag: name, attrs: [], text: undefined, children: [] };
      parent?.children.push(made);
    }
    if (isScalar(value)) {
      (made as XmlElement).text = pyStr(value);
      continue;
    }
    if (isDict(value)) {
      (made as XmlElement).attrs = Object.keys(value)
        .filter((k) => !isDict(value[k]) && !isList(value[k]))
        .map((k) => [k, pyStr(value[k])]);
    }
    for (const child of normalize(value)) {
      const v = second(child);
      if (isDict(v) || isList(v)) build([PyTuple.from2(unpack(child)[0], v)], made);
    }
  }
  return made;
}

// What survives ElementTree's ASCII output and the XML parser: names of ASCII name characters, text of XML
// characters.
const NAME = /^[A-Za-z_:][A-Za-z0-9_:.-]*$/;
const NOT_XML_CHAR =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters XML 1.0 cannot hold.
  /[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function parseError(what: string): TemplateProblem {
  return new TemplateProblem(`ExpatError: ${what}`);
}

function checkName(name: string, scope: ReadonlySet<string>): void {
  if (!NAME.test(name)) throw parseError("not well-formed (invalid token)");
  const colon = name.indexOf(":");
  if (colon === -1) return;
  const prefix = name.slice(0, colon);
  if (prefix === "" || name.indexOf(":", colon + 1) !== -1 || colon === name.length - 1)
    throw parseError("not well-formed (invalid token)");
  if (prefix !== "xml" && prefix !== "xmlns" && !scope.has(prefix)) throw parseError("unbound prefix");
}

function checkText(text: string): void {
  if (NOT_XML_CHAR.test(text)) throw parseError("not well-formed (invalid token)");
}

/** minidom's `_write_data`. */
function escapeData(text: string): string {
  return text.replace(/[&<>"]/g, (c) =>
    c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : "&quot;",
  );
}

function write(el: XmlElement, indent: string, scope: ReadonlySet<string>, out: string[]): void {
  const inner = new Set(scope);
  for (const [k] of el.attrs) if (k.startsWith("xmlns:")) inner.add(k.slice(6));
  checkName(el.tag, inner);
  out.push(`${indent}<${el.tag}`);
  for (const [k, v] of el.attrs) {
    checkName(k, inner);
    checkText(v);
    out.push(` ${k}="${escapeData(v)}"`);
  }
  if (el.text !== undefined && el.text !== "") {
    checkText(el.text);
    // The XML parser turns a carriage return (alone or before a line feed) in text into a line feed.
    out.push(`>${escapeData(el.text.replace(/\r\n?/g, "\n"))}</${el.tag}>\n`);
  } else if (el.children.length > 0) {
    out.push(">\n");
    for (const child of el.children) write(child, `${indent} `, inner, out);
    out.push(`${indent}</${el.tag}>\n`);
  } else out.push("/>\n");
}

/** `value|xml`. */
export function saltXml(value: unknown): unknown {
  const root = build(normalize(value), undefined);
  if (root === undefined)
    throw new TemplateProblem("AttributeError: 'NoneType' object has no attribute 'iter'");
  const out = ['<?xml version="1.0" ?>\n'];
  write(root, "", new Set(), out);
  return markSafe(out.join(""));
}
