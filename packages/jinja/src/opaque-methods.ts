// Python's string methods in a render with opaque text on (see opaque.ts): each answers as the plain method answers
// for the plain text, and every piece it returns is cut out of the marked string at the same indices, so characters
// keep their marks (a minion's `/` split off a grain is still the minion's `/`).
import { isKeyword, isKwargs, makeKeywordArgs } from "./kwargs.js";
import { cutPiece, markText, plainOpaque } from "./opaque.js";
import { isSafeString, PyTuple } from "./pyvalues.js";

type Method = (self: never, args: readonly unknown[]) => unknown;
type Call = (name: string, self: string, args: readonly unknown[]) => unknown;

function textOf(self: unknown): string {
  return isSafeString(self) ? self.val : (self as string);
}

/** An argument as the plain method should see it: strings (also inside tuples and keyword arguments) unmarked. */
function plainArg(arg: unknown): unknown {
  if (typeof arg === "string") return plainOpaque(arg);
  if (isSafeString(arg)) return plainOpaque(arg.val);
  if (Array.isArray(arg)) return arg.map(plainArg);
  if (isKwargs(arg)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(arg)) if (isKeyword(arg, k)) out[k] = plainArg(arg[k]);
    return makeKeywordArgs(out);
  }
  return arg;
}

/** The keyword-or-positional argument `name` at position `at` (the separator of split, rsplit, partition). */
function argAt(args: readonly unknown[], at: number, name: string): unknown {
  const last = args[args.length - 1];
  if (args.length > 0 && isKwargs(last)) {
    if (name in last) return last[name];
    return at < args.length - 1 ? args[at] : undefined;
  }
  return args[at];
}

/**
 * The pieces `plain` (results of the plain method on `p`) cut out of the marked `s`. With `sep`, pieces and
 * separators alternate exactly; without, each piece starts at the first place after the previous one where it fits
 * (what lies between is white space or a line break, which never starts a piece). Should a piece not line up, every
 * piece is marked whole instead, which keeps both the answer and the marks safe.
 */
function cutOut(s: string, p: string, plain: readonly string[], sep: string | undefined): string[] {
  const out: string[] = [];
  let cursor = 0;
  for (const piece of plain) {
    let at = cursor;
    if (sep === undefined) while (at < p.length && !p.startsWith(piece, at)) at++;
    const cut = s.slice(at, at + piece.length);
    if (plainOpaque(cut) !== piece) return plain.map(markText);
    out.push(cutPiece(cut));
    cursor = at + piece.length + (sep === undefined ? 0 : sep.length);
  }
  return out;
}

/** Start and end of each occurrence of `old` in `p`, left to right and not overlapping (JavaScript's split). */
function occurrences(p: string, old: string): [number, number][] {
  const found: [number, number][] = [];
  if (old === "") {
    for (let i = 1; i < p.length; i++) found.push([i, i]);
    return found;
  }
  for (let i = p.indexOf(old); i !== -1; i = p.indexOf(old, i + old.length)) found.push([i, i + old.length]);
  return found;
}

/** The opaque versions of `base`'s string methods; methods not listed here are `base`'s own. */
export function opaqueStrMethods(base: Record<string, Method>): Record<string, Method> {
  const call: Call = (name, self, args) =>
    (base[name] as (s: unknown, a: readonly unknown[]) => unknown)(self, args);
  // Methods that answer about the text (a boolean, a number): the plain method on the plain text.
  const onPlain =
    (name: string): Method =>
    (self: never, args: readonly unknown[]) =>
      call(name, plainOpaque(textOf(self)), args.map(plainArg));
  const splitter =
    (name: string): Method =>
    (self: never, args: readonly unknown[]) => {
      const s = textOf(self);
      const p = plainOpaque(s);
      const plainArgs = args.map(plainArg);
      const pieces = call(name, p, plainArgs) as string[];
      const sep = argAt(plainArgs, 0, "sep");
      return cutOut(s, p, pieces, sep === undefined || sep === null ? undefined : String(sep));
    };
  const stripper =
    (name: string): Method =>
    (self: never, args: readonly unknown[]) => {
      const s = textOf(self);
      const p = plainOpaque(s);
      const plainArgs = args.map(plainArg);
      const kept = call(name, p, plainArgs) as string;
      const from = name === "rstrip" ? 0 : p.length - (call("lstrip", p, plainArgs) as string).length;
      return cutPiece(s.slice(from, from + kept.length));
    };
  const overrides: Record<string, Method> = {
    split: splitter("split"),
    rsplit: splitter("rsplit"),
    splitlines: (self: never, args: readonly unknown[]) => {
      const s = textOf(self);
      const p = plainOpaque(s);
      return cutOut(s, p, call("splitlines", p, args.map(plainArg)) as string[], undefined);
    },
    strip: stripper("strip"),
    lstrip: stripper("lstrip"),
    rstrip: stripper("rstrip"),
    partition: (self: never, args: readonly unknown[]) => {
      const s = textOf(self);
      const p = plainOpaque(s);
      const parts = call("partition", p, args.map(plainArg)) as string[];
      return PyTuple.of_(cutOut(s, p, parts, ""));
    },
    rpartition: (self: never, args: readonly unknown[]) => {
      const s = textOf(self);
      const p = plainOpaque(s);
      const parts = call("rpartition", p, args.map(plainArg)) as string[];
      return PyTuple.of_(cutOut(s, p, parts, ""));
    },
    // What is left is a piece of the text, cut out where the plain method leaves it.
    removeprefix: (self: never, args: readonly unknown[]) => {
      const s = textOf(self);
      const p = plainOpaque(s);
      const kept = call("removeprefix", p, args.map(plainArg)) as string;
      return kept.length === p.length ? s : cutPiece(s.slice(p.length - kept.length));
    },
    removesuffix: (self: never, args: readonly unknown[]) => {
      const s = textOf(self);
      const p = plainOpaque(s);
      const kept = call("removesuffix", p, args.map(plainArg)) as string;
      return kept.length === p.length ? s : cutPiece(s.slice(0, kept.length));
    },
    replace: (self: never, args: readonly unknown[]) => {
      const s = textOf(self);
      const p = plainOpaque(s);
      const rep = String(args[1]);
      const count = args.length > 2 ? Number(args[2]) : -1;
      const old = plainOpaque(String(args[0]));
      // Python inserts `new` before every character and at the end when `old` is empty (up to `count` times).
      if (old === "") {
        const chars = Array.from(s);
        const limit = count < 0 ? chars.length + 1 : Math.min(count, chars.length + 1);
        let out = "";
        for (let i = 0; i < chars.length; i++) out += (i < limit ? rep : "") + chars[i];
        return limit > chars.length ? out + rep : out;
      }
      const found = occurrences(p, old);
      const parts: string[] = [];
      let from = 0;
      for (const [a, b] of found) {
        parts.push(cutPiece(s.slice(from, a)));
        from = b;
      }
      parts.push(cutPiece(s.slice(from)));
      if (count < 0 || parts.length <= count + 1) return parts.join(rep);
      const rest = (found[count] as [number, number])[0];
      return parts.slice(0, count + 1).join(rep) + cutPiece(s.slice(rest));
    },
    zfill: (self: never, args: readonly unknown[]) => {
      const s = textOf(self);
      const p = plainOpaque(s);
      const width = Number(args[0]);
      if (p.length >= width) return s;
      const sign = p[0] === "-" || p[0] === "+" ? (s[0] as string) : "";
      return sign + "0".repeat(width - s.length) + s.slice(sign.length);
    },
  };
  for (const name of [
    "startswith",
    "endswith",
    "find",
    "rfind",
    "index",
    "rindex",
    "count",
    "isdigit",
    "isnumeric",
    "isalpha",
    "isalnum",
    "isspace",
    "islower",
    "isupper",
    "isdecimal",
    "isidentifier",
    "istitle",
  ]) {
    if (base[name] !== undefined) overrides[name] = onPlain(name);
  }
  return Object.assign(Object.create(null), base, overrides);
}
