import { isPyFloat, numberValue, type PathKey } from "@merge/core";

/**
 * A path as a map key that keeps key types apart (`8080` and `"8080"`, `1.0` and `1`, `True` and `1`), so the
 * emitter's paths find `--explain`'s entries for the very keys they were made of.
 */
export function pathId(path: readonly PathKey[]): string {
  let out = "";
  for (const step of path) {
    if (typeof step === "string") out += `s${step.length}:${step}`;
    else if (isPyFloat(step)) out += `f:${numberValue(step)}`;
    else if (step instanceof Date) out += `d:${step.getTime()}:${String(step)}`;
    else out += `${typeof step}:${String(step)}`;
    out += "/";
  }
  return out;
}
