/** A query ready for a server-side prepared statement. */
export interface PreparedSql {
  /** The SQL with every placeholder as `?`. */
  readonly sql: string;
  /** How many `?` the server will expect; each is bound to the minion id. */
  readonly parameters: number;
}

/**
 * Translates Salt's query text for a prepared statement. Salt formats the query with Python's `%` operator, so
 * `%s` is the minion id and `%%` a literal `%` (also inside quotes, where Python does not look either). We turn
 * each `%s` outside string literals, quoted identifiers and comments into `?`, keep `?` placeholders, and count
 * them: the minion id is then bound as a parameter, never spliced into the text. A lone `%` stays as it is.
 */
export function prepareSql(text: string): PreparedSql {
  let out = "";
  let parameters = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (c === "'" || c === '"' || c === "`") {
      const end = quotedEnd(text, i, c);
      out += unescapePercent(text.slice(i, end));
      i = end;
    } else if (c === "#" || (c === "-" && text[i + 1] === "-" && isCommentSpace(text[i + 2]))) {
      const end = text.indexOf("\n", i);
      const stop = end === -1 ? n : end;
      out += text.slice(i, stop);
      i = stop;
    } else if (c === "/" && text[i + 1] === "*" && text[i + 2] !== "!") {
      const end = text.indexOf("*/", i + 2);
      const stop = end === -1 ? n : end + 2;
      out += text.slice(i, stop);
      i = stop;
    } else if (c === "%" && text[i + 1] === "s") {
      out += "?";
      parameters++;
      i += 2;
    } else if (c === "%" && text[i + 1] === "%") {
      out += "%";
      i += 2;
    } else {
      if (c === "?") parameters++;
      out += c;
      i++;
    }
  }
  return { sql: out, parameters };
}

function isCommentSpace(c: string | undefined): boolean {
  return c === undefined || c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\f" || c === "\v";
}

/** Index just after the closing quote (a doubled quote continues the literal; backslash escapes in strings). */
function quotedEnd(text: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "\\" && quote !== "`") {
      i += 2;
    } else if (c === quote) {
      if (text[i + 1] === quote) i += 2;
      else return i + 1;
    } else {
      i++;
    }
  }
  return text.length;
}

function unescapePercent(literal: string): string {
  return literal.includes("%%") ? literal.replace(/%%/g, "%") : literal;
}
