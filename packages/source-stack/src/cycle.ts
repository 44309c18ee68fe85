import { getItem, isMapping, type Mapping, type MappingKey, mappingKeys } from "@merge/core";

/**
 * The key path to the first place where `value` contains itself, or undefined when it is acyclic. Walks without
 * recursion and visits a subtree shared by several places once (YAML aliases share subtrees legitimately).
 */
export function findCycle(value: unknown): MappingKey[] | undefined {
  const done = new Set<object>();
  const onPath = new Set<object>();
  const stack: { node: object; keys: MappingKey[]; next: number; key: MappingKey | undefined }[] = [];
  const enter = (node: unknown, key: MappingKey | undefined): MappingKey[] | undefined => {
    if (typeof node !== "object" || node === null || done.has(node)) return undefined;
    if (!Array.isArray(node) && !isMapping(node)) return undefined;
    if (onPath.has(node))
      return [...stack.slice(1).map((frame) => frame.key as MappingKey), key as MappingKey];
    onPath.add(node);
    stack.push({ node, keys: Array.isArray(node) ? node.map((_, i) => i) : mappingKeys(node), next: 0, key });
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
    const child = Array.isArray(frame.node) ? frame.node[key as number] : getItem(frame.node as Mapping, key);
    const found = enter(child, key);
    if (found !== undefined) return found;
  }
  return undefined;
}
