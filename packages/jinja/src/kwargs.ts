// nunjucks passes keyword arguments as a trailing object flagged `__keywords`; these helpers read them the way
// Python binds a call's arguments.
import { hasOwn } from "@merge/core";

export type Kwargs = Record<string, unknown>;

export function isKwargs(value: unknown): value is Kwargs {
  return typeof value === "object" && value !== null && hasOwn(value, "__keywords");
}

/** Splits `args` into positional values and keyword values (without the marker). */
export function splitArgs(args: readonly unknown[]): { pos: unknown[]; kw: Kwargs | undefined } {
  const last = args[args.length - 1];
  if (args.length > 0 && isKwargs(last)) {
    const kw: Kwargs = Object.create(null);
    for (const k in last) if (k !== "__keywords" && hasOwn(last, k)) kw[k] = last[k];
    return { pos: args.slice(0, -1), kw };
  }
  return { pos: args as unknown[], kw: undefined };
}

/** Binds Python-style parameters: positional first, then by name; missing ones get `undefined`. */
export function bindArgs(args: readonly unknown[], names: readonly string[], fn: string): unknown[] {
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
  return out;
}
