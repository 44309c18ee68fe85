// nunjucks passes keyword arguments as a trailing object flagged `__keywords`; these helpers read them the way
// Python binds a call's arguments. The flag a template's call sets is also a symbol, which data cannot carry: a
// mapping from a grain that happens to hold a `__keywords` key is still an ordinary positional argument.
import { hasOwn } from "@merge/core";
import { TemplateProblem } from "./errors.js";

export type Kwargs = Record<string, unknown>;

/** Marks a call's keyword arguments; its value tells whether their `__keywords` key is the marker (true) or data. */
const KEYWORDS: unique symbol = Symbol("keyword arguments");

/** Marks `obj` as a call's keyword arguments (nunjucks' `makeKeywordArgs`, as the compiled templates call it). */
export function makeKeywordArgs<T extends object>(obj: T): T {
  const keyword = hasOwn(obj, "__keywords");
  Object.defineProperty(obj, KEYWORDS, { value: !keyword });
  // The documented convention for `__salt__` functions written by callers (unless a keyword has that very name).
  if (!keyword) (obj as Record<string, unknown>).__keywords = true;
  return obj;
}

export function isKwargs(value: unknown): value is Kwargs {
  return (
    typeof value === "object" &&
    value !== null &&
    Object.getOwnPropertyDescriptor(value, KEYWORDS) !== undefined
  );
}

/** Whether `key` of keyword arguments `kw` is a keyword, not nunjucks' `__keywords` marker. */
export function isKeyword(kw: Kwargs, key: string): boolean {
  return hasOwn(kw, key) && (key !== "__keywords" || (kw as { [KEYWORDS]?: boolean })[KEYWORDS] === false);
}

/** Splits `args` into positional values and keyword values (without the marker). */
export function splitArgs(args: readonly unknown[]): { pos: unknown[]; kw: Kwargs | undefined } {
  const last = args[args.length - 1];
  if (args.length > 0 && isKwargs(last)) {
    const kw: Kwargs = Object.create(null);
    for (const k in last) if (isKeyword(last, k)) kw[k] = last[k];
    return { pos: args.slice(0, -1), kw };
  }
  return { pos: args as unknown[], kw: undefined };
}

/**
 * Binds Python-style parameters: positional first, then by name; missing ones get `undefined`. The first `required`
 * names must be given (positionally or by name), else the call fails with Python's TypeError for the function Jinja
 * implements it with (`pyName`, such as `do_replace`).
 */
export function bindArgs(
  args: readonly unknown[],
  names: readonly string[],
  fn: string,
  required = 0,
  pyName = fn,
): unknown[] {
  const { pos, kw } = splitArgs(args);
  if (pos.length > names.length) {
    throw new Error(`TypeError: ${fn}() takes at most ${names.length} arguments (${pos.length} given)`);
  }
  const out: unknown[] = names.map((_, i) => pos[i]);
  if (kw !== undefined) {
    for (const k in kw) {
      const i = names.indexOf(k);
      if (i === -1) throw new Error(`TypeError: ${fn}() got an unexpected keyword argument '${k}'`);
      out[i] = kw[k];
    }
  }
  if (required > 0) {
    const missing = names
      .slice(0, required)
      .filter((name, i) => i >= pos.length && (kw === undefined || !hasOwn(kw, name)));
    if (missing.length > 0) throw new Error(`TypeError: ${pyName}() missing ${missingArguments(missing)}`);
  }
  return out;
}

/** Python's wording of missing arguments: `1 required positional argument: 'a'`, `2 ...: 'a' and 'b'`. */
export function missingArguments(names: readonly string[]): string {
  const quoted = names.map((name) => `'${name}'`);
  const list =
    quoted.length <= 2 ? quoted.join(" and ") : `${quoted.slice(0, -1).join(", ")}, and ${quoted.at(-1)}`;
  return `${names.length} required positional argument${names.length === 1 ? "" : "s"}: ${list}`;
}

/**
 * A call's arguments bound to the parameters `names` of the Python function `fn` (the first `required` without a
 * default), by position or keyword, with Python's TypeErrors; the map holds the parameters given. `bound` is 1 for a
 * method, whose `self` Python counts among the positional arguments in its messages.
 */
export function bindCall(
  args: readonly unknown[],
  fn: string,
  names: readonly string[],
  required: number,
  bound = 0,
): Map<string, unknown> {
  const { pos, kw } = splitArgs(args);
  if (pos.length > names.length) {
    const most = names.length + bound;
    const takes =
      required === names.length
        ? `${most} positional argument${most === 1 ? "" : "s"}`
        : `from ${required + bound} to ${most} positional arguments`;
    const given = pos.length + bound;
    throw new TemplateProblem(
      `TypeError: ${fn}() takes ${takes} but ${given} ${given === 1 ? "was" : "were"} given`,
    );
  }
  const given = new Map<string, unknown>(pos.map((v, i) => [names[i] as string, v]));
  for (const [k, v] of Object.entries(kw ?? {})) {
    if (!names.includes(k))
      throw new TemplateProblem(`TypeError: ${fn}() got an unexpected keyword argument '${k}'`);
    if (given.has(k)) throw new TemplateProblem(`TypeError: ${fn}() got multiple values for argument '${k}'`);
    given.set(k, v);
  }
  const missing = names.slice(0, required).filter((n) => !given.has(n));
  if (missing.length > 0)
    throw new TemplateProblem(`TypeError: ${fn}() missing ${missingArguments(missing)}`);
  return given;
}
