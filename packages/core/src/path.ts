/** One step of a key path: a mapping key or a list index. */
export type PathKey = string | number;

const IDENTIFIER = /^[A-Za-z_$][\w$-]*$/;

/**
 * Formats a key path the way people write it: `users.tom.roles[1]`. Keys that are not plain identifiers are quoted
 * (`servers["web.example.com"]`) so the path can be read back without ambiguity.
 */
export function formatPath(path: readonly PathKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") {
      out += `[${key}]`;
    } else if (IDENTIFIER.test(key)) {
      out += out === "" ? key : `.${key}`;
    } else {
      out += `[${JSON.stringify(key)}]`;
    }
  }
  return out;
}
