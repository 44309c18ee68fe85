// The globals Jinja gives every template (`range`, `dict`, `cycler`, `joiner`, `namespace`).
import { isDict } from "./pyvalues.js";
import { Namespace } from "./runtime.js";

/** Jinja's `cycler(...)`: `next()` returns the items in turn, `current` the one `next()` will return. */
class Cycler {
  private index = 0;
  constructor(private readonly items: readonly unknown[]) {}
  get current(): unknown {
    return this.items[this.index];
  }
  next(): unknown {
    const value = this.items[this.index];
    this.index = (this.index + 1) % Math.max(1, this.items.length);
    return value;
  }
  reset(): null {
    this.index = 0;
    return null;
  }
}

export function baseGlobals(): Record<string, unknown> {
  return {
    range: (start: number, stop?: number, step = 1) => {
      const [a, b] = stop === undefined ? [0, start] : [start, stop];
      const out: number[] = [];
      if (step > 0) for (let i = a; i < b; i += step) out.push(i);
      else if (step < 0) for (let i = a; i > b; i += step) out.push(i);
      return out;
    },
    dict: (...args: unknown[]) => {
      const out: Record<string, unknown> = {};
      for (const a of args)
        if (isDict(a)) for (const k of Object.keys(a)) if (k !== "__keywords") out[k] = a[k];
      return out;
    },
    cycler: (...items: unknown[]) => new Cycler(items),
    joiner: (sep: unknown = ", ") => {
      let first = true;
      return () => {
        if (first) {
          first = false;
          return "";
        }
        return sep;
      };
    },
    namespace: (...args: unknown[]) => {
      const init: Record<string, unknown> = {};
      for (const a of args)
        if (isDict(a)) for (const k of Object.keys(a)) if (k !== "__keywords") init[k] = a[k];
      return new Namespace(init);
    },
  };
}
