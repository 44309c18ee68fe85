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
import { getItem, hasItem, isMapping, mappingKeys } from "@merge/core";
import { TemplateProblem, typeError } from "./errors.js";
import { isNumber } from "./numbers.js";
import { textOf } from "./operators.js";
import { markSafe, PyTuple, pyRepr, pyStr, pyTypeName } from "./pyvalues.js";

interface XmlElement {
  /** The mapping key it was made from: text, `null` (None, an element ElementTree writes without tags) or other. */
  readonly tag: unknown;
  attrs: [unknown, string][];
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
  if (isMapping(value)) return mappingKeys(value).map((k) => PyTuple.from2<unknown>(k, getItem(value, k)));
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
        : isMapping(item)
          ? mappingKeys(item)
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
  // A mapping is indexed by the int 1.
  if (isMapping(item)) {
    if (hasItem(item, 1)) return getItem(item, 1);
    throw new TemplateProblem("KeyError: 1");
  }
  throw typeError(`'${pyTypeName(item)}' object is not subscriptable`);
}

const isList = (v: unknown): v is unknown[] => Array.isArray(v) && !(v instanceof PyTuple);
const isScalar = (v: unknown) => textOf(v) !== undefined || isNumber(v);

/** Salt's `recurse_tree`: adds the elements of `items` under `parent` and returns the last one it made. */
function build(items: readonly unknown[], parent: XmlElement | undefined): XmlElement | undefined {
  let made: XmlElement | undefined;
  for (const item of items) {
    const [tag, value] = unpack(item);
    if (isList(value)) {
      for (const each of value) build([PyTuple.from2(tag, each)], parent);
    } else {
      made = { tag: textOf(tag) ?? tag, attrs: [], text: undefined, children: [] };
      parent?.children.push(made);
    }
    if (isScalar(value)) {
      (made as XmlElement).text = pyStr(value);
      continue;
    }
    if (isMapping(value)) {
      (made as XmlElement).attrs = mappingKeys(value)
        .filter((k) => !isMapping(getItem(value, k)) && !isList(getItem(value, k)))
        .map((k) => [textOf(k) ?? k, pyStr(getItem(value, k))]);
    }
    for (const child of normalize(value)) {
      const v = second(child);
      if (isMapping(v) || isList(v)) build([PyTuple.from2(unpack(child)[0], v)], made);
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

/**
 * ElementTree's check before it writes anything (`_namespaces`), element by element, tag then attribute names: a
 * tag or name that is not text cannot be serialized (named by its `repr()`, as its `%r` names it: an undefined key
 * is `Undefined`), except None (a tag ElementTree leaves out, an attribute name it writes as `None`).
 */
function checkTypes(el: XmlElement): void {
  if (el.tag !== null && typeof el.tag !== "string")
    throw typeError(`cannot serialize ${pyRepr(el.tag)} (type ${pyTypeName(el.tag)})`);
  for (const [k] of el.attrs)
    if (k !== null && typeof k !== "string")
      throw typeError(`cannot serialize ${pyRepr(k)} (type ${pyTypeName(k)})`);
  for (const child of el.children) checkTypes(child);
}

/** What an element holds once parsed back: its text, then its children, a None-tagged child's content in its place. */
function contentOf(el: XmlElement): (XmlElement | string)[] {
  const out: (XmlElement | string)[] = [];
  if (el.text !== undefined && el.text !== "") out.push(el.text);
  for (const child of el.children) {
    if (child.tag === null) out.push(...contentOf(child));
    else out.push(child);
  }
  return out;
}

/** The XML parser turns a carriage return (alone or before a line feed) in text into a line feed. */
function textData(text: string): string {
  checkText(text);
  return escapeData(text.replace(/\r\n?/g, "\n"));
}

/**
 * A tag or attribute name as the parser reads it back: ElementTree writes names as they are, and white space after
 * one (`<a >`, `b ="1"`) is only space between tokens to the parser.
 */
function parsedName(name: string): string {
  return name.replace(/[ \t\n\r]+$/, "");
}

function write(el: XmlElement, indent: string, scope: ReadonlySet<string>, out: string[]): void {
  const tag = parsedName(el.tag as string);
  const inner = new Set(scope);
  const attrs = el.attrs.map(([k, v]) => [k === null ? "None" : parsedName(k as string), v] as const);
  for (const [k] of attrs) if (k.startsWith("xmlns:")) inner.add(k.slice(6));
  checkName(tag, inner);
  out.push(`${indent}<${tag}`);
  for (const [k, v] of attrs) {
    checkName(k, inner);
    checkText(v);
    out.push(` ${k}="${escapeData(v)}"`);
  }
  const content = contentOf(el);
  const only = content[0];
  if (content.length === 1 && typeof only === "string") out.push(`>${textData(only)}</${tag}>\n`);
  else if (content.length > 0) {
    out.push(">\n");
    for (const node of content) {
      if (typeof node === "string") out.push(`${indent} ${textData(node)}\n`);
      else write(node, `${indent} `, inner, out);
    }
    out.push(`${indent}</${tag}>\n`);
  } else out.push("/>\n");
}

/** `value|xml`. */
export function saltXml(value: unknown): unknown {
  const made = build(normalize(value), undefined);
  if (made === undefined)
    throw new TemplateProblem("AttributeError: 'NoneType' object has no attribute 'iter'");
  checkTypes(made);
  let root = made;
  if (made.tag === null) {
    // Written without its tag, the document is its content: one element parses, anything else does not.
    const content = contentOf(made);
    const only = content[0];
    if (content.length !== 1 || only === undefined || typeof only === "string")
      throw parseError(content.length === 0 ? "no element found" : "junk after document element");
    root = only;
  }
  const out = ['<?xml version="1.0" ?>\n'];
  write(root, "", new Set(), out);
  return markSafe(out.join(""));
}
