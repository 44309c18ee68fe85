// A MIME part's file name as cloud-init gets it: Python's `Message.get_filename()` under the compat32 policy of its
// email package. mailsplit's own name differs where Python is literal: Python keeps a header's folded line break and
// an unbalanced quote, does not decode `=?utf-8?...?=` words, takes the first of two `filename` parameters, strips
// `<...>` like quotes, and reads the header as the UTF-8 text cloud-init decoded the user-data to. Only RFC 2231
// (`filename*=utf-8''...`, `filename*0=...`) is decoded, as Python does.

type HeaderList = readonly (readonly [string, string])[];

/**
 * The `filename` parameter of the first `Content-Disposition` header, else the `name` parameter of the first
 * `Content-Type`, unquoted and trimmed; undefined when neither is there. `headers` hold values as mailsplit hands
 * them over (bytes as Latin-1 characters, folded lines joined by CRLF); `lineBreak` is the message's own.
 */
export function partFilename(headers: HeaderList, lineBreak: "\n" | "\r\n"): string | undefined {
  const value =
    parameter(headerValue(headers, "content-disposition", lineBreak), "filename") ??
    parameter(headerValue(headers, "content-type", lineBreak), "name");
  return value === undefined ? undefined : collapse(value).trim();
}

/** A decoded RFC 2231 value: its charset and the text as Latin-1 characters, one per byte. */
interface Extended {
  readonly charset: string | undefined;
  readonly text: string;
}

function headerValue(headers: HeaderList, name: string, lineBreak: string): string | undefined {
  const found = headers.find(([key]) => key.trim().toLowerCase() === name);
  if (found === undefined) return undefined;
  const text = utf8Text(found[1]);
  return lineBreak === "\n" ? text.replaceAll("\r\n", "\n") : text;
}

/** The value as cloud-init reads it: the user-data decoded as UTF-8 (bytes that are not UTF-8 are left as they are). */
function utf8Text(latin1: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the test is for anything outside ASCII
  if (!/[^\x00-\x7f]/.test(latin1) || /[^\x00-\xff]/.test(latin1)) return latin1;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(latin1, "latin1"));
  } catch {
    return latin1;
  }
}

/** Python's `get_param(name)`: the first parameter of that name (any case), unquoted; undefined when absent. */
function parameter(value: string | undefined, name: string): string | Extended | undefined {
  if (value === undefined) return undefined;
  for (const [key, item] of decodedParameters(value)) {
    if (key.toLowerCase() !== name) continue;
    return typeof item === "string" ? unquote(item) : { charset: item.charset, text: unquote(item.text) };
  }
  return undefined;
}

/**
 * Python's `_parseparam`: `;`-separated pieces, a `;` inside double quotes (an odd count of `"` before it, less the
 * escaped `\"`) not counting; names lower-cased. Each piece is read once, where Python counts the quotes again
 * for every `;` it tries.
 */
function splitParameters(value: string): string[] {
  const pieces: string[] = [];
  let from = 0;
  for (;;) {
    // Where this piece ends: the first `;` after an even count (a `;` right at its start ends it at once).
    let end = from;
    let quotes = 0;
    while (end < value.length && !(value[end] === ";" && (end === from || quotes % 2 === 0))) {
      if (value[end] === '"') quotes++;
      else if (value[end] === "\\" && value[end + 1] === '"') {
        // An escaped quote counts for nothing: the quote that follows is skipped with it.
        end += 2;
        continue;
      }
      end++;
    }
    let piece = value.slice(from, end);
    const equals = piece.indexOf("=");
    if (equals >= 0)
      piece = `${piece.slice(0, equals).trim().toLowerCase()}=${piece.slice(equals + 1).trim()}`;
    pieces.push(piece.trim());
    if (end >= value.length) return pieces;
    from = end + 1;
  }
}

// An RFC 2231 parameter name: `name*` (encoded), `name*0` (a piece) or `name*0*` (an encoded piece).
const CONTINUATION = /^([A-Za-z0-9_]+)\*(?:([0-9]+)\*?)?$/;

/**
 * Python's `_get_params_preserve` with `decode_params`: every parameter (the first is the header's main value), each
 * value unquoted and quoted again, the RFC 2231 pieces of a name joined (after the others) and percent-decoded.
 */
function decodedParameters(value: string): [string, string | Extended][] {
  const params = splitParameters(value).map((piece): [string, string] => {
    const equals = piece.indexOf("=");
    return equals < 0 ? [piece.trim(), ""] : [piece.slice(0, equals).trim(), piece.slice(equals + 1).trim()];
  });
  const out: [string, string | Extended][] = params.slice(0, 1);
  const pieces = new Map<string, { num: number; text: string; encoded: boolean }[]>();
  for (const [name, raw] of params.slice(1)) {
    const text = unquote(raw);
    const match = CONTINUATION.exec(name);
    if (match === null) {
      out.push([name, `"${quote(text)}"`]);
      continue;
    }
    const list = pieces.get(match[1]!) ?? [];
    list.push({ num: match[2] === undefined ? -1 : Number(match[2]), text, encoded: name.endsWith("*") });
    pieces.set(match[1]!, list);
  }
  for (const [name, list] of pieces) {
    list.sort((a, b) => a.num - b.num || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
    const extended = list.some((piece) => piece.encoded);
    const joined = quote(
      list.map((piece) => (piece.encoded ? percentDecoded(piece.text) : piece.text)).join(""),
    );
    if (!extended) {
      out.push([name, `"${joined}"`]);
      continue;
    }
    const ticks = joined.split("'");
    out.push([
      name,
      ticks.length <= 2
        ? { charset: undefined, text: `"${joined}"` }
        : { charset: ticks[0], text: `"${ticks.slice(2).join("'")}"` },
    ]);
  }
  return out;
}

/** Python's `urllib.parse.unquote(text, encoding="latin-1")`: each `%XX` becomes the character of that byte. */
function percentDecoded(text: string): string {
  return text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
}

/** Python's `email.utils.unquote`: one pair of double quotes (with `\\` and `\"` undone) or of `<>` taken off. */
function unquote(text: string): string {
  if (text.length > 1) {
    if (text.startsWith('"') && text.endsWith('"')) {
      return text.slice(1, -1).replaceAll("\\\\", "\\").replaceAll('\\"', '"');
    }
    if (text.startsWith("<") && text.endsWith(">")) return text.slice(1, -1);
  }
  return text;
}

/** Python's `email.utils.quote`: `\` and `"` escaped. */
function quote(text: string): string {
  return text.replaceAll("\\", "\\\\").replaceAll('"', '\\"');
}

/**
 * Python's `collapse_rfc2231_value`: a plain value unquoted once more; an RFC 2231 one decoded from its bytes with its
 * charset (US-ASCII when none is named), a byte that does not decode becoming U+FFFD, or unquoted once more when
 * the charset is not one Python knows (an empty one included).
 */
function collapse(value: string | Extended): string {
  if (typeof value === "string") return unquote(value);
  const bytes = Buffer.from(value.text, "latin1");
  const charset = value.charset?.toLowerCase().replaceAll("_", "-");
  // Python's ASCII and Latin-1 (the WHATWG decoder reads both labels as windows-1252).
  if (charset === undefined || charset === "ascii" || charset === "us-ascii") {
    return value.text.replace(/[\u0080-\uffff]/g, "\ufffd");
  }
  if (charset === "latin-1" || charset === "latin1" || charset === "iso-8859-1" || charset === "iso8859-1") {
    return value.text;
  }
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return unquote(value.text);
  }
}
