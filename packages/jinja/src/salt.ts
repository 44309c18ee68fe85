// Salt's helpers as templates see them: `traverse_dict_and_list`, the `__salt__` built-ins for the pure,
// common execution functions, and the `__stack__` object.
import { existsSync, statSync } from "node:fs";
import { hasOwn } from "@merge/core";
import { splitArgs } from "./kwargs.js";
import { ownKey, seen, splitText } from "./opaque.js";
import { isDict, pyStr } from "./pyvalues.js";

const MISSING = Symbol("missing");

/**
 * Salt's `traverse_dict_and_list(data, 'a:b:0', default)`: walks dicts by key and lists by integer index (a
 * non-integer step into a list looks into the list's dicts), returning `default` as soon as a step fails.
 */
export function traverse(data: unknown, key: unknown, def: unknown = null, delimiter = ":"): unknown {
  const steps: unknown[] =
    typeof key === "string"
      ? splitText(key, delimiter)
      : Array.isArray(key)
        ? key
        : typeof key === "number"
          ? [key]
          : [key];
  let ptr: unknown = data;
  for (const step of steps) {
    if (Array.isArray(ptr)) {
      const text = typeof step === "string" ? step.trim() : step;
      const idx =
        typeof text === "number" ? text : /^[-+]?\d+$/.test(String(text)) ? Number(text) : Number.NaN;
      let found: unknown = MISSING;
      const name = Number.isNaN(idx) ? String(step) : String(idx);
      for (const item of ptr) {
        const own = isDict(item) ? ownKey(item, name) : undefined;
        if (own !== undefined) {
          found = (item as Record<string, unknown>)[own];
          break;
        }
      }
      if (found !== MISSING) {
        ptr = found;
        continue;
      }
      if (Number.isNaN(idx)) return def;
      const i = idx < 0 ? ptr.length + idx : idx;
      if (i < 0 || i >= ptr.length) return def;
      ptr = ptr[i];
    } else if (isDict(ptr)) {
      const own = ownKey(ptr, typeof step === "string" ? step : pyStr(step));
      if (own === undefined) return def;
      ptr = ptr[own];
    } else {
      return def;
    }
  }
  return ptr;
}

/**
 * Arguments of the `*.get` functions: `key`, `default=''` and `delimiter=':'`, by keyword or by position
 * (`delimiterAt`: `pillar.get(key, default, merge, merge_nested_lists, delimiter)`, `grains.get(key, default,
 * delimiter)`).
 */
function getArgs(
  args: readonly unknown[],
  delimiterAt: number,
): { key: unknown; def: unknown; delimiter: string } {
  const { pos, kw } = splitArgs(args);
  const key = kw?.key ?? pos[0];
  const def = kw !== undefined && hasOwn(kw, "default") ? kw.default : pos.length > 1 ? pos[1] : "";
  const delimiter = String(kw?.delimiter ?? (pos.length > delimiterAt ? pos[delimiterAt] : ":"));
  return { key, def, delimiter };
}

export interface SaltHost {
  readonly pillar: () => unknown;
  readonly grains: () => unknown;
  readonly opts: () => unknown;
  readonly warn: (message: string) => void;
}

type Fn = (...args: unknown[]) => unknown;

function stripKw(args: readonly unknown[]): unknown[] {
  return splitArgs(args).pos;
}

/** The built-in `__salt__` functions; the caller's functions (same `mod.fn` keys) take precedence. */
export function saltBuiltins(host: SaltHost): Record<string, Fn> {
  const lookup =
    (source: () => unknown, delimiterAt: number) =>
    (...args: unknown[]): unknown => {
      const { key, def, delimiter } = getArgs(args, delimiterAt);
      return traverse(source(), key, def, delimiter);
    };
  const MISS = Symbol("miss");
  const logAt =
    (warn: boolean) =>
    (...args: unknown[]): null => {
      if (warn) host.warn(seen(pyStr(stripKw(args)[0])));
      return null;
    };
  return {
    "pillar.get": lookup(host.pillar, 4),
    "grains.get": lookup(host.grains, 2),
    "config.get": (...args: unknown[]): unknown => {
      const { key, def, delimiter } = getArgs(args, 2);
      for (const source of [host.opts, host.grains, host.pillar]) {
        const v = traverse(source(), key, MISS, delimiter);
        if (v !== MISS) return v;
      }
      return def;
    },
    "file.join": (...args: unknown[]) => {
      let out = "";
      for (const a of stripKw(args)) {
        const p = pyStr(a);
        if (p.startsWith("/")) out = p;
        else if (out === "" || out.endsWith("/")) out += p;
        else out += `/${p}`;
      }
      return out;
    },
    "file.dirname": (...args: unknown[]) => {
      const p = pyStr(stripKw(args)[0]);
      const i = p.lastIndexOf("/") + 1;
      const head = p.slice(0, i);
      return head !== "" && head !== "/".repeat(head.length) ? head.replace(/\/+$/, "") : head;
    },
    "file.basename": (...args: unknown[]) => {
      const p = pyStr(stripKw(args)[0]);
      return p.slice(p.lastIndexOf("/") + 1);
    },
    "file.file_exists": (...args: unknown[]) => {
      const p = seen(pyStr(stripKw(args)[0]));
      try {
        return existsSync(p) && statSync(p).isFile();
      } catch {
        return false;
      }
    },
    "file.directory_exists": (...args: unknown[]) => {
      const p = seen(pyStr(stripKw(args)[0]));
      try {
        return existsSync(p) && statSync(p).isDirectory();
      } catch {
        return false;
      }
    },
    "log.debug": logAt(false),
    "log.info": logAt(false),
    "log.trace": logAt(false),
    "log.warning": logAt(true),
    "log.warn": logAt(true),
    "log.error": logAt(true),
    "log.critical": logAt(true),
    "log.exception": logAt(true),
  };
}
