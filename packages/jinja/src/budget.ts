// The resource account of one render. A template is code, and a few characters of it can ask for more than the
// process has (`[1] * 10**9`, `'x'.center(10**9)`, loops nested ten deep): where such costs arise — a value being
// built, text being written, a loop starting, a macro being called — the cost is charged to the account of the
// render, and a charge past a limit stops the render with a `TEMPLATE_LIMIT` error before the work is done.
import { isPlainObject, MergeError, PyDict } from "@merge/core";
import { TemplateProblem } from "./errors.js";

/** The limits of one render; every render of a renderer starts with a fresh account. */
export interface TemplateLimits {
  /** Characters a render may write: its output and the text of macros, call blocks and block `set`s. */
  readonly output?: number;
  /** Items (characters of a string, elements of a list) of the largest value one operation may build. */
  readonly valueSize?: number;
  /** Items all the values one render builds may hold together. */
  readonly built?: number;
  /**
   * Steps of one render: loop iterations, macro calls, the items of a list or mapping a filter goes through
   * (n·log2(n) for a sort) and the items `in` or `list.index` scan.
   */
  readonly steps?: number;
  /** Macro calls and recursive loop levels inside one another. */
  readonly depth?: number;
}

/** The defaults: far above what configuration templates do, low enough to fail within a second. */
export const DEFAULT_LIMITS: Readonly<Required<TemplateLimits>> = Object.freeze({
  output: 2 ** 25,
  valueSize: 2 ** 21,
  built: 2 ** 24,
  steps: 1_000_000,
  depth: 250,
});

/** The limits with the defaults filled in; a limit that is not a positive number is a `TEMPLATE_LIMIT` error. */
export function resolveLimits(limits: TemplateLimits | undefined): Required<TemplateLimits> {
  const out = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof TemplateLimits)[]) {
    const value = limits?.[key];
    if (value === undefined) continue;
    if (typeof value !== "number" || !(value > 0))
      throw new MergeError("TEMPLATE_LIMIT", `limits.${key} must be a positive number, not ${String(value)}`);
    out[key] = value;
  }
  return out;
}

export function limitError(message: string): TemplateProblem {
  return new TemplateProblem(message, { code: "TEMPLATE_LIMIT" });
}

/** What one render has spent so far. */
export class RenderAccount {
  output = 0;
  built = 0;
  steps = 0;
  depth = 0;
  constructor(readonly limits: Readonly<Required<TemplateLimits>> = DEFAULT_LIMITS) {}

  /** Text about to be written. */
  write(length: number): void {
    this.output += length;
    if (this.output > this.limits.output)
      throw limitError(`the output passes ${this.limits.output} characters (limits.output)`);
  }

  /** A value of `size` items about to be built (`what` names the operation for the message). */
  build(size: number, what: string): void {
    if (!(size <= this.limits.valueSize))
      throw limitError(
        `${what} would build a value of ${size > 1e15 ? size.toExponential(2) : size} items, more than ${this.limits.valueSize} (limits.valueSize)`,
      );
    this.built += size;
    if (this.built > this.limits.built)
      throw limitError(`the values built pass ${this.limits.built} items in total (limits.built)`);
  }

  /**
   * A value of `size` items about to be made by joining values that already exist, of which only `added` are new
   * (JavaScript shares the longer side of a string concatenation instead of copying it).
   */
  grow(size: number, added: number, what: string): void {
    if (!(size <= this.limits.valueSize)) this.build(size, what);
    this.build(added, what);
  }

  /** `count` steps about to run (loop iterations, calls, items visited). */
  step(count: number): void {
    this.steps += count;
    if (this.steps > this.limits.steps)
      throw limitError(
        `more than ${this.limits.steps} steps: loop iterations, macro calls, items filters go through (limits.steps)`,
      );
  }

  /** A macro call or recursive loop level begins; `leave()` when it ends. */
  enter(): void {
    this.step(1);
    if (++this.depth > this.limits.depth) {
      this.depth = 0;
      throw limitError(`macro calls or recursive loops nest deeper than ${this.limits.depth} (limits.depth)`);
    }
  }

  leave(): void {
    if (this.depth > 0) this.depth--;
  }
}

/** The render's account, from the template context a function was called with (`this`). */
export function accountOf(context: unknown): RenderAccount | undefined {
  return (context as { env?: { pyState?: { account?: RenderAccount } } } | undefined)?.env?.pyState?.account;
}

/**
 * What one entry of a mapping costs against `valueSize` and `built`, in items. A mapping entry takes V8 about as
 * long to make as sixteen list items (hashing, a Map slot, Python's key equality), so `dict.fromkeys(range(n))` is
 * held to the same time as a list sixteen times longer.
 */
export const MAPPING_ENTRY_COST = 16;

/** What building `value` costs in items: characters of text, items of a list, `MAPPING_ENTRY_COST` per entry. */
export function buildCostOf(value: unknown): number {
  if (value instanceof PyDict) return value.size * MAPPING_ENTRY_COST;
  if (isPlainObject(value)) return Object.keys(value).length * MAPPING_ENTRY_COST;
  return sizeOf(value);
}

/** The size of a value an operation returned: characters of text, items of a list or a mapping. */
export function sizeOf(value: unknown): number {
  if (typeof value === "string") return value.length;
  if (Array.isArray(value)) return value.length;
  if (value instanceof PyDict) return value.size;
  if (isPlainObject(value)) return Object.keys(value).length;
  if (value !== null && typeof value === "object") {
    const text = (value as { val?: unknown }).val;
    if (typeof text === "string") return text.length;
  }
  return 1;
}

/**
 * A JavaScript engine limit reached anyway (a string or array longer than V8 allows, a BigInt too large, the call
 * stack) as a `TEMPLATE_LIMIT` problem, or undefined for any other error.
 */
export function engineLimit(e: unknown): TemplateProblem | undefined {
  if (!(e instanceof RangeError)) return undefined;
  if (/Invalid (string|array|typed array) length|Maximum BigInt size|Maximum call stack/i.test(e.message))
    return new TemplateProblem(`the template reached a limit of the JavaScript engine: ${e.message}`, {
      code: "TEMPLATE_LIMIT",
      cause: e,
    });
  return undefined;
}
