// Prototype-pollution payloads, and the check that nothing reached a shared prototype. The repository's own
// hardening suites use these too (through test-kit), so the built-ins and third-party plugins face the same inputs.

/** Key names that a naive `object[key] = value` or `key in object` turns into something other than data. */
export const HOSTILE_KEYS: readonly string[] = Object.freeze([
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
]);

/** Names the payloads try to plant on prototypes. */
export const PLANTED: readonly string[] = Object.freeze(["polluted", "isAdmin", "hacked"]);

/** The hostile keys, each carrying a payload that would plant a property if it were assigned naively. */
export const HOSTILE_FRAGMENTS: readonly string[] = Object.freeze([
  '"__proto__": {"polluted": "yes"}',
  '"constructor": {"prototype": {"isAdmin": true}}',
  '"prototype": {"hacked": 1}',
  '"__proto__": [{"polluted": "list"}]',
  '"constructor": "text"',
  '"__proto__": null',
]);

/**
 * JSON texts with hostile keys at the root, 1, 3 and 8 levels deep, and inside lists. `JSON.parse` keeps
 * `__proto__` as an own key, which is exactly how it arrives from a file or an API.
 */
export function hostileJsonTexts(): string[] {
  const out: string[] = [];
  for (const fragment of HOSTILE_FRAGMENTS) {
    for (const depth of [0, 1, 3, 8]) {
      let text = `{${fragment}, "keep": ${depth}}`;
      for (let i = 0; i < depth; i++) text = `{"l${i}": ${text}}`;
      out.push(text);
      out.push(`{"list": [1, ${text}, [${text}]]}`);
    }
  }
  return out;
}

/** The hostile key names found anywhere in a tree, as own data keys. */
export function ownHostileKeys(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) ownHostileKeys(item, into);
  else if (typeof value === "object" && value !== null) {
    for (const key of Object.keys(value)) {
      if (key === "__proto__" || key === "constructor" || key === "prototype") into.push(key);
      ownHostileKeys((value as Record<string, unknown>)[key], into);
    }
  }
  return into;
}

/**
 * The own property names of `Object.prototype`, `Array.prototype` and `Function.prototype`, and the planted names a
 * fresh object or list shows: `pollutionSince(before)` lists what changed.
 */
export function prototypeState(): ReadonlySet<string> {
  const state = new Set<string>();
  const shared: [string, object][] = [
    ["Object.prototype", Object.prototype],
    ["Array.prototype", Array.prototype],
    ["Function.prototype", Function.prototype],
  ];
  for (const [label, object] of shared) {
    for (const name of Object.getOwnPropertyNames(object)) state.add(`${label}.${name}`);
  }
  const probe: Record<string, unknown> = {};
  const list = [] as unknown as Record<string, unknown>;
  for (const name of PLANTED) {
    if (probe[name] !== undefined) state.add(`{}.${name} (inherited)`);
    if (list[name] !== undefined) state.add(`[].${name} (inherited)`);
  }
  return state;
}

/** What differs from an earlier `prototypeState()`: names added (`+`) to or removed (`-`) from shared prototypes. */
export function pollutionSince(before: ReadonlySet<string>): string[] {
  const now = prototypeState();
  const changes: string[] = [];
  for (const name of now) if (!before.has(name)) changes.push(`+${name}`);
  for (const name of before) if (!now.has(name)) changes.push(`-${name}`);
  return changes;
}
