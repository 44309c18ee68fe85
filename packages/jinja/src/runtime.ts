// The runtime the compiled templates call (compiler.ts emits `runtime.pyXxx(...)`). It inherits nunjucks'
// runtime (Frame, SafeString, contextOrFrameLookup, makeKeywordArgs) and adds Python semantics. It is passed
// to our templates only; nunjucks' own runtime object is left untouched.
import {
  getItem,
  hasOwn,
  isMapping,
  isMergeError,
  type Mapping,
  mappingKeys,
  PyDict,
  pyFloat,
  setKey,
} from "@merge/core";
import {
  type LookupMiss,
  MISSES_KEPT,
  missMessage,
  TemplateProblem,
  typeError,
  UndefinedOperand,
  undefinedError,
  undefinedUse,
} from "./errors.js";
import { isKeyword, isKwargs, makeKeywordArgs } from "./kwargs.js";
import { accountOf, buildCostOf, engineLimit, type RenderAccount } from "./budget.js";
import { chargedAdd, chargedConcat, chargedIn, chargedMod, chargedMul, chargedPow } from "./charged.js";
import {
  DICT_METHODS,
  LIST_METHODS,
  methodBuilds,
  methodTable,
  STR_METHODS,
  VIEW_METHODS,
} from "./methods.js";
import { njRuntime } from "./nunjucks-internals.js";
import { numberAttribute } from "./numeric.js";
import { TemplateRef, templateRef } from "./template-ref.js";
import { intValue, isNumber } from "./numbers.js";
import { cutPiece, findItem, NOT_FOUND, opaqueActive } from "./opaque.js";
import { pyCompare, pyDiv, pyFloorDiv, pyNeg, pyPos, pySub, textOf } from "./operators.js";
import { pyDictLiteral } from "./pydict.js";
import {
  DictView,
  PyRange,
  GroupTuple,
  PY_REPR,
  PyTuple,
  pyBool,
  pyEq,
  pyRepr,
  pyStr,
  pyTypeName,
} from "./pyvalues.js";

/** The environment side of a render that the runtime needs (implemented by the renderer). */
export interface RuntimeHost {
  pyImport(kind: string, name: string, context: unknown, withContext: boolean, frame: unknown): unknown;
  pyParse(kind: string, text: string): unknown;
}

const MISSING: unique symbol = Symbol("missing");

/**
 * Jinja's `namespace()`: the one object `{% set ns.x = ... %}` may change. Its attributes are names (a key of the
 * mapping it starts from that is not a string is kept under its `str()`).
 */
export class Namespace {
  constructor(init?: Mapping) {
    if (init)
      for (const k of mappingKeys(init))
        setKey(
          this as unknown as Record<string, unknown>,
          typeof k === "string" ? k : pyStr(k),
          getItem(init, k),
        );
  }

  /** Jinja's `<Namespace {'a': 1}>` (its attributes as a dict). */
  [PY_REPR](seen: Set<unknown>): string {
    const own = this as unknown as Record<string, unknown>;
    const parts = Object.keys(own).map((k) => `${pyRepr(k, seen)}: ${pyRepr(own[k], seen)}`);
    return `<Namespace {${parts.join(", ")}}>`;
  }
}

/** The `loop` variable of a for loop; `loop(items)` renders a `recursive` loop's body one level deeper. */
export class PyLoop {
  index0 = 0;
  constructor(
    private readonly items: readonly unknown[],
    readonly depth0: number = 0,
    private readonly recurse: ((items: unknown, depth0: number) => string) | null = null,
  ) {}
  /** `loop(items)`. */
  pyCall(args: readonly unknown[]): string {
    if (this.recurse === null)
      throw typeError("The loop must have the 'recursive' marker to be called recursively.");
    if (args.length !== 1 || isKwargs(args[0]))
      throw typeError(
        `LoopContext.__call__() takes 2 positional arguments but ${args.length + 1} were given`,
      );
    return this.recurse(args[0], this.depth0 + 1);
  }
  toString(): string {
    return `<LoopContext ${this.index}/${this.length}>`;
  }
  get index(): number {
    return this.index0 + 1;
  }
  get revindex(): number {
    return this.items.length - this.index0;
  }
  get revindex0(): number {
    return this.items.length - this.index0 - 1;
  }
  get first(): boolean {
    return this.index0 === 0;
  }
  get last(): boolean {
    return this.index0 === this.items.length - 1;
  }
  get length(): number {
    return this.items.length;
  }
  get previtem(): unknown {
    return this.index0 > 0 ? this.items[this.index0 - 1] : undefined;
  }
  get nextitem(): unknown {
    return this.items[this.index0 + 1];
  }
  get depth(): number {
    return this.depth0 + 1;
  }
  private lastChanged: unknown[] | undefined;
  /** True on the first call and whenever the arguments differ from the previous call's. */
  changed(...args: unknown[]): boolean {
    if (this.lastChanged !== undefined && pyEq(this.lastChanged, args)) return false;
    this.lastChanged = args;
    return true;
  }
  cycle(...args: unknown[]): unknown {
    if (args.length === 0) throw new TemplateProblem("TypeError: no items for cycling given");
    return args[this.index0 % args.length];
  }
}

/**
 * Attribute names never read from non-dict objects: they lead to constructors (and so to `Function`), which a
 * template must not reach. Functions expose no attributes at all.
 */
const HIDDEN = new Set([
  "constructor",
  "prototype",
  "__proto__",
  "__defineGetter__",
  "__defineSetter__",
  "__lookupGetter__",
  "__lookupSetter__",
  "call",
  "apply",
  "bind",
]);

function objectAttr(obj: object, name: string | number): unknown {
  // A namespace's attributes are the data it holds, whatever their names.
  if (obj instanceof Namespace)
    return hasOwn(obj, String(name)) ? (obj as unknown as Record<string, unknown>)[name] : undefined;
  // `self` has its blocks as attributes, and nothing else.
  if (obj instanceof TemplateRef)
    return hasOwn(obj, String(name)) ? (obj as unknown as Record<string, unknown>)[name] : undefined;
  // A function exposes only the attributes it declares (the `dict` global's `fromkeys`).
  if (typeof obj === "function") {
    const attrs = (obj as { pyAttrs?: Record<string, unknown> }).pyAttrs;
    return attrs !== undefined && hasOwn(attrs, String(name)) ? attrs[name] : undefined;
  }
  if (HIDDEN.has(String(name))) return undefined;
  const v = (obj as Record<string, unknown>)[name];
  if (
    typeof v === "function" &&
    !hasOwn(obj, String(name)) &&
    (Object.prototype as Record<string, unknown>)[name] === v
  ) {
    return undefined;
  }
  return typeof v === "function" ? v.bind(obj) : v;
}

/** A call's keyword arguments (`f(a=1)`), before nunjucks marks them: a plain object of names. */
function pyKwargs(flat: readonly unknown[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < flat.length; i += 2) setKey(out, flat[i] as string, flat[i + 1]);
  return out;
}

function chars(s: string): string[] | string {
  return /[\uD800-\uDFFF]/.test(s) ? Array.from(s) : s;
}

function seqIndex(len: number, key: unknown): number | undefined {
  if (typeof key === "boolean") return key ? 1 : 0;
  if (typeof key !== "number" || !Number.isInteger(key)) return undefined;
  const i = key < 0 ? len + key : key;
  return i >= 0 && i < len ? i : -1;
}

type MethodFn = (s: unknown, a: readonly unknown[], account?: RenderAccount) => unknown;

/** Calls a Python method, charging what it builds to the render's account. */
function callMethod(
  table: Record<string, MethodFn>,
  name: string,
  self: unknown,
  args: readonly unknown[],
  account: RenderAccount | undefined,
): unknown {
  // A method call is a step, as a macro call is: a loop of `d.update(...)` is held to the steps of the loop.
  account?.step(1);
  const result = (table[name] as MethodFn)(self, args, account);
  if (account !== undefined && methodBuilds(table, name))
    account.build(buildCostOf(result), `the method ${name}`);
  return result;
}

function boundMethod(
  self: unknown,
  table: Record<string, (s: never, a: readonly unknown[]) => unknown>,
  name: string,
) {
  // Templates call functions with their context as `this` (pyCall), which leads to the render's account.
  const bound = function (this: unknown, ...args: unknown[]) {
    return callMethod(table as Record<string, MethodFn>, name, self, args, accountOf(this));
  };
  Object.defineProperty(bound, "pyRepr", {
    value: `<built-in method ${name} of ${pyTypeName(self)} object>`,
  });
  return bound;
}

/** Where a render keeps its last lookup that found nothing (see `LookupMiss`); compiled code passes `env.pyState`. */
interface MissState {
  misses?: LookupMiss[];
  readonly account?: RenderAccount;
}

/** Notes a lookup that found nothing (the latest MISSES_KEPT are kept). */
function noteMiss(state: MissState, desc: string, obj: unknown, name: unknown, message?: string): void {
  if (state.misses === undefined) state.misses = [];
  const misses = state.misses;
  if (misses.length === MISSES_KEPT) misses.shift();
  misses.push(message === undefined ? { desc, obj, name } : { desc, obj, name, message });
}

/** Jinja's `object_type_repr`: how its messages name a value's type (`dict object`, `None`). */
function objectTypeRepr(value: unknown): string {
  if (value === null) return "None";
  if (value instanceof PyLoop) return "jinja2.runtime.LoopContext object";
  if (value instanceof Namespace) return "jinja2.utils.Namespace object";
  if (value instanceof TemplateRef) return "jinja2.runtime.TemplateReference object";
  const name = pyTypeName(value);
  if (name === "Markup") return "markupsafe.Markup object";
  // Opaque host values (opaque.ts) are strings to the template.
  return `${textOf(value) !== undefined ? "str" : name} object`;
}

/** The UndefinedError for using the undefined value of expression `desc` (Jinja's message when it was a miss). */
function undefinedAt(desc: string, state: MissState | undefined): TemplateProblem {
  return undefinedUse(desc, state?.misses, objectTypeRepr, pyRepr);
}

/** Jinja's error for looking `name` up on `obj` (which has no such attribute) and calling or using it. */
export function missProblem(obj: unknown, name: unknown): TemplateProblem {
  return new TemplateProblem(missMessage(obj, name, objectTypeRepr, pyRepr));
}

/**
 * `obj[key]`: item first, then attribute (Jinja's getitem). `desc` is the text of `obj`'s expression, `own` this
 * one's: a lookup that finds nothing is noted in `state`, so that using its undefined value says what Jinja says.
 */
function pyGetitem(obj: unknown, key: unknown, desc: string, state?: MissState, own?: string): unknown {
  if (obj === undefined) throw undefinedAt(desc, state);
  const found = itemOf(obj, key);
  if (found === undefined && state !== undefined && own !== undefined) noteMiss(state, own, obj, key);
  return found;
}

function itemOf(obj: unknown, key: unknown): unknown {
  if (obj === null) return undefined;
  // A dict view has no items (`d.keys()[0]` is undefined in Python 3), only its one method.
  if (obj instanceof DictView)
    return typeof key === "string" && VIEW_METHODS[key] ? boundMethod(obj, VIEW_METHODS, key) : undefined;
  if (Array.isArray(obj)) {
    const i = seqIndex(obj.length, key);
    if (i !== undefined) return i === -1 ? undefined : obj[i];
    if (typeof key === "string" && LIST_METHODS[key]) return boundMethod(obj, LIST_METHODS, key);
    return undefined;
  }
  const s = textOf(obj);
  if (s !== undefined) {
    const cs = chars(s);
    const i = seqIndex(cs.length, key);
    if (i !== undefined) return i === -1 ? undefined : cutPiece(cs[i] as string);
    const methods = methodTable(s) ?? STR_METHODS;
    if (typeof key === "string" && methods[key]) return boundMethod(s, methods, key);
    return undefined;
  }
  if (isMapping(obj)) {
    // Jinja's getitem: `obj[key]`, then (for a string key) the attribute; an unhashable key is undefined.
    let found: unknown;
    try {
      found = findItem(obj, key);
    } catch (e) {
      if (isMergeError(e) && e.code === "UNHASHABLE_KEY") return undefined;
      throw e;
    }
    if (found !== NOT_FOUND) return found;
    if (typeof key === "string" && DICT_METHODS[key]) return boundMethod(obj, DICT_METHODS, key);
    return undefined;
  }
  if (obj instanceof Map) return obj.get(key);
  // `x['real']` is `x.real`, as Jinja's getitem falls back to the attribute.
  if (isNumber(obj)) return typeof key === "string" ? attrOf(obj, key) : undefined;
  if (typeof obj === "object" && (typeof key === "string" || typeof key === "number"))
    return objectAttr(obj, key);
  return undefined;
}

/**
 * `obj.name`: attribute first (so `d.items` is the method even if `d` has an `items` key), then item. `desc` is the
 * text of `obj`'s expression; a lookup that finds nothing is noted in `state` (see `pyGetitem`).
 */
function pyGetattr(obj: unknown, name: string, desc: string, state?: MissState): unknown {
  if (obj === undefined) throw undefinedAt(desc, state);
  const found = attrOf(obj, name);
  // A namespace attribute set to an undefined value is there: its own note (pyUndefinedSet) speaks for it.
  if (found === undefined && state !== undefined && !(obj instanceof Namespace && hasOwn(obj, name)))
    noteMiss(state, `${desc}.${name}`, obj, name);
  return found;
}

/** A range's data attributes. */
const RANGE_ATTRIBUTES = new Set(["start", "stop", "step"]);

function attrOf(obj: unknown, name: string): unknown {
  if (obj === null) return undefined;
  const table = methodTable(obj);
  if (table !== undefined) {
    if (table[name]) return boundMethod(obj, table, name);
    if (isMapping(obj)) {
      const found = findItem(obj, name);
      return found === NOT_FOUND ? undefined : found;
    }
    // Named tuples (groupby's items) have attributes besides their list methods.
    if (Array.isArray(obj) && obj instanceof PyTuple && obj.constructor !== PyTuple)
      return objectAttr(obj, name);
    if (obj instanceof PyRange) return RANGE_ATTRIBUTES.has(name) ? obj[name as "start"] : undefined;
    // Numbers have data attributes too (`x.real`), and nothing of their JavaScript form.
    return numberAttribute(obj, name);
  }
  if (typeof obj === "object") return obj instanceof Map ? obj.get(name) : objectAttr(obj, name);
  return typeof obj === "function" ? objectAttr(obj, name) : undefined;
}

/** `obj.name(args)` without allocating a bound method. `state` is the render's (`env.pyState`). */
function pyCallAttr(obj: unknown, name: string, args: unknown[], desc: string, state?: MissState): unknown {
  if (obj === undefined) throw undefinedAt(desc, state);
  if (obj === null) throw missProblem(null, name);
  const account = state?.account;
  const table = methodTable(obj);
  if (table !== undefined) {
    if (table[name] !== undefined)
      return callMethod(table as Record<string, MethodFn>, name, obj, args, account);
    if (isMapping(obj)) {
      const fn = findItem(obj, name);
      if (typeof fn === "function") return (fn as (...a: unknown[]) => unknown)(...args);
      if (fn !== NOT_FOUND && fn !== undefined) throw notCallable(fn);
    }
    const attribute = numberAttribute(obj, name);
    if (attribute !== undefined) throw notCallable(attribute);
    throw missProblem(obj, name);
  }
  const fn = typeof obj === "object" || typeof obj === "function" ? objectAttr(obj, name) : undefined;
  if (typeof fn !== "function") throw fn === undefined ? missProblem(obj, name) : notCallable(fn);
  // A function's declared attributes (`dict.fromkeys`) charge the render's account, which they find as globals do.
  if (typeof obj === "function" && account !== undefined)
    return (fn as (...a: unknown[]) => unknown).call({ env: { pyState: { account } } }, ...args);
  return (fn as (...a: unknown[]) => unknown)(...args);
}

/** Python's TypeError for calling a value that is not a function. */
function notCallable(value: unknown): TemplateProblem {
  return typeError(`'${pyTypeName(value)}' object is not callable`);
}

/**
 * Calls filter or test `fn` with `args`. When it fails on an undefined value (`UndefinedOperand`), the first undefined
 * argument gets Jinja's message for its expression (`names`: JSON, the texts of the first arguments).
 */
function pyChecked(
  fn: (...a: unknown[]) => unknown,
  context: unknown,
  args: unknown[],
  names: string,
  state: MissState | undefined,
): unknown {
  try {
    return fn.apply(context, args);
  } catch (error) {
    throw operandFailure(error, args, names, state);
  }
}

/** Operator `fn` on `a` (and `b`), its failure on an undefined operand named as `pyChecked` names it. */
function pyOp(
  fn: (a: unknown, b: unknown, account: RenderAccount | undefined) => unknown,
  a: unknown,
  b: unknown,
  account: RenderAccount | undefined,
  names: string,
  state: MissState | undefined,
): unknown {
  try {
    return fn(a, b, account);
  } catch (error) {
    throw operandFailure(error, [a, b], names, state);
  }
}

/** An ordering comparison (`<`, `>=`, ...) as `pyOp` runs an operator. */
function pyCompareOp(
  op: string,
  names: string,
  state: MissState | undefined,
  a: unknown,
  b: unknown,
): boolean {
  try {
    return pyCompare(op, a, b);
  } catch (error) {
    throw operandFailure(error, [a, b], names, state);
  }
}

/**
 * The error to raise for `error`: when it is a failure on an undefined operand, Jinja's message for the first
 * undefined one of `operands` (as Python fails on the left-most), if `names` (JSON, `null` for an expression that
 * cannot be named) names it; else `error` itself.
 */
function operandFailure(
  error: unknown,
  operands: readonly unknown[],
  names: string,
  state: MissState | undefined,
): unknown {
  if (!(error instanceof UndefinedOperand)) return error;
  const i = operands.indexOf(undefined);
  const desc = i === -1 ? undefined : (JSON.parse(names) as (string | null)[])[i];
  return desc === null || desc === undefined ? error : undefinedAt(desc, state);
}

function pyCall(fn: unknown, args: unknown[], desc: string, context: unknown): unknown {
  if (typeof fn === "function") return (fn as (...a: unknown[]) => unknown).apply(context, args);
  if (fn === undefined)
    throw undefinedAt(desc, (context as { env?: { pyState?: MissState } } | undefined)?.env?.pyState);
  if (fn instanceof PyLoop) return fn.pyCall(args);
  throw notCallable(fn);
}

/**
 * A call's arguments from its parts (`f(a, *rest, k=v, **more)`): positional values, the items of the `*` iterable,
 * then the keywords and the entries of the `**` mapping as nunjucks' trailing keyword object. A splat arrives as
 * `[value]`, or `null` when the call has none.
 */
function pyCallArgs(
  positional: unknown[],
  star: [unknown] | null,
  keywords: Record<string, unknown> | null,
  starstar: [unknown] | null,
  starstarDesc: string,
): unknown[] {
  const args = positional;
  if (star !== null && star[0] !== undefined) {
    let items: readonly unknown[];
    try {
      items = pyIter(star[0], "");
    } catch {
      throw typeError(`Value after * must be an iterable, not ${pyTypeName(star[0])}`);
    }
    for (const item of items) args.push(item);
  }
  let kw = keywords;
  if (starstar !== null) {
    const more = starstar[0];
    if (more === undefined) throw undefinedError(starstarDesc);
    if (!isMapping(more)) throw typeError(`argument after ** must be a mapping, not ${pyTypeName(more)}`);
    kw ??= {};
    for (const k of mappingKeys(more)) {
      if (typeof k !== "string") throw typeError("keywords must be strings");
      if (hasOwn(kw, k)) throw typeError(`got multiple values for keyword argument '${k}'`);
      setKey(kw, k, getItem(more, k));
    }
  }
  if (kw !== null && Object.keys(kw).length > 0) args.push(makeKeywordArgs(kw));
  return args;
}

/** Python iteration: dict → keys, str → characters, undefined → nothing. */
function pyIter(value: unknown, desc: string): readonly unknown[] {
  if (Array.isArray(value)) return value;
  if (value === undefined) return [];
  if (isMapping(value)) return mappingKeys(value);
  const s = textOf(value);
  if (s !== undefined) return opaqueActive() ? Array.from(s, cutPiece) : Array.from(s);
  if (value instanceof Map) return [...value.keys()];
  if (value instanceof Set) return [...value];
  if (value !== null && typeof value === "object" && Symbol.iterator in value) {
    return Array.from(value as Iterable<unknown>);
  }
  if (value === null && desc !== "") throw typeError("'NoneType' object is not iterable");
  throw typeError(`'${pyTypeName(value)}' object is not iterable`);
}

function pyUnpack(value: unknown, n: number): readonly unknown[] {
  const items = pyIter(value, "unpacking");
  if (items.length !== n) {
    throw new TemplateProblem(
      items.length > n
        ? `ValueError: too many values to unpack (expected ${n})`
        : `ValueError: not enough values to unpack (expected ${n}, got ${items.length})`,
    );
  }
  return items;
}

/** A slice bound or step: an int (bool included) or None; anything else is Python's TypeError. */
function sliceInt(i: unknown): number {
  const n = intValue(i);
  if (n === undefined) throw typeError("slice indices must be integers or None or have an __index__ method");
  return Number(n);
}

function normIndex(i: unknown, len: number, def: number, step: number): number {
  if (i === null || i === undefined) return def;
  let n = sliceInt(i);
  if (n < 0) n += len;
  if (step > 0) return Math.min(Math.max(n, 0), len);
  return Math.min(Math.max(n, -1), len - 1);
}

function pySlice(
  obj: unknown,
  start: unknown,
  stop: unknown,
  stepArg: unknown,
  desc = "sliced value",
  state?: MissState,
): unknown {
  if (obj === undefined) throw undefinedAt(desc, state);
  const s = textOf(obj);
  const seq: readonly unknown[] | undefined =
    s !== undefined ? Array.from(s) : Array.isArray(obj) && !(obj instanceof DictView) ? obj : undefined;
  if (seq === undefined) throw typeError(`'${pyTypeName(obj)}' object is not subscriptable`);
  const step = stepArg === null || stepArg === undefined ? 1 : sliceInt(stepArg);
  if (step === 0) throw new TemplateProblem("ValueError: slice step cannot be zero");
  const len = seq.length;
  const a = normIndex(start, len, step > 0 ? 0 : len - 1, step);
  const b = normIndex(stop, len, step > 0 ? len : -1, step);
  // A range sliced is a range: from its a-th number, to its b-th, by its step times the slice's.
  if (obj instanceof PyRange)
    return PyRange.make(obj.start + a * obj.step, obj.start + b * obj.step, obj.step * step);
  const out: unknown[] = [];
  if (step > 0) for (let i = a; i < b; i += step) out.push(seq[i]);
  else for (let i = a; i > b; i += step) out.push(seq[i]);
  if (s !== undefined) return cutPiece(out.join(""));
  return obj instanceof PyTuple ? PyTuple.of_(out) : out;
}

/**
 * A name: the current scopes, then the template's variables, then the globals — never an inherited property
 * (`constructor`, `toString`) of nunjucks' context object.
 */
function pyLookup(
  context: { ctx: Record<string, unknown>; env: { globals: Record<string, unknown> } },
  frame: { lookup(name: string): unknown },
  name: string,
): unknown {
  const v = frame.lookup(name);
  if (v !== undefined) return v;
  if (hasOwn(context.ctx, name)) return context.ctx[name];
  const globals = context.env.globals;
  return name in globals ? globals[name] : undefined;
}

/** `self`: a `self` the template set (in a frame around this one), else Jinja's `TemplateReference`. */
function pySelf(
  env: unknown,
  context: Parameters<typeof templateRef>[1],
  frame: { lookup(name: string): unknown },
) {
  const own = frame.lookup("self");
  return own !== undefined ? own : templateRef(env, context, pyRuntime);
}

/**
 * `{% set name = value %}`: assigns where the name already lives, up to the nearest loop/macro scope (Jinja's
 * scoping), else in the current frame. Frame.set would do this too but splits the name on every call.
 */
function pySetVar(
  frame: { variables: Record<string, unknown>; parent?: unknown; isolateWrites?: boolean },
  name: string,
  value: unknown,
): void {
  let f = frame;
  for (;;) {
    if (f.variables[name] !== undefined) {
      f.variables[name] = value;
      return;
    }
    if (f.isolateWrites || f.parent === undefined || f.parent === null) break;
    f = f.parent as typeof frame;
  }
  frame.variables[name] = value;
}

function pySetAttr(obj: unknown, key: unknown, value: unknown): void {
  if (!(obj instanceof Namespace))
    throw new TemplateProblem("cannot assign attribute on non-namespace object");
  setKey(obj as unknown as Record<string, unknown>, String(key), value);
}

interface MacroCall {
  args: unknown[];
  varargs: PyTuple;
  kwargs: PyDict;
  caller: unknown;
}

function pyMacro(
  name: string,
  params: readonly string[],
  usesVarargs: boolean,
  usesKwargs: boolean,
  usesCaller: boolean,
  anonymous: boolean,
  body: (call: MacroCall) => unknown,
): (...args: unknown[]) => unknown {
  const macro = function macro(...callArgs: unknown[]): unknown {
    let n = callArgs.length;
    const kw = n > 0 && isKwargs(callArgs[n - 1]) ? (callArgs[n - 1] as Record<string, unknown>) : undefined;
    if (kw !== undefined) n--;
    const args: unknown[] = new Array(params.length).fill(MISSING);
    const given = Math.min(n, params.length);
    for (let i = 0; i < given; i++) args[i] = callArgs[i];
    // As Jinja's Macro: a keyword fills a parameter no positional argument filled; any other keyword (even one
    // naming a parameter filled by position) goes to `kwargs`, or is an error when the macro does not use it.
    const rest = new PyDict();
    let caller: unknown;
    if (kw !== undefined) {
      for (const k in kw) {
        if (!isKeyword(kw, k)) continue;
        const i = params.indexOf(k);
        if (k === "caller" && usesCaller) caller = kw[k];
        else if (i >= given) args[i] = kw[k];
        else rest.set(k, kw[k]);
      }
    }
    const extra = rest.keyList();
    if (!usesKwargs && extra.length > 0) {
      if (rest.has("caller"))
        throw typeError(
          `macro '${name}' was invoked with two values for the special caller argument. This is most likely a bug.`,
        );
      throw typeError(`macro '${name}' takes no keyword argument '${extra[0]}'`);
    }
    if (n > params.length && !usesVarargs) {
      throw typeError(`macro '${name}' takes not more than ${params.length} argument(s)`);
    }
    const varargs = PyTuple.of_(n > params.length ? callArgs.slice(params.length, n) : []);
    return body({ args, varargs, kwargs: rest, caller });
  };
  // What Jinja's Macro object shows a template: `m.name`, `m.arguments`, ... and `<Macro 'm'>` when printed. A call
  // block's `caller` has no name there.
  Object.defineProperty(macro, "pyAttrs", {
    value: {
      name: anonymous ? null : name,
      arguments: PyTuple.of_(params),
      catch_kwargs: usesKwargs,
      catch_varargs: usesVarargs,
      caller: usesCaller,
    },
  });
  Object.defineProperty(macro, "pyRepr", { value: `<Macro ${anonymous ? "anonymous" : pyRepr(name)}>` });
  return macro;
}

/**
 * `{% set name = source %}` gave `name` an undefined value: in Jinja that value still carries the message of the
 * lookup that made it (`'dict object' has no attribute 'x'`), or of the undefined name it was read from (`'foo' is
 * undefined`). The render notes it under `name`; a note for `name` left from an earlier value is overtaken (see
 * undefinedAt, which takes the latest note).
 */
function pyUndefinedSet(
  state: MissState | undefined,
  name: string,
  source: string,
  sourceIsName: boolean,
): void {
  if (state === undefined) return;
  const misses = state.misses ?? [];
  for (let i = misses.length - 1; i >= 0; i--) {
    const miss = misses[i] as LookupMiss;
    if (miss.desc === source) {
      noteMiss(state, name, miss.obj, miss.name, miss.message);
      return;
    }
  }
  noteMiss(state, name, undefined, name, `'${sourceIsName ? source : name}' is undefined`);
}

/**
 * `name` holds an undefined value whose use fails with `hint` (Jinja's message for it): a macro parameter nobody
 * passed, `caller` without a call block, a name `{% from %}` did not find, a false inline `if` without `else`. Without
 * a hint (a parameter or loop variable bound to an undefined value) the note only keeps another variable's note of
 * that name from speaking for it.
 */
function pyUndefinedBound(state: MissState | undefined, name: string, hint?: string): undefined {
  if (state !== undefined) noteMiss(state, name, undefined, name, hint ?? `'${name}' is undefined`);
  return undefined;
}

/**
 * What `default(fallback)` gave, described as `desc`: when it is undefined it is the fallback's undefined value, and
 * its use fails with the fallback's message (`'y' is undefined` for `x|default(y)`), as in Jinja.
 */
function pyDefaulted(
  value: unknown,
  state: MissState | undefined,
  desc: string,
  fallback: string,
  fallbackIsName: boolean,
): unknown {
  if (value === undefined) pyUndefinedSet(state, desc, fallback, fallbackIsName);
  return value;
}

/** A filter's result: when it is undefined, using it fails with `hint` (`No first item, sequence was empty.`). */
function pyHinted(value: unknown, state: MissState | undefined, desc: string, hint: string): unknown {
  if (value === undefined) pyUndefinedBound(state, desc, hint);
  return value;
}

/** `super()` inside a block: renders the parent template's block (synchronously, as all our rendering is). */
function pySuper(
  env: unknown,
  context: { getSuper(...a: unknown[]): void; blocks: Record<string, { pyCompiled?: unknown }[]> },
  name: string,
  block: unknown,
  frame: unknown,
): string {
  // The context holds the wrapped block functions (see environment.ts); find the one around this block.
  const registered = (context.blocks[name] ?? []).find((b) => b.pyCompiled === block) ?? block;
  let out = "";
  context.getSuper(env, name, registered, frame, pyRuntime, (err: unknown, res: string) => {
    if (err) throw err;
    out = res;
  });
  return out;
}

/**
 * Salt's finalizer rebuilds every list, tuple and mapping it prints, each as its own class: a `groupby` item (a
 * named tuple) cannot be rebuilt from one argument, so printing one, at any depth, fails in Salt; and it rebuilds by
 * recursion without looking for repeats, so a value that holds itself fails it with Python's RecursionError (where
 * Python's own str() would print `{...}`). `onPath`: the containers being walked into; `done`: those checked whole.
 */
function checkFinalizable(value: object, onPath: Set<object>, done: Set<object>): void {
  if (done.has(value)) return;
  if (onPath.has(value))
    throw new TemplateProblem("RecursionError: maximum recursion depth exceeded in __instancecheck__");
  if (value instanceof GroupTuple)
    throw typeError("_GroupTuple.__new__() missing 1 required positional argument: 'list'");
  const items = Array.isArray(value)
    ? value instanceof DictView
      ? []
      : value
    : isMapping(value)
      ? mappingKeys(value).map((k) => getItem(value, k))
      : [];
  onPath.add(value);
  for (const item of items)
    if (typeof item === "object" && item !== null) checkFinalizable(item, onPath, done);
  onPath.delete(value);
  done.add(value);
}

/** `{{ value }}`: the text printed, charged to the render's output. */
function pyOut(value: unknown, account: RenderAccount): string {
  if (typeof value === "object" && value !== null) checkFinalizable(value, new Set(), new Set());
  const text = pyStr(value);
  account.write(text.length);
  return text;
}

/** Stamps an error with the template and position where it surfaced (the innermost one wins). */
function pyTagError(
  error: unknown,
  lineno: number,
  colno: number,
  file: string | undefined,
): TemplateProblem {
  const e = engineLimit(error) ?? pythonError(error) ?? error;
  if (e instanceof TemplateProblem) {
    if (e.file === undefined) {
      e.file = file;
      e.line = lineno + 1;
      e.column = colno + 1;
    }
    return e;
  }
  const err = e as { message?: string; lineno?: number; colno?: number; name?: string } | undefined;
  const msg = err?.message ?? String(e);
  const problem = new TemplateProblem(msg.replace(/^\(unknown path\)\s*\n?\s*/, ""), {
    file,
    line: err?.lineno ?? lineno + 1,
    column: err?.colno ?? colno + 1,
    cause: e,
  });
  return problem;
}

/** A `MergeError` of the value model that is a Python exception in a template (an unhashable dict key). */
function pythonError(error: unknown): TemplateProblem | undefined {
  if (isMergeError(error) && error.code === "UNHASHABLE_KEY")
    return new TemplateProblem(`TypeError: ${error.message}`, { cause: error });
  return undefined;
}

function pyImportData(
  env: RuntimeHost,
  context: unknown,
  frame: unknown,
  kind: string,
  name: unknown,
  withContext: boolean,
) {
  if (typeof name !== "string")
    throw typeError(`import_${kind}: the file name must be a string, not ${pyTypeName(name)}`);
  return env.pyImport(kind, name, context, withContext, frame);
}

function pyLoadData(env: RuntimeHost, kind: string, text: unknown): unknown {
  return env.pyParse(kind, pyStr(text));
}

function pyTuple(items: readonly unknown[]): PyTuple {
  return PyTuple.of_(items);
}

/** An expression Jinja folded into a non-finite float fails where its Python code names it (see const-fold.ts). */
function pyNameError(name: string): never {
  throw new TemplateProblem(`NameError: name '${name}' is not defined`);
}

/** An unknown filter or test that Jinja checks only when it runs (soft-frames.ts), after its arguments are computed. */
function pyMissingName(message: string, _args: unknown): never {
  throw new TemplateProblem(message);
}

/** What Jinja's constant folding does not compute (a call, a filter given the render context). */
export const NOT_CONSTANT: unique symbol = Symbol("not a constant");

function pyNotConstant(): never {
  throw NOT_CONSTANT;
}

/** The runtime object handed to compiled templates. */
export const pyRuntime: Record<string, unknown> = Object.freeze(
  Object.assign(Object.create(njRuntime), {
    MISSING,
    makeKeywordArgs,
    PyLoop,
    pyStr,
    pyOut,
    pyBool,
    pyAdd: chargedAdd,
    pyConcat: chargedConcat,
    pySub,
    pyMul: chargedMul,
    pyDiv,
    pyFloorDiv,
    pyMod: chargedMod,
    pyPow: chargedPow,
    pyNeg,
    pyPos,
    pyFloat,
    pyIn: chargedIn,
    pyCompare,
    pyCompareOp,
    pyOp,
    pyDict: pyDictLiteral,
    pyNameError,
    pyMissingName,
    pyNotConstant,
    pyKwargs,
    pyTuple,
    pyGetitem,
    pyGetattr,
    pyCallAttr,
    pyCall,
    pyCallArgs,
    pyChecked,
    pyDefaulted,
    pyHinted,
    pyUndefinedBound,
    pyUndefinedSet,
    pyIter,
    pyUnpack,
    pySlice,
    pySetAttr,
    pySetVar,
    pyLookup,
    pyMacro,
    pyTagError,
    pySuper,
    pySelf,
    pyImportData,
    pyLoadData,
  }),
);

export { pyGetattr, pyIter };
