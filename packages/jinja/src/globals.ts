// The globals Jinja gives every template (`range`, `dict`, `cycler`, `joiner`, `namespace`).
import type { PyDict } from "@merge/core";
import { accountOf, buildCostOf, MAPPING_ENTRY_COST, RenderAccount, sizeOf } from "./budget.js";
import { TemplateProblem, typeError } from "./errors.js";
import { splitArgs } from "./kwargs.js";
import { pyDictCall, pyFromKeys } from "./pydict.js";
import { intValue } from "./numbers.js";
import { PyRange, pyTypeName } from "./pyvalues.js";
import { lipsum } from "./lipsum.js";
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

/**
 * Builds a mapping for a global, charged to the account of the render that called it (`this`): first by the size of
 * the iterable it is made from (so `dict.fromkeys(range(10**7))` stops before any entry is made), then by what it
 * holds.
 */
function charged(context: unknown, source: unknown, build: () => PyDict, what: string): PyDict {
  const account = accountOf(context);
  const charged = source === undefined ? 0 : sizeOf(source) * MAPPING_ENTRY_COST;
  if (account !== undefined && charged > 0) account.build(charged, what);
  const value = build();
  const cost = buildCostOf(value);
  if (account !== undefined && cost > charged) account.build(cost - charged, what);
  return value;
}

export function baseGlobals(): Record<string, unknown> {
  return {
    range(this: unknown, ...args: unknown[]): PyRange {
      const { pos, kw } = splitArgs(args);
      if (kw !== undefined) throw typeError("range() takes no keyword arguments");
      if (pos.length === 0 || pos.length > 3)
        throw typeError(
          `range expected ${pos.length === 0 ? "at least 1 argument" : "at most 3 arguments"}, got ${pos.length}`,
        );
      for (const n of pos) {
        if (intValue(n) === undefined)
          throw typeError(`'${pyTypeName(n)}' object cannot be interpreted as an integer`);
      }
      const [a, b, step] =
        pos.length === 1 ? [0, Number(pos[0]), 1] : [Number(pos[0]), Number(pos[1]), Number(pos[2] ?? 1)];
      if (step === 0) throw new TemplateProblem("ValueError: range() arg 3 must not be zero");
      // Python's range is lazy; ours holds its numbers, charged to the render's account before they are made.
      const count = Math.max(0, Math.ceil((b - a) / step));
      (accountOf(this) ?? new RenderAccount()).build(count, "range()");
      return PyRange.make(a, b, step);
    },
    // Python's `dict` type: callable, with the class method `dict.fromkeys`.
    dict: Object.defineProperty(
      function dict(this: unknown, ...args: unknown[]) {
        return charged(this, args[0], () => pyDictCall(args), "dict()");
      },
      "pyAttrs",
      {
        value: Object.freeze(
          Object.assign(Object.create(null), {
            fromkeys(this: unknown, ...args: unknown[]) {
              return charged(this, args[0], () => pyFromKeys(args), "dict.fromkeys()");
            },
          }),
        ),
      },
    ),
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
    namespace: (...args: unknown[]) => new Namespace(pyDictCall(args)),
    lipsum,
  };
}
