// The value model the kit checks plugins against, in one place: what a mapping is, and how values are copied, shown,
// compared, walked and searched. Every property uses these functions and nothing else to look inside a value. Both
// representations of @merge/core reach plugins: plain objects and PyDicts (with PyFloat whole floats).
import {
  getItem,
  hasItem,
  isMapping,
  isPlainObject,
  type Mapping,
  type MappingKey,
  mappingKeys,
  type PathKey,
  PyDict,
  PyFloat,
  setKey,
} from "@merge/core";

export { isMapping, type Mapping, mappingKeys };

/** A key as text that tells types apart (`"1"` and `1`, `True`, `None`, `1.0`). */
function showKey(key: MappingKey): string {
  if (typeof key === "string") return JSON.stringify(key);
  if (typeof key === "boolean") return key ? "True" : "False";
  if (key === null) return "None";
  if (key instanceof PyFloat) return `PyFloat(${key.value})`;
  if (typeof key === "bigint") return `${key}n`;
  return String(key);
}

/**
 * A deep copy that keeps what matters to a merger: key order, `__proto__` keys as own data, null-prototype mappings,
 * dates and byte arrays. Other objects are shared, as a merge would share them.
 */
export function copyValue(value: unknown, rename?: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => copyValue(item, rename));
  if (value instanceof PyDict) {
    const out = new PyDict();
    for (const [key, item] of value) {
      out.set(typeof key === "string" ? (rename?.get(key) ?? key) : key, copyValue(item, rename));
    }
    return out;
  }
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = Object.getPrototypeOf(value) === null ? Object.create(null) : {};
    for (const key of Object.keys(value)) setKey(out, rename?.get(key) ?? key, copyValue(value[key], rename));
    return out;
  }
  if (value instanceof PyFloat) return new PyFloat(value.value);
  if (typeof value === "string") return rename?.get(value) ?? value;
  if (value instanceof Date) return new Date(value.getTime());
  if (value instanceof Uint8Array) return value.slice();
  return value;
}

export interface ShowOptions {
  /** Sort mapping keys (to compare results whose key order may legitimately differ). */
  readonly sortKeys?: boolean;
  /**
   * Tell null-prototype mappings from plain ones (default true). Off to compare two results: the engine may give
   * either for the same merge (a copy of a null-prototype mapping is a plain one).
   */
  readonly nullPrototypes?: boolean;
}

/**
 * The whole of a value as text: a JS-like literal that tells apart everything a merge can change or confuse (key
 * order, `-0`, `1` and `1n`, a missing key and an `undefined` one, plain and null-prototype mappings, a mapping whose
 * prototype was replaced). Two values are the same for the kit when their texts are equal.
 */
export function showValue(value: unknown, how: ShowOptions = {}): string {
  const sortKeys = how.sortKeys === true;
  const nullPrototypes = how.nullPrototypes !== false;
  const open = new Set<object>();
  const show = (v: unknown): string => {
    switch (typeof v) {
      case "string":
        return JSON.stringify(v);
      case "number":
        return Object.is(v, -0) ? "-0" : String(v);
      case "bigint":
        return `${v}n`;
      case "boolean":
        return String(v);
      case "undefined":
        return "undefined";
      case "symbol":
        return v.toString();
      case "function":
        return `[Function ${v.name || "anonymous"}]`;
      default:
        break;
    }
    if (v === null) return "null";
    if (v instanceof PyFloat) return `PyFloat(${Object.is(v.value, -0) ? "-0" : v.value})`;
    const object = v as object;
    if (open.has(object)) return "[Circular]";
    if (v instanceof Date) return `Date(${Number.isNaN(v.getTime()) ? "invalid" : v.toISOString()})`;
    if (v instanceof Uint8Array) return `Uint8Array[${v.join(",")}]`;
    open.add(object);
    let text: string;
    if (Array.isArray(v)) {
      const items: string[] = [];
      for (let i = 0; i < v.length; i++) items.push(i in v ? show(v[i]) : "<hole>");
      text = `[${items.join(", ")}]`;
    } else if (v instanceof PyDict) {
      const entries = [...v].map(([key, item]) => [showKey(key), show(item)] as const);
      if (sortKeys) entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      text = `PyDict{${entries.map(([key, item]) => `${key}: ${item}`).join(", ")}}`;
    } else {
      const proto = Object.getPrototypeOf(object);
      const keys = Object.keys(object);
      if (sortKeys) keys.sort();
      const body = keys
        .map((key) => `${JSON.stringify(key)}: ${show((object as Record<string, unknown>)[key])}`)
        .join(", ");
      const prefix =
        proto === Object.prototype
          ? ""
          : proto === null
            ? nullPrototypes
              ? "[null prototype] "
              : ""
            : `[${proto?.constructor?.name ?? "object"} prototype${isPlainObject(proto) ? " replaced" : ""}] `;
      text = `${prefix}{${body}}`;
    }
    open.delete(object);
    return text;
  };
  return show(value);
}

/** `showValue`, cut to `limit` characters for messages. */
export function previewValue(value: unknown, limit = 600): string {
  const text = showValue(value);
  return text.length <= limit ? text : `${text.slice(0, limit)}… (${text.length} characters)`;
}

/** Calls `visit` for a value and every value inside it, parents first, with its path. Stops at cycles. */
export function walkValue(
  value: unknown,
  visit: (value: unknown, path: readonly PathKey[]) => void,
  path: PathKey[] = [],
  open: Set<object> = new Set(),
): void {
  visit(value, path);
  if (typeof value !== "object" || value === null || open.has(value)) return;
  if (!Array.isArray(value) && !isMapping(value)) return;
  open.add(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) walkValue(value[i], visit, [...path, i], open);
  } else {
    for (const key of mappingKeys(value)) walkValue(getItem(value, key), visit, [...path, key], open);
  }
  open.delete(value);
}

/** The value at `path`, or `found: false` when a step is missing. */
export function valueAt(root: unknown, path: readonly PathKey[]): { found: boolean; value?: unknown } {
  let node = root;
  for (const step of path) {
    if (Array.isArray(node) && typeof step === "number" && Number.isInteger(step)) {
      if (step < 0 || step >= node.length) return { found: false };
      node = node[step];
    } else if (
      isMapping(node) &&
      (typeof step === "string" || node instanceof PyDict) &&
      hasItem(node, step)
    ) {
      node = getItem(node, step);
    } else {
      return { found: false };
    }
  }
  return { found: true, value: node };
}

/** What inputs supply: their scalars, mapping keys and string characters, and their other objects by identity. */
export interface Supplied {
  readonly atoms: Set<unknown>;
  readonly characters: Set<string>;
  readonly objects: Set<object>;
}

export function suppliedBy(values: readonly unknown[]): Supplied {
  const supplied: Supplied = { atoms: new Set(), characters: new Set(), objects: new Set() };
  const addString = (text: string) => {
    supplied.atoms.add(text);
    for (const ch of text) supplied.characters.add(ch);
  };
  for (const root of values) {
    walkValue(root, (value) => {
      if (Array.isArray(value)) return;
      if (isMapping(value)) {
        for (const key of mappingKeys(value)) {
          if (typeof key === "string") addString(key);
          else supplied.atoms.add(atomOf(key));
        }
      } else if (typeof value === "string") addString(value);
      else if (value instanceof PyFloat) supplied.atoms.add(atomOf(value));
      else if (typeof value === "object" && value !== null) supplied.objects.add(value);
      else supplied.atoms.add(value);
    });
  }
  return supplied;
}

/**
 * True when `value` (a scalar or mapping key of a result) was supplied by the inputs. With `derivedStrings`, a string
 * made only of characters the inputs hold also counts (concatenation, Python-style iteration of a string).
 */
export function isSupplied(value: unknown, supplied: Supplied, derivedStrings: boolean): boolean {
  if (value instanceof PyFloat) return supplied.atoms.has(atomOf(value));
  if (typeof value === "object" && value !== null) return supplied.objects.has(value);
  if (supplied.atoms.has(value)) return true;
  if (derivedStrings && typeof value === "string") {
    for (const ch of value) if (!supplied.characters.has(ch)) return false;
    return true;
  }
  return false;
}

/** The text (`showValue`) of every value inside `root`, itself included. */
export function subtreeTexts(root: unknown): Set<string> {
  const out = new Set<string>();
  walkValue(root, (value) => out.add(showValue(value)));
  return out;
}

/** Whole floats are values, not identities: a plugin may hand on the same float in a new box. */
function atomOf(value: unknown): unknown {
  return value instanceof PyFloat ? `PyFloat(${value.value})` : value;
}
