import { isPlainObject } from "@merge/core";

/**
 * The key path to the first place where `value` contains itself, or undefined when it is acyclic. Walks without
 * recursion and visits a subtree shared by several places once (YAML aliases share subtrees legitimately).
 */
export function findCycle(value: unknown): (string | number)[] | undefined {
  const done = new Set<object>();
  const onPath = new Set<object>();
  const stack: { node: object; keys: (string | number)[]; next: number; key: string | number | undefined }[] =
    [];
  const enter = (node: unknown, key: string | number | undefined): (string | number)[] | undefined => {
    if (typeof node !== "object" || node === null || done.has(node)) return undefined;
    if (!Array.isArray(node) && !isPlainObject(node)) return undefined;
    if (onPath.has(node))
      return [...stack.slice(1).map((frame) => frame.key as string | number), key as string | number];
    onPath.add(node);
    stack.push({ node, keys: Array.isArray(node) ? node.map((_, i) => i) : Object.keys(node), next: 0, key });
    return undefined;
  };
  enter(value, undefined);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.next >= frame.keys.length) {
      stack.pop();
      onPath.delete(frame.node);
      done.add(frame.node);
      continue;
    }
    const key = frame.keys[frame.next++]!;
    const found = enter((frame.node as Record<string | number, unknown>)[key], key);
    if (found !== undefined) return found;
  }
  return undefined;
}
