/**
 * Structural equality for merge outputs: mappings compare by key set (order and prototype ignored, since some
 * libraries build null-prototype objects), lists by position, scalars with Object.is. Returns the path of the first
 * difference, or undefined when equal, so the report can say why a contender was excluded.
 */
export function firstDifference(a: unknown, b: unknown, path = "$"): string | undefined {
  if (Object.is(a, b)) return undefined;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b)) return `${path}: list vs non-list`;
    if (a.length !== b.length) return `${path}: list length ${a.length} vs ${b.length}`;
    for (let i = 0; i < a.length; i++) {
      const diff = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (diff !== undefined) return diff;
    }
    return undefined;
  }
  if (typeof a === "object" && a !== null && typeof b === "object" && b !== null) {
    if (a instanceof Date || b instanceof Date || a instanceof RegExp || b instanceof RegExp) {
      return String(a) === String(b) && a.constructor === b.constructor ? undefined : `${path}: ${a} vs ${b}`;
    }
    const keysA = Object.keys(a);
    const keysB = Object.keys(b);
    if (keysA.length !== keysB.length) return `${path}: ${keysA.length} keys vs ${keysB.length}`;
    for (const key of keysA) {
      if (!Object.hasOwn(b, key)) return `${path}.${key}: missing`;
      const diff = firstDifference(
        (a as Record<string, unknown>)[key],
        (b as Record<string, unknown>)[key],
        `${path}.${key}`,
      );
      if (diff !== undefined) return diff;
    }
    return undefined;
  }
  return `${path}: ${short(a)} vs ${short(b)}`;
}

function short(value: unknown): string {
  const text = typeof value === "string" ? JSON.stringify(value) : String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
