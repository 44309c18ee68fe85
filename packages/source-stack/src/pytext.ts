/*
 * Python's text rules where Salt relies on them: `str.splitlines()` and `str.strip()` decide which lines of a
 * rendered config are paths, and they know more line breaks and spaces than JavaScript's `split("\n")`/`trim()`.
 */

// \n \r\n \r \v \f \x1c \x1d \x1e \x85 \u2028 \u2029
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly Python's line boundaries
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/;

/** `str.splitlines()`: no empty last item for a trailing break. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split(LINE_BREAK);
  if (lines.length > 0 && lines[lines.length - 1] === "" && LINE_BREAK.test(text.slice(-2))) lines.pop();
  return lines;
}

// Python's str.isspace(): ASCII whitespace plus \x1c-\x1f, \x85, \xa0 and the Unicode spaces.
// biome-ignore lint/suspicious/noControlCharactersInRegex: Python counts \x1c-\x1f as whitespace
const PY_SPACE = /^[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/;

/** `not s.strip()`: empty or made only of Python whitespace. */
export function isBlank(text: string): boolean {
  return PY_SPACE.test(text);
}
