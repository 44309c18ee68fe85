import { MergeError } from "../errors.js";
import { PyFloat, pyFloatRepr } from "./pyfloat.js";

/**
 * A key a mapping can hold. Plain objects hold strings only; a `PyDict` also holds what YAML and Python give as keys:
 * ints (`number`, or `bigint` beyond 2^53), floats (`number` or `PyFloat`), booleans, `null` (None), timestamps and
 * other objects that define `[PY_KEY]`.
 */
export type MappingKey = string | number | bigint | boolean | null | PyFloat | object;

/**
 * Objects that can be dict keys define `[PY_KEY]()`, returning a text that is equal for keys Python finds equal
 * (a timestamp, a tuple). A key that Python finds equal to an int or a float (a `decimal.Decimal` from a SQL
 * column: `Decimal("1.00") == 1`) returns that number (or `bigint`) instead, and is then one key with it.
 * Everything else that is an object (lists, mappings) is unhashable, as in Python.
 */
export const PY_KEY: unique symbol = Symbol.for("@merge/core.pyKey") as never;

// Jinja's Undefined as a key (`{nope: 1}`): all undefined values hash and compare equal, and to nothing else.
const UNDEFINED_KEY: unique symbol = Symbol.for("@merge/core.key:undefined") as never;

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * The identity of a key under Python's `==` and `hash`: `1`, `1.0`, `1n` and `true` are one key, `"1"` another.
 * Strings are their own identity (the common case costs nothing); numbers are whole numbers within 2^53 as
 * `number`, beyond as `bigint`; booleans are 0 and 1; None is `null`; hashable objects a registered symbol; an
 * undefined value (Jinja's `Undefined`, which hashes and compares equal to every other `Undefined` and to nothing
 * else) a symbol of its own, so that it is neither None nor lost.
 */
export function keyIdentity(key: unknown): unknown {
  switch (typeof key) {
    case "string":
      return key;
    case "number":
      if (Number.isInteger(key)) return Number.isSafeInteger(key) ? key + 0 : BigInt(key); // + 0 turns -0 into 0
      return key;
    case "bigint":
      return key >= MIN_SAFE && key <= MAX_SAFE ? Number(key) : key;
    case "boolean":
      return key ? 1 : 0;
    case "undefined":
      return UNDEFINED_KEY;
    case "object": {
      if (key === null) return null;
      if (key instanceof PyFloat) return keyIdentity(key.value);
      const own = (key as { [PY_KEY]?: unknown })[PY_KEY];
      if (typeof own === "function") {
        const identity: unknown = own.call(key);
        if (typeof identity === "number" || typeof identity === "bigint") return keyIdentity(identity);
        return Symbol.for(`@merge/core.key:${String(identity)}`);
      }
      if (key instanceof Date) return Symbol.for(`@merge/core.key:date:${key.getTime()}`);
      // bytes are hashable in Python (YAML `!!binary` keys)
      if (key instanceof Uint8Array) return Symbol.for(`@merge/core.key:bytes:${bytesHex(key)}`);
      break;
    }
    default:
      break;
  }
  throw new MergeError("UNHASHABLE_KEY", `unhashable type: '${pyTypeOfKey(key)}'`, {
    details: { type: pyTypeOfKey(key) },
  });
}

function bytesHex(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += byte.toString(16).padStart(2, "0");
  return out;
}

function pyTypeOfKey(key: unknown): string {
  if (Array.isArray(key)) return "list";
  if (key instanceof Set) return "set";
  if (typeof key === "object" && key !== null) return "dict";
  return typeof key;
}

/**
 * The name a key gets where only strings can be keys (a plain object, a JSON document), as Python's `json.dumps`
 * names it: `8080`, `1.5`, `1.0`, `true`, `null`, `NaN`, `Infinity`; other hashable objects by their `String()`.
 */
export function keyText(key: unknown): string {
  switch (typeof key) {
    case "string":
      return key;
    case "boolean":
      return key ? "true" : "false";
    case "bigint":
      return key.toString();
    case "number":
      if (Number.isInteger(key)) return String(key + 0);
      return floatKeyText(key);
    case "undefined":
      return "null";
    default:
      break;
  }
  if (key === null) return "null";
  if (key instanceof PyFloat) return floatKeyText(key.value);
  // bytes keys (json.dumps refuses them): named by their text, as a SQL column's bytes read as UTF-8
  if (key instanceof Uint8Array) return new TextDecoder().decode(key);
  const python = (key as { toPythonIsoformat?: (sep?: string) => string }).toPythonIsoformat;
  if (typeof python === "function") return python.call(key, " ");
  return String(key);
}

function floatKeyText(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (!Number.isFinite(value)) return value > 0 ? "Infinity" : "-Infinity";
  return pyFloatRepr(value);
}

const INSPECT = Symbol.for("nodejs.util.inspect.custom");

function frozenError(): TypeError {
  return new TypeError("cannot change a frozen PyDict (a shared value: copy it first)");
}

/**
 * A mapping with the semantics of a Python `dict`: keys of any hashable type, compared as Python compares them
 * (`1 == 1.0 == True`), every key kept where it was first inserted (updating a key keeps its place and its first
 * spelling, as Python keeps the first key object). It is what the Python-flavoured pipelines of `@merge` produce
 * when asked for exact values; plugins reach its entries through core's mapping helpers (`getItem`, `setItem`,
 * `mappingKeys`, ...), which work on plain objects too.
 *
 * Backed by a `Map`, so it is also immune to the object-shape slowdowns of V8 and to prototype pollution: any string,
 * `__proto__` included, is an ordinary key.
 */
export class PyDict<V = unknown> implements Iterable<[MappingKey, V]> {
  /** Values by key identity, in insertion order. */
  private readonly byIdentity = new Map<unknown, V>();
  /** The key as first written, for the keys whose identity differs from it (`true`, `1.0`); usually absent. */
  private spelled: Map<unknown, MappingKey> | undefined;
  private frozen = false;

  constructor(entries?: Iterable<readonly [MappingKey, V]> | null) {
    if (entries !== undefined && entries !== null) for (const [key, value] of entries) this.set(key, value);
  }

  /** A `PyDict` with the own enumerable string keys of a plain object, in their JavaScript order (shallow). */
  static fromObject<V = unknown>(object: Readonly<Record<string, V>>): PyDict<V> {
    const out = new PyDict<V>();
    for (const key of Object.keys(object)) out.byIdentity.set(key, object[key] as V);
    return out;
  }

  get size(): number {
    return this.byIdentity.size;
  }

  get(key: unknown): V | undefined {
    return this.byIdentity.get(typeof key === "string" ? key : keyIdentity(key));
  }

  has(key: unknown): boolean {
    return this.byIdentity.has(typeof key === "string" ? key : keyIdentity(key));
  }

  /** Sets a value; a key already present (by Python equality) keeps its position and its first spelling. */
  set(key: MappingKey, value: V): this {
    if (this.frozen) throw frozenError();
    if (typeof key === "string") {
      this.byIdentity.set(key, value);
      return this;
    }
    const identity = keyIdentity(key);
    if (identity !== key && identity !== null && !this.byIdentity.has(identity)) {
      if (this.spelled === undefined) this.spelled = new Map();
      this.spelled.set(identity, key);
    }
    this.byIdentity.set(identity, value);
    return this;
  }

  delete(key: unknown): boolean {
    if (this.frozen) throw frozenError();
    const identity = typeof key === "string" ? key : keyIdentity(key);
    if (!this.byIdentity.delete(identity)) return false;
    this.spelled?.delete(identity);
    return true;
  }

  clear(): void {
    if (this.frozen) throw frozenError();
    this.byIdentity.clear();
    this.spelled = undefined;
  }

  /** The keys as an array, in order (what the mapping helpers and hot loops use). */
  keyList(): MappingKey[] {
    const out: MappingKey[] = [];
    const spelled = this.spelled;
    if (spelled === undefined) {
      for (const identity of this.byIdentity.keys()) out.push(identity as MappingKey);
    } else {
      for (const identity of this.byIdentity.keys()) {
        out.push(spelled.has(identity) ? spelled.get(identity)! : (identity as MappingKey));
      }
    }
    return out;
  }

  keys(): IterableIterator<MappingKey> {
    return this.keyList()[Symbol.iterator]();
  }

  values(): IterableIterator<V> {
    return this.byIdentity.values();
  }

  entries(): IterableIterator<[MappingKey, V]> {
    // Without respelled keys every identity is the key as written: the Map's own iterator is the answer, and it is
    // several times faster than a generator (toPlain, formatJson and pyEquals walk whole trees with it).
    if (this.spelled === undefined) return this.byIdentity.entries() as IterableIterator<[MappingKey, V]>;
    return this.respelledEntries(this.spelled);
  }

  private *respelledEntries(spelled: Map<unknown, MappingKey>): IterableIterator<[MappingKey, V]> {
    for (const [identity, value] of this.byIdentity) {
      yield [spelled.has(identity) ? spelled.get(identity)! : (identity as MappingKey), value];
    }
  }

  [Symbol.iterator](): IterableIterator<[MappingKey, V]> {
    return this.entries();
  }

  forEach(callback: (value: V, key: MappingKey, dict: this) => void): void {
    const spelled = this.spelled;
    // Map's own forEach makes no [key, value] pair per entry (formatJson walks whole trees with it).
    this.byIdentity.forEach((value, identity) => {
      callback(
        value,
        spelled !== undefined && spelled.has(identity) ? spelled.get(identity)! : (identity as MappingKey),
        this,
      );
    });
  }

  /**
   * Makes this mapping read-only (`set`, `delete` and `clear` then throw a `TypeError`), as `Object.freeze` does for
   * an object: for values shared between callers, such as a loader's cache. Copies are not frozen.
   */
  freeze(): this {
    this.frozen = true;
    return this;
  }

  get isFrozen(): boolean {
    return this.frozen;
  }

  /** A shallow copy (never frozen). */
  copy(): PyDict<V> {
    const out = new PyDict<V>();
    for (const [identity, value] of this.byIdentity) out.byIdentity.set(identity, value);
    if (this.spelled !== undefined) out.spelled = new Map(this.spelled);
    return out;
  }

  /**
   * For `JSON.stringify`: a plain object whose keys are named as `json.dumps` names them (`8080`, `true`, `null`).
   * Keys equal as text (`1` and `"1"`) collapse there; the exact writers of `@merge` keep them apart.
   */
  toJSON(): Record<string, V> {
    const out: Record<string, V> = {};
    for (const [key, value] of this.entries()) {
      Object.defineProperty(out, keyText(key), {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }

  get [Symbol.toStringTag](): string {
    return "PyDict";
  }

  /** Node's `console.log` shows the entries with their keys as written (`PyDict(2) { 8080 => 'a', 'b' => 1 }`). */
  [INSPECT](_depth: number, options: object, inspect: (value: unknown, options: object) => string): string {
    return inspect(new Map(this.entries()), options).replace(/^Map/, "PyDict");
  }
}
