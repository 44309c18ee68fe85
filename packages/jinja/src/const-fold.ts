// Jinja computes every expression whose operands are all literals when it compiles a template (its optimizer's
// `as_const`) and writes the value into the Python code it generates as `repr(value)`. That is invisible, except
// for a float that is not finite: `repr(float('nan'))` is `nan`, which Python then reads as a name, so the line
// fails with `NameError: name 'nan' is not defined` when it runs (`{% set x = 'nan'|float %}`, `{% set y = 1e999 %}`).
// This pass finds the expressions Jinja folds into such a value and marks them; the compiler writes a marked
// expression as that NameError. An expression printed whole (`{{ 'nan'|float }}`) is turned into text instead, so
// it prints `nan`.
import { PyDict, PyFloat } from "@merge/core";
import { type NjAny, njNodes } from "./nunjucks-internals.js";
import { DictView, isSafeString, PyRange } from "./pyvalues.js";

/** Set on a node that Jinja folds into a value holding a non-finite float: the name Python then fails to find. */
export const FOLDED_NAME: unique symbol = Symbol("folded into a non-finite float");

/** A literal expression's value, computed as the template would at run time; undefined when it cannot be. */
export type ConstEvaluator = (node: NjAny) => { readonly value: unknown } | undefined;

// The node types of expressions (the rest are statements and the containers of a template's body).
const EXPRESSIONS = new Set([
  "Literal",
  "Symbol",
  "Group",
  "Array",
  "Dict",
  "KeywordArgs",
  "Pair",
  "LookupVal",
  "InlineIf",
  "In",
  "Is",
  "Or",
  "And",
  "Not",
  "Add",
  "Concat",
  "Sub",
  "Mul",
  "Div",
  "FloorDiv",
  "Mod",
  "Pow",
  "Neg",
  "Pos",
  "Compare",
  "CompareOperand",
  "FunCall",
  "Filter",
  "PySlice",
  "PyAttr",
  "PyStarArgs",
  "PyStarKwargs",
]);

// Parts of an expression that Jinja does not compute on their own.
const HELPERS = new Set(["KeywordArgs", "Pair", "CompareOperand", "PyStarArgs", "PyStarKwargs"]);

// Filters that turn literal text into floats; with float literals (overflowing `1e999`, `1e308 * 10`), the only
// ways a literal expression can hold `nan` or `inf`. An expression without any is never folded into one, and is not
// evaluated at all.
const FLOAT_SOURCES = new Set(["float", "load_json", "load_yaml"]);

// Jinja's filters that return an iterator (`unique`, `batch`, `slice`, `items`; `reverse` of anything but a
// string) or a list of named tuples (`groupby`): their `repr()` is not Python code, so Jinja does not fold them,
// though it folds what they are given.
const LAZY_FILTERS = new Set(["unique", "batch", "slice", "items", "groupby"]);

/** Marks the expressions of a parsed template that Jinja folds into a value holding a non-finite float. */
export function markFolds(root: NjAny, evaluate: ConstEvaluator): void {
  const sources = new Map<NjAny, boolean>();
  const hasSource = (node: NjAny): boolean => {
    let known = sources.get(node);
    if (known === undefined) {
      known = isSource(node) || childNodes(node).some(hasSource);
      sources.set(node, known);
    }
    return known;
  };

  const fold = (node: NjAny, printed: boolean): void => {
    if (!hasSource(node)) return;
    // Argument lists, keyword arguments and a dict's pairs are not expressions of their own: what they hold is.
    if (EXPRESSIONS.has(node.typename) && !HELPERS.has(node.typename)) {
      const result = evaluate(node);
      if (result !== undefined) {
        // A whole `{{ ... }}` that Jinja computes is written as text: nothing inside it is code.
        if (printed) return;
        if (!lazyFilter(node, result.value) && safeRepr(result.value)) {
          const name = firstNonFinite(result.value);
          if (name !== undefined) node[FOLDED_NAME] = name;
          return;
        }
      }
    }
    for (const child of childNodes(node)) fold(child, false);
  };

  const walk = (node: NjAny): void => {
    if (node instanceof njNodes.Output) {
      for (const child of node.children as NjAny[])
        if (!(child instanceof njNodes.TemplateData)) fold(child, true);
      return;
    }
    for (const child of childNodes(node)) {
      if (EXPRESSIONS.has(child.typename)) fold(child, false);
      else walk(child);
    }
  };
  walk(root);
}

function isSource(node: NjAny): boolean {
  if (node.typename === "Literal") {
    const v = node.value;
    return v instanceof PyFloat || (typeof v === "number" && !Number.isInteger(v));
  }
  return node.typename === "Filter" && FLOAT_SOURCES.has(node.name?.value);
}

/** The nodes a node holds, in its fields' order (a filter's name is not one of them). */
function childNodes(node: NjAny): NjAny[] {
  const out: NjAny[] = [];
  const fields = (node.fields ?? []) as string[];
  for (const field of fields) {
    if (node.typename === "Filter" && field === "name") continue;
    const value = node[field];
    if (Array.isArray(value)) {
      for (const item of value) if (item instanceof njNodes.Node) out.push(item);
    } else if (value instanceof njNodes.Node) out.push(value);
  }
  return out;
}

function lazyFilter(node: NjAny, value: unknown): boolean {
  if (node.typename !== "Filter") return false;
  const name = node.name?.value;
  return LAZY_FILTERS.has(name) || (name === "reverse" && typeof value !== "string" && !isSafeString(value));
}

/** Jinja's `has_safe_repr`: None, booleans, numbers, strings, ranges, and lists, tuples, sets and dicts of them. */
function safeRepr(value: unknown): boolean {
  switch (typeof value) {
    case "string":
    case "number":
    case "bigint":
    case "boolean":
      return true;
    case "object":
      if (value === null || value instanceof PyFloat || isSafeString(value) || value instanceof PyRange)
        return true;
      if (value instanceof DictView) return false;
      if (Array.isArray(value) || value instanceof Set) return [...value].every(safeRepr);
      if (value instanceof PyDict) {
        for (const [k, v] of value) if (!safeRepr(k) || !safeRepr(v)) return false;
        return true;
      }
      return false;
    default:
      return false;
  }
}

/** The first non-finite float in `repr()` order, as the name Python reads it as (`-inf` is the name `inf`). */
function firstNonFinite(value: unknown): "nan" | "inf" | undefined {
  const n = typeof value === "number" ? value : value instanceof PyFloat ? value.value : undefined;
  if (n !== undefined) return Number.isFinite(n) ? undefined : Number.isNaN(n) ? "nan" : "inf";
  if (Array.isArray(value) || value instanceof Set) {
    for (const item of value) {
      const found = firstNonFinite(item);
      if (found !== undefined) return found;
    }
  } else if (value instanceof PyDict) {
    for (const [k, v] of value) {
      const found = firstNonFinite(k) ?? firstNonFinite(v);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
