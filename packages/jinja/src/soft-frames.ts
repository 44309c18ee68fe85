// Jinja 3 checks that a filter or test exists when it compiles the template, except inside an `{% if %}` (its test,
// its branches) or an inline `a if b else c`: there an unknown name fails only when it runs ("No filter named 'x'
// found."), so `{% if false %}{{ x|nope }}{% endif %}` renders. Jinja's compiler calls these "soft frames"; anything
// compiled in a frame of its own (a loop's body, a macro, a call block's body, a `{% filter %}` or `{% set %}` block,
// a `with` body, a block) is strict again, even inside an `if`. This marks the Filter and Is nodes of a parsed
// template that are in a soft frame (`pySoft`), for the compiler to defer their check.
import { njNodes, type NjAny } from "./nunjucks-internals.js";
import { PyFor, PyLoadData, PyWith } from "./parser.js";

/** Sets `pySoft` on every Filter and Is node of `root` that Jinja checks only when it runs. */
export function markSoftNames(root: NjAny): void {
  walk(root, false);
}

function walk(node: NjAny, soft: boolean): void {
  if (!(node instanceof njNodes.Node)) return;
  if (node instanceof njNodes.If || node instanceof njNodes.InlineIf) {
    for (const child of children(node)) walk(child, true);
    return;
  }
  if (node instanceof PyFor || node instanceof njNodes.For) {
    // The iterable is computed in the enclosing frame; the target, body, `else` and loop filter in the loop's own.
    walk(node.arr, soft);
    for (const child of children(node)) if (child !== node.arr) walk(child, false);
    return;
  }
  if (node instanceof PyWith) {
    for (const value of node.values ?? []) walk(value, soft);
    walk(node.body, false);
    return;
  }
  if (isOwnFrame(node)) {
    for (const child of children(node)) walk(child, false);
    return;
  }
  if (soft && (node instanceof njNodes.Filter || node instanceof njNodes.Is)) node.pySoft = true;
  for (const child of children(node)) walk(child, soft);
}

/**
 * Nodes compiled in a frame of their own: macros and call blocks (`Caller`), blocks, the loaded text of
 * `load_yaml` (a macro in Salt's extension), a `{% set x %}..{% endset %}` block with its filters, and a
 * `{% filter %}` block (a filter applied to a captured body, filter included).
 */
function isOwnFrame(node: NjAny): boolean {
  if (node instanceof njNodes.Macro || node instanceof njNodes.Block || node instanceof PyLoadData)
    return true;
  if (node instanceof njNodes.Set) return node.body !== null && node.body !== undefined;
  return node instanceof njNodes.Filter && node.args?.children?.[0] instanceof njNodes.Capture;
}

function children(node: NjAny): NjAny[] {
  const out: NjAny[] = [];
  for (const field of (node.fields ?? []) as string[]) {
    const value = node[field];
    if (Array.isArray(value)) {
      for (const item of value) if (item instanceof njNodes.Node) out.push(item);
    } else if (value instanceof njNodes.Node) out.push(value);
  }
  return out;
}
