// Prototype-pollution payloads and the check that nothing reached a shared prototype. The payloads live in
// @merge/plugin-kit, so the built-ins' hardening suites and third-party plugins' checkPlugin face the same inputs.
import { expect } from "vitest";
import { pollutionSince, prototypeState } from "../packages/plugin-kit/src/hostile.js";

export { hostileJsonTexts, ownHostileKeys } from "../packages/plugin-kit/src/hostile.js";

const baseline = prototypeState();

/** Fails when a payload changed Object.prototype, Array.prototype or Function.prototype. */
export function expectPristine(): void {
  expect(pollutionSince(baseline)).toEqual([]);
}
