// Jinja's `urlize` filter (Jinja 3.1.6): the text is HTML-escaped and cut at white space, and each word that reads as
// a web address or an email address becomes a link. What counts as one, and which punctuation around it stays
// outside the link, follows Jinja's rules exactly, since the result is compared character for character with Salt's.
import { typeError } from "./errors.js";
import { PY_SPACE } from "./methods.js";
import { htmlEscape } from "./pyvalues.js";

/** Python's `\s` on text (`str.isspace()`), as a character class body. */
const SPACE = PY_SPACE;
/** Python's `\w` on text. */
const W = "\\p{L}\\p{N}_";

// The two Unicode patterns are made on first use: building their classes takes V8 about a third of a millisecond,
// which every run that loads the template engine would pay, `urlize` or not.
let web: RegExp | undefined;
let mailDomain: RegExp | undefined;

/**
 * A web address: `http(s)://` or `www.` and a host ending in a top-level domain; a bare domain ending in one of
 * eight well-known ones; or `http(s)://` and an IP address. Then an optional port and path.
 */
function webPattern(): RegExp {
  web ??= new RegExp(
    "^(?:" +
      `(?:https?://|www\\.)(?:[${W}%-]+\\.)*(?:[a-z]{2,63}|xn--[${W}%]{2,59})` +
      `|(?:[${W}%-]{2,63}\\.)+(?:com|net|int|edu|gov|org|info|mil)` +
      "|https?://(?:\\p{Nd}{1,3}(?:\\.\\p{Nd}{1,3}){3}|\\[(?:[\\p{Nd}a-f]{0,4}:){2}(?:[\\p{Nd}a-f]{0,4}:?){1,6}\\])" +
      `)(?::\\p{Nd}{1,5})?(?:[/?#][^${SPACE}]*)?$`,
    "iu",
  );
  return web;
}

/** The part of an email address after its `@` (which is the last one: nothing after it may be an `@`). */
function mailDomainPattern(): RegExp {
  mailDomain ??= new RegExp(`^[${W}][${W}.-]*\\.[${W}]+$`, "u");
  return mailDomain;
}
const HAS_SPACE = new RegExp(`[${SPACE}]`);
const WORDS = new RegExp(`([${SPACE}]+)`);
const LEAD = /^(?:[(<]|&lt;)+/;
/** Pairs whose closing part is taken back from the trailing punctuation when the address opened more than it closed. */
const PAIRS: readonly (readonly [string, string])[] = [
  ["(", ")"],
  ["<", ">"],
  ["&lt;", "&gt;"],
];

export interface UrlizeOptions {
  /** Links show at most this many characters of the address, then `...`. */
  readonly trimUrlLimit?: number;
  readonly rel?: string;
  readonly target?: string;
  /** Further prefixes (`ftp://`, `mailto:`) that make a word a link as it is. */
  readonly extraSchemes?: readonly string[];
}

/** Python's `re.match(r"^\S+@\w[\w.-]*\.\w+$", s)`, without its backtracking over every `@`. */
function isEmail(s: string): boolean {
  const at = s.lastIndexOf("@");
  return at > 0 && !HAS_SPACE.test(s) && mailDomainPattern().test(s.slice(at + 1));
}

/**
 * Where the punctuation that ends `s` starts: `) > . ,`, line breaks and `&gt;` (Jinja's `([)>.,\n]|&gt;)+$`), read
 * from the end so that a long run of them costs no backtracking.
 */
function trailingPunctuation(s: string): number {
  let end = s.length;
  for (;;) {
    if (s.endsWith("&gt;", end)) end -= 4;
    else if (end > 0 && ")>.,\n".includes(s.charAt(end - 1))) end--;
    else return end;
  }
}

function count(s: string, part: string): number {
  return s.split(part).length - 1;
}

/** `text` (already a string, not yet escaped; `safe` when it is markup) with its addresses made links. */
export function urlize(text: string, safe: boolean, options: UrlizeOptions): string {
  const limit = options.trimUrlLimit;
  const shown = (url: string): string => {
    if (limit === undefined) return url;
    const points = [...url];
    if (points.length <= limit) return url;
    if (!Number.isInteger(limit))
      throw typeError("slice indices must be integers or None or have an __index__ method");
    return `${points.slice(0, limit).join("")}...`;
  };
  const relAttr = options.rel ? ` rel="${htmlEscape(options.rel)}"` : "";
  const targetAttr = options.target ? ` target="${htmlEscape(options.target)}"` : "";
  const words = (safe ? text : htmlEscape(text)).split(WORDS);
  for (let i = 0; i < words.length; i++) {
    let middle = words[i] as string;
    let head = "";
    let tail = "";
    const lead = LEAD.exec(middle);
    if (lead !== null) {
      head = lead[0];
      middle = middle.slice(head.length);
    }
    const cut = trailingPunctuation(middle);
    tail = middle.slice(cut);
    middle = middle.slice(0, cut);
    // An address that opens more brackets than it closes takes closing ones back from the punctuation after it.
    for (const [open, close] of PAIRS) {
      const opened = count(middle, open);
      if (opened <= count(middle, close)) continue;
      for (let n = Math.min(opened, count(tail, close)); n > 0; n--) {
        const end = tail.indexOf(close) + close.length;
        middle += tail.slice(0, end);
        tail = tail.slice(end);
      }
    }
    if (webPattern().test(middle)) {
      const href =
        middle.startsWith("https://") || middle.startsWith("http://") ? middle : `https://${middle}`;
      middle = `<a href="${href}"${relAttr}${targetAttr}>${shown(middle)}</a>`;
    } else if (middle.startsWith("mailto:") && isEmail(middle.slice(7))) {
      middle = `<a href="${middle}">${middle.slice(7)}</a>`;
    } else if (
      middle.includes("@") &&
      !middle.startsWith("www.") &&
      !middle.startsWith("@") &&
      !middle.includes(":") &&
      isEmail(middle)
    ) {
      middle = `<a href="mailto:${middle}">${middle}</a>`;
    } else if (options.extraSchemes !== undefined) {
      for (const scheme of options.extraSchemes) {
        if (middle !== scheme && middle.startsWith(scheme))
          middle = `<a href="${middle}"${relAttr}${targetAttr}>${middle}</a>`;
      }
    }
    words[i] = head + middle + tail;
  }
  return words.join("");
}
