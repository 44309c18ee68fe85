import { type Dict, isPlainObject, type MappingKey, PyDict, PyFloat, setKey } from "@merge/core";

/*
 * Worker threads hand their results over by structured cloning, which keeps plain objects, arrays and primitives but
 * turns a class instance into a plain object: a `PyDict` would arrive as `{}` and a `PyFloat` as `{ value: 9 }`. So
 * an exact result crosses as a tagged tree — every container is a one-key object naming what it was — and is rebuilt
 * on the other side. A subtree shared by several places (YAML aliases) is encoded once; structured cloning keeps that
 * sharing, and decoding gives one value again.
 */

/** A value as it crosses a thread boundary. */
export type WireValue =
  | null
  | undefined
  | boolean
  | number
  | bigint
  | string
  | { readonly list: WireValue[] }
  | { readonly dict: [WireValue, WireValue][] }
  | { readonly object: [string, WireValue][] }
  | { readonly float: number }
  | { readonly other: unknown };

type WireNode = Exclude<WireValue, null | undefined | boolean | number | bigint | string>;

/** The tagged form of a value that holds `PyDict`s and `PyFloat`s. Acyclic input only (the loader checks). */
export function toWire(value: unknown): WireValue {
  const seen = new Map<object, WireNode>();
  const encode = (node: unknown): WireValue => {
    if (typeof node !== "object" || node === null) return node as WireValue;
    const done = seen.get(node);
    if (done !== undefined) return done;
    let out: WireNode;
    if (node instanceof PyFloat) out = { float: node.value };
    else if (Array.isArray(node)) out = { list: node.map(encode) };
    else if (node instanceof PyDict)
      out = { dict: [...node].map(([key, child]) => [encode(key), encode(child)]) };
    else if (isPlainObject(node)) out = { object: Object.keys(node).map((key) => [key, encode(node[key])]) };
    else out = { other: node };
    seen.set(node, out);
    return out;
  };
  return encode(value);
}

/** The value a `toWire` tree stands for. */
export function fromWire(wire: WireValue): unknown {
  const seen = new Map<object, unknown>();
  const decode = (node: WireValue): unknown => {
    if (typeof node !== "object" || node === null) return node;
    const done = seen.get(node);
    if (done !== undefined) return done;
    let out: unknown;
    if ("float" in node) out = new PyFloat(node.float);
    else if ("list" in node) out = node.list.map(decode);
    else if ("dict" in node) {
      const dict = new PyDict();
      for (const [key, child] of node.dict) dict.set(decode(key) as MappingKey, decode(child));
      out = dict;
    } else if ("object" in node) {
      const object: Dict = {};
      for (const [key, child] of node.object) setKey(object, key, decode(child));
      out = object;
    } else out = node.other;
    seen.set(node, out);
    return out;
  };
  return decode(wire);
}
