// Prototype-pollution payloads and the check that nothing reached a shared prototype.
import { expect } from "vitest";

const baseline = {
  object: Object.getOwnPropertyNames(Object.prototype).sort(),
  array: Object.getOwnPropertyNames(Array.prototype).sort(),
  func: Object.getOwnPropertyNames(Function.prototype).sort(),
};

/** Names the payloads try to plant on prototypes. */
export const PLANTED = ["polluted", "isAdmin", "hacked"] as const;

/** Fails when a payload changed Object.prototype, Array.prototype or Function.prototype. */
export function expectPristine(): void {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(baseline.object);
  expect(Object.getOwnPropertyNames(Array.prototype).sort()).toEqual(baseline.array);
  expect(Object.getOwnPropertyNames(Function.prototype).sort()).toEqual(baseline.func);
  const probe: Record<string, unknown> = {};
  for (const name of PLANTED) {
    expect(probe[name]).toBeUndefined();
    expect(([] as unknown as Record<string, unknown>)[name]).toBeUndefined();
  }
}

/** The hostile keys, each carrying a payload that would plant a property if it were assigned naively. */
export const HOSTILE_FRAGMENTS: readonly string[] = [
  '"__proto__": {"polluted": "yes"}',
  '"constructor": {"prototype": {"isAdmin": true}}',
  '"prototype": {"hacked": 1}',
  '"__proto__": [{"polluted": "list"}]',
  '"constructor": "text"',
  '"__proto__": null',
];

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
