import { isMapping, type Mapping, type MappingKey, mappingKeys, PyDict } from "@merge/core";

/** Where the walk is in one container: the next index of a list, or a mapping's value iterator and its count. */
interface Frame {
  readonly node: object;
  /** A `PyDict`'s values in order (no [key, value] pair per entry); undefined for lists and plain objects. */
  readonly values: Iterator<unknown> | undefined;
  /** A plain object's keys; undefined otherwise. */
  readonly keys: string[] | undefined;
  /** Children visited so far. */
  next: number;
}

/**
 * The key path to the first place where `value` contains itself, or undefined when it is acyclic. Walks without
 * recursion and visits a subtree shared by several places once (YAML aliases share subtrees legitimately). The loader
 * runs it on every host's result, so it allocates one frame per container and names keys only for a cycle found.
 */
export function findCycle(value: unknown): MappingKey[] | undefined {
  // Per container: true while it is on the walk's path, false once all below it is known to be acyclic.
  const state = new Map<object, boolean>();
  const frames: Frame[] = [];
  const enter = (node: unknown): boolean => {
    if (typeof node !== "object" || node === null) return false;
    const seen = state.get(node);
    if (seen === true) return true;
    if (seen === false) return false;
    if (node instanceof PyDict) frames.push({ node, values: node.values(), keys: undefined, next: 0 });
    else if (Array.isArray(node)) frames.push({ node, values: undefined, keys: undefined, next: 0 });
    else if (isMapping(node)) frames.push({ node, values: undefined, keys: Object.keys(node), next: 0 });
    else return false;
    state.set(node, true);
    return false;
  };
  enter(value);
  while (frames.length > 0) {
    const frame = frames[frames.length - 1]!;
    let child: unknown;
    let more: boolean;
    if (frame.values !== undefined) {
      const step = frame.values.next();
      more = step.done !== true;
      child = step.value;
    } else if (frame.keys !== undefined) {
      more = frame.next < frame.keys.length;
      if (more) child = (frame.node as Record<string, unknown>)[frame.keys[frame.next]!];
    } else {
      const list = frame.node as unknown[];
      more = frame.next < list.length;
      if (more) child = list[frame.next];
    }
    if (!more) {
      frames.pop();
      state.set(frame.node, false);
      continue;
    }
    frame.next++;
    if (enter(child)) return pathTo(frames);
  }
  return undefined;
}

/** The keys leading to the last child each frame visited (the walk's path, ending at the repeated container). */
function pathTo(frames: readonly Frame[]): MappingKey[] {
  return frames.map((frame) =>
    Array.isArray(frame.node) ? frame.next - 1 : mappingKeys(frame.node as Mapping)[frame.next - 1]!,
  );
}
