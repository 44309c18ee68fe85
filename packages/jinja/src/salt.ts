// Salt's helpers as templates see them: `traverse_dict_and_list`, the `__salt__` built-ins for the pure,
// common execution functions, and the `__stack__` object.
import { isAbsolute, resolve, sep } from "node:path";
import { emptyLike, hasOwn, isMapping, type Mapping, mappingKeys, PyDict, PyFloat } from "@merge/core";
import { TemplateProblem, typeError, undefinedOperand } from "./errors.js";
import { nodeTemplateFiles, type TemplateFileInfo, type TemplateFileSystem } from "./files.js";
import { bindCall, splitArgs } from "./kwargs.js";
import { findItem, NOT_FOUND, seen, splitText } from "./opaque.js";
import { isSafeString, PyTuple, pyBool, pyStr, pyTypeName } from "./pyvalues.js";
import { deepCopy, dictUpdate, filterBy, mergedList, saltUpdate } from "./salt-dicts.js";
import { loadSaltYaml } from "./yaml-bridge.js";

const MISSING = Symbol("missing");

/** Python's `int(step)` of a path step, or undefined where it raises ValueError. */
function stepIndex(step: unknown): number | undefined {
  if (typeof step === "number") return Number.isInteger(step) ? step : Math.trunc(step);
  if (typeof step === "boolean") return step ? 1 : 0;
  const text = typeof step === "string" ? step.trim() : undefined;
  if (text === undefined || !/^[-+]?\d+(?:_\d+)*$/.test(text)) return undefined;
  return Number(text.replace(/_/g, ""));
}

// Words Salt's YAML loader reads as something other than the same string (booleans, None); any other step made of
// letters, digits, `_` and `-` that starts with a letter or `_` loads as itself, so no load is needed to know that.
const NOT_ITSELF = /^(?:y|yes|n|no|true|false|on|off|null|none|nan|inf)$/i;

/**
 * Salt's `yamlify_arg` of a path step that is not a key: the step read as YAML (`8080` → 8080, `1.5` → 1.5, `true`
 * → True), so that `ports:8080` finds an int key; undefined when it loads as the same string or as something that
 * cannot be a key.
 */
function yamlifiedKey(step: string): unknown {
  const trimmed = step.trim();
  if (trimmed === "" || trimmed === "---" || trimmed === "...") return MISSING;
  if (trimmed.includes("_") && /^[\d_]+$/.test(trimmed)) return MISSING;
  if (/[\t\r\n]/.test(step)) return MISSING;
  if (/^[A-Za-z_][\w-]*$/.test(step) && !NOT_ITSELF.test(step)) return MISSING;
  if (step === "None") return null;
  let loaded: unknown;
  try {
    loaded = loadSaltYaml(step, "<key>");
  } catch {
    return MISSING;
  }
  // A `#` comment: kept only when the step loads as something other than text or None.
  if (step.includes("#") && (typeof loaded === "string" || loaded === null)) return MISSING;
  if (loaded === null && (step.trim().startsWith("#") || step === "!")) return MISSING;
  if (loaded === "" && (step === "|" || step === "!")) return MISSING;
  // Mappings and lists cannot be keys; timestamps and the like are not what yamlify_arg keeps.
  const t = typeof loaded;
  const scalar = loaded === null || t === "string" || t === "number" || t === "bigint" || t === "boolean";
  if (!scalar && !(loaded instanceof PyFloat)) return MISSING;
  return loaded === step ? MISSING : loaded;
}

/** The value at `step` of a mapping, or, when absent, at the step read as YAML (Salt's numeric-key fallback). */
function mappingStep(ptr: Mapping, step: unknown): unknown {
  const found = findItem(ptr, step);
  if (found !== NOT_FOUND || typeof step !== "string") return found === NOT_FOUND ? MISSING : found;
  const key = yamlifiedKey(step);
  if (key === MISSING) return MISSING;
  const again = findItem(ptr, key);
  return again === NOT_FOUND ? MISSING : again;
}

/**
 * Salt's `traverse_dict_and_list(data, 'a:b:0', default)`: walks dicts by key and lists by integer index (a list
 * step looks into the list's dicts first: by the step as text, or, for a numeric step, by its int), returning
 * `default` as soon as a step fails. A dict step that is not a key is tried again read as YAML, so `ports:8080`
 * finds the int key 8080.
 */
export function traverse(data: unknown, key: unknown, def: unknown = null, delimiter = ":"): unknown {
  return traverseOr(data, key, def, delimiter);
}

/**
 * The steps `traverse_dict_and_list` iterates: a string split at the delimiter, an int as one step, any other value
 * iterated as Python iterates it (a list's items, a dict's keys, an undefined value nothing), or Python's TypeError.
 */
function traverseSteps(key: unknown, delimiter: string): readonly unknown[] {
  if (typeof key === "string") return splitText(key, delimiter);
  if (isSafeString(key)) return splitText(key.val, delimiter);
  if (
    typeof key === "boolean" ||
    typeof key === "bigint" ||
    (typeof key === "number" && Number.isInteger(key))
  )
    return [key];
  if (key === undefined) return [];
  if (Array.isArray(key)) return key;
  if (isMapping(key)) return mappingKeys(key);
  if (key instanceof Set) return [...key];
  throw typeError(`'${pyTypeName(key)}' object is not iterable`);
}

/**
 * `traverse` with the default as given: an undefined value a template passes (`pillar.get('a', defaults.nope)`)
 * comes back as that undefined value, as Jinja's `Undefined` does under Salt, not as None.
 */
export function traverseOr(data: unknown, key: unknown, def: unknown, delimiter: string): unknown {
  const steps = traverseSteps(key, delimiter);
  let ptr: unknown = data;
  // Data the host does not have (no `__opts__`, no `pillar`) gives the default; an undefined value met on the way
  // was put there by the template, and Salt indexes it: Jinja's Undefined raises its UndefinedError.
  if (data === undefined) return def;
  for (const step of steps) {
    if (ptr === undefined) throw undefinedOperand("the filter traverse");
    if (Array.isArray(ptr) && !(ptr instanceof PyTuple)) {
      const idx = stepIndex(step);
      const lookup = idx === undefined ? step : idx;
      let found: unknown = MISSING;
      for (const item of ptr) {
        if (!isMapping(item)) continue;
        const v = findItem(item, lookup);
        if (v !== NOT_FOUND) {
          found = v;
          break;
        }
      }
      if (found !== MISSING) {
        ptr = found;
        continue;
      }
      if (idx === undefined) return def;
      const i = idx < 0 ? ptr.length + idx : idx;
      if (i < 0 || i >= ptr.length) return def;
      ptr = ptr[i];
    } else if (isMapping(ptr)) {
      let v: unknown;
      try {
        v = mappingStep(ptr, step);
      } catch {
        return def; // an unhashable step: Python's TypeError, which traverse turns into the default
      }
      if (v === MISSING) return def;
      ptr = v;
    } else {
      // Anything else is indexed as Python indexes it: a tuple or a string by an int step (out of range is an
      // IndexError, which Salt lets through), and every other lookup's TypeError gives the default.
      const items = ptr instanceof PyTuple ? ptr : typeof ptr === "string" ? Array.from(ptr) : undefined;
      const n = typeof step === "boolean" ? Number(step) : typeof step === "number" ? step : undefined;
      if (items === undefined || n === undefined || !Number.isInteger(n)) return def;
      const i = n < 0 ? items.length + n : n;
      if (i < 0 || i >= items.length)
        throw new TemplateProblem(
          `IndexError: ${typeof ptr === "string" ? "string" : "tuple"} index out of range`,
        );
      ptr = items[i];
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

/**
 * Salt's `pillar.get(key, default='', merge=False, merge_nested_lists=None, delimiter=':')`. With `merge`, a mapping
 * default is a copy of itself with the pillar's mapping at `key` merged in (`dictupdate.update`), and a list default a
 * copy followed by the pillar's items it lacks; a pillar value of another type (or a default that is neither) is
 * returned as without `merge`. `merge_nested_lists` defaults to the `pillar_merge_lists` option (false).
 */
function pillarGet(host: SaltHost, args: readonly unknown[]): unknown {
  const { key, def, delimiter } = getArgs(args, 4);
  const { pos, kw } = splitArgs(args);
  const merge = kw !== undefined && hasOwn(kw, "merge") ? kw.merge : pos[2];
  if (merge === undefined || !pyBool(merge)) return traverseOr(host.pillar(), key, def, delimiter);
  let nested = kw !== undefined && hasOwn(kw, "merge_nested_lists") ? kw.merge_nested_lists : pos[3];
  if (nested === undefined || nested === null)
    nested = traverseOr(host.opts(), "pillar_merge_lists", false, ":");
  if (isMapping(def)) {
    const found = traverseOr(host.pillar(), key, emptyLike(def), delimiter);
    if (isMapping(found)) return saltUpdate(deepCopy(def) as Mapping, found, pyBool(nested));
  } else if (Array.isArray(def)) {
    const found = traverseOr(host.pillar(), key, [], delimiter);
    if (Array.isArray(found)) return mergedList(def, found);
  }
  return traverseOr(host.pillar(), key, def, delimiter);
}

/**
 * `__stack__.traverse(data, key, default=None, delimiter=':')`, Salt's `traverse_dict_and_list` as PillarStack hands
 * it to templates: its arguments bound as Python binds them, by position or by keyword.
 */
export function stackTraverse(...args: unknown[]): unknown {
  const given = bindCall(args, "traverse_dict_and_list", ["data", "key", "default", "delimiter"], 2);
  if (given.get("data") === undefined) throw undefinedOperand("__stack__.traverse");
  const def = given.has("default") ? given.get("default") : null;
  const delimiter = given.has("delimiter") ? pyStr(given.get("delimiter")) : ":";
  return traverseOr(given.get("data"), given.get("key"), def, delimiter);
}

export interface SaltHost {
  readonly pillar: () => unknown;
  readonly grains: () => unknown;
  readonly opts: () => unknown;
  readonly warn: (message: string) => void;
  /** What `file.file_exists` and `file.directory_exists` ask; default: the local file system. */
  readonly files?: TemplateFileSystem;
}

type Fn = (...args: unknown[]) => unknown;

function stripKw(args: readonly unknown[]): unknown[] {
  return splitArgs(args).pos;
}

/** The built-in `__salt__` functions; the caller's functions (same `mod.fn` keys) take precedence. */
export function saltBuiltins(host: SaltHost): Record<string, Fn> {
  const files = host.files ?? nodeTemplateFiles;
  // What is at a path as Python's os.path sees it: a relative path is relative to the working directory, joined as
  // text so that "a.txt/" stays a question about a directory; nothing is there when the question cannot be asked.
  const statOf = (p: string): TemplateFileInfo | undefined => {
    if (p === "" || p.includes("\0")) return undefined;
    let abs = p;
    if (!isAbsolute(p)) {
      const cwd = resolve();
      abs = cwd.endsWith(sep) ? cwd + p : cwd + sep + p;
    }
    try {
      return files.stat(abs);
    } catch {
      return undefined;
    }
  };
  const lookup =
    (source: () => unknown, delimiterAt: number) =>
    (...args: unknown[]): unknown => {
      const { key, def, delimiter } = getArgs(args, delimiterAt);
      return traverseOr(source(), key, def, delimiter);
    };
  const MISS = Symbol("miss");
  const logAt =
    (warn: boolean) =>
    (...args: unknown[]): null => {
      if (warn) host.warn(seen(pyStr(stripKw(args)[0])));
      return null;
    };
  return {
    "pillar.get": (...args: unknown[]): unknown => pillarGet(host, args),
    "grains.get": lookup(host.grains, 2),
    "config.get": (...args: unknown[]): unknown => {
      const { key, def, delimiter } = getArgs(args, 2);
      for (const source of [host.opts, host.grains, host.pillar]) {
        const v = traverseOr(source(), key, MISS, delimiter);
        if (v !== MISS) return v;
      }
      return def;
    },
    "grains.filter_by": (...args: unknown[]): unknown => {
      const names = ["lookup_dict", "grain", "merge", "default", "base"];
      const given = bindCall(args, "filter_by", names, 1);
      return filterBy(
        given.get("lookup_dict"),
        given.has("grain") ? given.get("grain") : "os_family",
        host.grains(),
        (data, key, def) => traverseOr(data, key, def, ":"),
        given.get("merge"),
        given.has("default") ? given.get("default") : "default",
        given.get("base"),
      );
    },
    "defaults.merge": (...args: unknown[]): unknown => {
      const given = bindCall(args, "merge", ["dest", "src", "merge_lists", "in_place", "convert_none"], 2);
      const inPlace = given.has("in_place") ? pyBool(given.get("in_place")) : true;
      // Salt 3005's convert_none (default true): a None src is an empty dict, and so is a None dest merged into a
      // copy; merged in place, a None dest is refused.
      const convertNone = given.has("convert_none") ? pyBool(given.get("convert_none")) : true;
      let dest = given.get("dest");
      let src = given.get("src");
      if (src === null && convertNone) src = new PyDict();
      if (dest === null && convertNone) {
        if (inPlace) throw typeError("Can't perform in-place merge into NoneType");
        dest = new PyDict();
      }
      return dictUpdate(
        inPlace ? dest : deepCopy(dest),
        src,
        true,
        pyBool(given.get("merge_lists") ?? false),
      );
    },
    "defaults.deepcopy": (...args: unknown[]): unknown =>
      deepCopy(bindCall(args, "deepcopy", ["source"], 1).get("source")),
    "slsutil.update": (...args: unknown[]): unknown => {
      const given = bindCall(args, "update", ["dest", "upd", "recursive_update", "merge_lists"], 2);
      const recursive = given.has("recursive_update") ? pyBool(given.get("recursive_update")) : true;
      const mergeLists = pyBool(given.get("merge_lists") ?? false);
      return dictUpdate(given.get("dest"), given.get("upd"), recursive, mergeLists);
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
      return statOf(seen(pyStr(stripKw(args)[0])))?.isFile() === true;
    },
    "file.directory_exists": (...args: unknown[]) => {
      return statOf(seen(pyStr(stripKw(args)[0])))?.isDirectory() === true;
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
