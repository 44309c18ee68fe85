import type { MappingKey } from "./values/pydict.js";
import { PyFloat } from "./values/pyfloat.js";

/**
 * One step of a key path: a mapping key or a list index (a number). Keys of a `PyDict` may also be ints, floats,
 * booleans or None; which one a number is follows from the container it indexes.
 */
export type PathKey = MappingKey;

const IDENTIFIER = /^[A-Za-z_$][\w$-]*$/;

/**
 * Formats a key path the way people write it: `users.tom.roles[1]`. Keys that are not plain identifiers are quoted
 * (`servers["web.example.com"]`) so the path can be read back without ambiguity; keys that are not strings are
 * written as Python writes them (`ports[8080]`, `flags[True]`, `x[None]`, `v[1.0]`).
 */
export function formatPath(path: readonly PathKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "string") {
      out += IDENTIFIER.test(key) ? (out === "" ? key : `.${key}`) : `[${JSON.stringify(key)}]`;
    } else {
      out += `[${pathKeyText(key)}]`;
    }
  }
  return out;
}

function pathKeyText(key: PathKey): string {
  if (typeof key === "boolean") return key ? "True" : "False";
  if (key === null || key === undefined) return "None";
  if (key instanceof PyFloat) return key.toString();
  return String(key);
}
