import { compareCodePoints, isPlainObject, PyDict } from "@merge/core";
import { yamlError } from "./errors.js";
import { pythonFloatRepr } from "./pyfloat.js";
import { resolvePlain, TAG } from "./resolver.js";
import { YamlFloat } from "./float.js";
import { YamlTimestamp } from "./timestamp.js";

/** A node of PyYAML's representation graph; shared JavaScript objects give shared nodes (and anchors). */
export type YNode = YScalar | YSeq | YMap;

export interface YScalar {
  readonly kind: "scalar";
  readonly tag: string;
  readonly value: string;
  /** `|` for binary data, undefined to let the emitter choose. */
  readonly style: "|" | undefined;
  /** PyYAML's `implicit` pair: the tag may be omitted when written plain / when written quoted. */
  readonly implicit: readonly [boolean, boolean];
}

export interface YSeq {
  readonly kind: "seq";
  readonly tag: string;
  readonly items: YNode[];
  flow: boolean;
}

export interface YMap {
  readonly kind: "map";
  readonly tag: string;
  readonly pairs: [YNode, YNode][];
  flow: boolean;
  /** The keys as given (not represented), pair by pair: kept only when comments are asked for (`keepKeys`). */
  keys?: unknown[];
}

export interface RepresentOptions {
  /** PyYAML's `default_flow_style`: true (flow), false (block) or null (flow only for collections of scalars). */
  readonly flowStyle: boolean | null;
  readonly sortKeys: boolean;
  /** Give shared objects one node (written once with an anchor); false writes them again each time. */
  readonly aliases: boolean;
  /** How `undefined` is written: Salt writes Jinja's undefined as `NULL`; `error` refuses it. */
  readonly undefinedAs: "null" | "NULL" | "error";
  readonly maxDepth: number;
  /** Keep each mapping's original keys beside its pairs (`YMap.keys`), so comments can be looked up by path. */
  readonly keepKeys?: boolean;
}

function scalar(tag: string, value: string, style?: "|"): YScalar {
  // The serializer's test: would the resolver give this tag back for the plain text / for quoted text?
  return { kind: "scalar", tag, value, style, implicit: [resolvePlain(value) === tag, tag === TAG.str] };
}

/** The least integer with more decimal digits than Python 3.11 converts from text (`int('…')` refuses 4,301). */
const TOO_MANY_DIGITS = 10n ** 4300n;

/**
 * A big integer as text PyYAML reads back: in decimal, or past 4,300 digits (where Python's `int()` refuses decimal
 * text, and PyYAML's own dumper cannot write it) in hexadecimal, which PyYAML reads with no limit (`0x…`).
 */
function bigintText(value: bigint): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  if (abs < TOO_MANY_DIGITS) return value.toString();
  return `${negative ? "-" : ""}0x${abs.toString(16)}`;
}

/** Python's `repr` of a safe integer (`-0` is plain `0`). */
function intText(value: number): string {
  return String(value === 0 ? 0 : value);
}

/** `SafeRepresenter.represent_float`: `.nan`, `.inf`, and `repr()` with a `.0` forced before a bare exponent. */
export function floatText(value: number): string {
  if (Number.isNaN(value)) return ".nan";
  if (value === Number.POSITIVE_INFINITY) return ".inf";
  if (value === Number.NEGATIVE_INFINITY) return "-.inf";
  let text = pythonFloatRepr(value).toLowerCase();
  if (!text.includes(".") && text.includes("e")) text = text.replace("e", ".0e");
  return text;
}

/** base64 as Python's `base64.encodebytes` writes it: lines of 76 characters, each ending in a newline. */
function encodeBytes(data: Uint8Array): string {
  const b64 = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("base64");
  let out = "";
  for (let i = 0; i < b64.length; i += 76) out += `${b64.slice(i, i + 76)}\n`;
  return out;
}

function dateText(value: Date): string {
  if (value instanceof YamlTimestamp) return value.toPythonIsoformat(value.kind === "date" ? "T" : " ");
  const ts = new YamlTimestamp(
    value.getTime(),
    "datetime",
    0,
    (((value.getTime() % 1000) + 1000) % 1000) * 1000,
  );
  return ts.toPythonIsoformat(" ");
}

type SortClass = "number" | "string" | "date" | "naive" | "bytes" | "other";

function sortClass(key: unknown): SortClass {
  switch (typeof key) {
    case "number":
    case "bigint":
    case "boolean":
      return "number";
    case "string":
      return "string";
    default:
      if (key instanceof YamlFloat) return "number";
      if (key instanceof YamlTimestamp)
        return key.kind === "date" ? "date" : key.offsetMinutes === null ? "naive" : "other";
      if (key instanceof Date) return "other";
      if (key instanceof Uint8Array) return "bytes";
      return "other";
  }
}

function compareKeys(a: unknown, b: unknown, cls: SortClass): number {
  if (cls === "string") return compareCodePoints(a as string, b as string);
  if (cls === "number") {
    const x = typeof a === "boolean" || a instanceof YamlFloat ? Number(a) : a;
    const y = typeof b === "boolean" || b instanceof YamlFloat ? Number(b) : b;
    return (x as number) < (y as number) ? -1 : (x as number) > (y as number) ? 1 : 0;
  }
  if (cls === "bytes") return Buffer.compare(a as Uint8Array, b as Uint8Array);
  const d = (a as Date).getTime() - (b as Date).getTime();
  return d !== 0 ? d : (a as YamlTimestamp).microsecond - (b as YamlTimestamp).microsecond;
}

/**
 * Python's `sorted(mapping.items())` as `represent_mapping` does it: when keys of different types cannot be
 * compared (`1` and `"a"`, anything with None), Python raises and PyYAML keeps the original order.
 */
function sortEntries(entries: [unknown, unknown][]): [unknown, unknown][] {
  const cls = sortableClass(entries, entryKey);
  if (cls === undefined) return entries;
  return [...entries].sort((x, y) => compareKeys(x[0], y[0], cls));
}

const entryKey = (entry: [unknown, unknown]): unknown => entry[0];
const itself = (key: unknown): unknown => key;

/** The class all the keys share when Python can sort them; undefined when it cannot (or there is nothing to sort). */
function sortableClass<T>(items: readonly T[], keyOf: (item: T) => unknown): SortClass | undefined {
  if (items.length < 2) return undefined;
  const cls = sortClass(keyOf(items[0]!));
  if (cls === "other") return undefined;
  for (const item of items) if (sortClass(keyOf(item)) !== cls) return undefined;
  return cls;
}

/**
 * A mapping's keys in the order `dumpYaml` writes them with sorted keys (the `cloud-init` preset): sorted as Python
 * sorts them when it can, else as given. For a reader that has to follow the written document key by key.
 */
export function sortedKeys<K>(keys: readonly K[]): readonly K[] {
  const cls = sortableClass(keys, itself);
  return cls === undefined ? keys : [...keys].sort((x, y) => compareKeys(x, y, cls));
}

/** Turns JavaScript values into PyYAML's node graph with `SafeRepresenter`'s rules. */
export class Representer {
  private readonly o: RepresentOptions;
  private readonly nodes = new Map<object, YNode>();
  private readonly open = new Set<object>();

  constructor(options: RepresentOptions) {
    this.o = options;
  }

  represent(value: unknown, depth = 0): YNode {
    switch (typeof value) {
      case "string":
        return scalar(TAG.str, value);
      case "boolean":
        return scalar(TAG.bool, value ? "true" : "false");
      case "bigint":
        return scalar(TAG.int, bigintText(value));
      case "number":
        // The loader returns integers beyond 2^53 as bigint, so an unsafe integral number is taken for a float.
        return Number.isSafeInteger(value)
          ? scalar(TAG.int, intText(value))
          : scalar(TAG.float, floatText(value));
      case "undefined":
        if (this.o.undefinedAs === "error")
          throw yamlError("YAML_DUMP", "cannot represent an undefined value", undefined, undefined);
        return scalar(TAG.null, this.o.undefinedAs);
      case "object":
        break;
      default:
        throw yamlError("YAML_DUMP", `cannot represent a ${typeof value}`, undefined, undefined);
    }
    if (value === null) return scalar(TAG.null, "null");
    if (value instanceof YamlFloat) return scalar(TAG.float, floatText(value.value));
    // Binary data is never aliased (PyYAML's ignore_aliases covers bytes).
    if (value instanceof Uint8Array) return scalar(TAG.binary, encodeBytes(value), "|");
    if (depth > this.o.maxDepth) {
      throw yamlError(
        "DEPTH_LIMIT",
        `value nested deeper than ${this.o.maxDepth} levels`,
        undefined,
        undefined,
      );
    }
    const known = this.nodes.get(value);
    if (known !== undefined) return known;
    if (this.open.has(value)) {
      throw yamlError(
        "YAML_DUMP",
        "cannot write a recursive structure without aliases",
        undefined,
        undefined,
      );
    }
    if (value instanceof Date) {
      if (Number.isNaN(value.getTime()))
        throw yamlError("YAML_DUMP", "cannot represent an invalid Date", undefined, undefined);
      return this.remember(value, scalar(TAG.timestamp, dateText(value)));
    }
    if (Array.isArray(value)) {
      const node: YSeq = { kind: "seq", tag: TAG.seq, items: [], flow: false };
      this.enter(value, node);
      let best = true;
      for (const item of value) {
        const child = this.represent(item, depth + 1);
        if (!(child.kind === "scalar" && child.style === undefined)) best = false;
        node.items.push(child);
      }
      node.flow = this.o.flowStyle ?? best;
      this.open.delete(value);
      return node;
    }
    let entries: [unknown, unknown][];
    let tag: string = TAG.map;
    if (value instanceof PyDict || value instanceof Map) entries = Array.from(value.entries());
    else if (value instanceof Set) {
      tag = TAG.set;
      entries = Array.from(value, (key): [unknown, unknown] => [key, null]);
    } else if (isPlainObject(value)) entries = Object.entries(value);
    else
      throw yamlError(
        "YAML_DUMP",
        `cannot represent an object of class ${value.constructor?.name ?? "unknown"}`,
        undefined,
        undefined,
      );
    if (this.o.sortKeys) entries = sortEntries(entries);
    const node: YMap = { kind: "map", tag, pairs: [], flow: false };
    if (this.o.keepKeys === true) node.keys = entries.map(([k]) => k);
    this.enter(value, node);
    let best = true;
    for (const [k, v] of entries) {
      const key = this.represent(k, depth + 1);
      const item = this.represent(v, depth + 1);
      if (!(key.kind === "scalar" && key.style === undefined)) best = false;
      if (!(item.kind === "scalar" && item.style === undefined)) best = false;
      node.pairs.push([key, item]);
    }
    node.flow = this.o.flowStyle ?? best;
    this.open.delete(value);
    return node;
  }

  private enter(value: object, node: YNode): void {
    this.open.add(value);
    if (this.o.aliases) this.nodes.set(value, node);
  }

  private remember(value: object, node: YNode): YNode {
    if (this.o.aliases) this.nodes.set(value, node);
    return node;
  }
}
