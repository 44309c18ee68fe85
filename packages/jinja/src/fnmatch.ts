// Python's `fnmatch` rules on POSIX (case-sensitive, over code points): Salt's `grains.filter_by` matches its keys
// with them, and PillarStack's `glob.glob` (in `@merge/source-stack`) matches directory entries with them.

/**
 * Python's `fnmatch.fnmatch(name, pattern)` on POSIX (case-sensitive, over code points). It runs in time bounded by
 * name length × pattern length whatever the pattern: a name is never re-read from an earlier star.
 */
export function fnmatch(name: string, pattern: string): boolean {
  return compileFnmatch(pattern)(name);
}

/*
 * A pattern is a run of stars and fixed-width pieces (a character, `?`, a bracket expression). Between two stars the
 * pieces form a segment of fixed width, and for such patterns the earliest place a segment fits is always a right
 * choice: taking it leaves the most room for the segments after it. So the first segment is matched at the start,
 * the last one at the end, and each one between at the earliest position after the previous one — no backtracking,
 * which is what makes `*?*?*?*?*?*?*?x` against a 49-character name cost microseconds instead of seconds (a
 * backtracking regular expression tries every way of splitting the name among the stars).
 */
type Atom = string | ((c: string) => boolean);
const ANY: Atom = () => true;

/** The matcher of one pattern, for matching many names against it (as `fnmatch` does one). */
export function compileFnmatch(pattern: string): (name: string) => boolean {
  const segments: Atom[][] = [[]];
  const pat = [...pattern];
  const n = pat.length;
  let i = 0;
  while (i < n) {
    const c = pat[i++]!;
    if (c === "*") {
      if (segments[segments.length - 1]!.length > 0 || segments.length === 1) segments.push([]);
      continue;
    }
    const segment = segments[segments.length - 1]!;
    if (c === "?") {
      segment.push(ANY);
    } else if (c === "[") {
      const end = bracketEnd(pat, i);
      if (end < 0) {
        segment.push("[");
      } else {
        const cls = new RegExp(`^${charClass(pat, i, end)}$`, "su");
        segment.push((ch) => cls.test(ch));
        i = end + 1;
      }
    } else {
      segment.push(c);
    }
  }
  // Consecutive stars are one star; a pattern ending in a star has an empty last segment.
  const stars = segments.length - 1;
  return (name) => matchSegments([...name], segments, stars);
}

function matchSegments(name: readonly string[], segments: readonly Atom[][], stars: number): boolean {
  const first = segments[0]!;
  if (stars === 0) return first.length === name.length && fitsAt(name, first, 0);
  const last = segments[stars]!;
  const end = name.length - last.length;
  if (end < first.length || !fitsAt(name, first, 0) || !fitsAt(name, last, end)) return false;
  let pos = first.length;
  for (let s = 1; s < stars; s++) {
    const segment = segments[s]!;
    let at = pos;
    while (at + segment.length <= end && !fitsAt(name, segment, at)) at++;
    if (at + segment.length > end) return false;
    pos = at + segment.length;
  }
  return true;
}

function fitsAt(name: readonly string[], segment: readonly Atom[], at: number): boolean {
  for (let k = 0; k < segment.length; k++) {
    const atom = segment[k]!;
    const ch = name[at + k]!;
    if (typeof atom === "string" ? atom !== ch : !atom(ch)) return false;
  }
  return true;
}

/** Where the `]` closing a bracket expression opened just before `start` is, or -1 (then `[` is literal). */
function bracketEnd(pat: readonly string[], start: number): number {
  let j = start;
  if (j < pat.length && pat[j] === "!") j++;
  if (j < pat.length && pat[j] === "]") j++;
  while (j < pat.length && pat[j] !== "]") j++;
  return j >= pat.length ? -1 : j;
}

const compiled = new Map<string, RegExp>();

/**
 * `fnmatch.translate` as a JavaScript regular expression over code points (case-sensitive, as on POSIX). The
 * expression backtracks on patterns with many stars (time grows about fivefold with each `*?`): match untrusted
 * names with `fnmatch()`, which gives the same answers in bounded time.
 */
export function fnmatchRegex(pattern: string): RegExp {
  let regex = compiled.get(pattern);
  if (regex === undefined) {
    regex = new RegExp(`^(?:${translate([...pattern])})$`, "su");
    if (compiled.size > 1000) compiled.clear();
    compiled.set(pattern, regex);
  }
  return regex;
}

const escapeChar = (c: string) => `\\u{${c.codePointAt(0)!.toString(16)}}`;

function translate(pat: readonly string[]): string {
  let out = "";
  let lastStar = false;
  const n = pat.length;
  let i = 0;
  while (i < n) {
    const c = pat[i++]!;
    if (c === "*") {
      if (!lastStar) out += ".*";
      lastStar = true;
      continue;
    }
    lastStar = false;
    if (c === "?") {
      out += ".";
    } else if (c === "[") {
      const j = bracketEnd(pat, i);
      if (j < 0) {
        out += "\\[";
      } else {
        out += charClass(pat, i, j);
        i = j + 1;
      }
    } else {
      out += escapeChar(c);
    }
  }
  return out;
}

/*
 * A bracket expression pat[start..end) (without the brackets). Python splits it on the hyphens that make ranges,
 * drops reversed ranges, then reads `!` first as negation; the same steps here give the same set.
 */
function charClass(pat: readonly string[], start: number, end: number): string {
  const chunks: string[][] = [];
  let i = start;
  let k = pat[i] === "!" ? i + 2 : i + 1;
  for (;;) {
    let found = -1;
    for (let p = k; p < end; p++) {
      if (pat[p] === "-") {
        found = p;
        break;
      }
    }
    if (found < 0) break;
    chunks.push(pat.slice(i, found));
    i = found + 1;
    k = found + 3;
  }
  const last = pat.slice(i, end);
  if (last.length > 0) chunks.push(last);
  else chunks[chunks.length - 1]!.push("-");
  for (let c = chunks.length - 1; c > 0; c--) {
    const before = chunks[c - 1]!;
    const after = chunks[c]!;
    if (before.length === 0 || after.length === 0) continue;
    if (before[before.length - 1]!.codePointAt(0)! > after[0]!.codePointAt(0)!) {
      chunks[c - 1] = [...before.slice(0, -1), ...after.slice(1)];
      chunks.splice(c, 1);
    }
  }
  // Python joins the chunks with "-" (a range operator) and hands the set to its regex parser; read it the same way.
  const tokens: (string | null)[] = [];
  chunks.forEach((chunk, c) => {
    if (c > 0) tokens.push(null);
    tokens.push(...chunk);
  });
  if (tokens.length === 0) return "(?!)";
  let negate = false;
  let t = 0;
  if (tokens[0] === "!") {
    negate = true;
    t = 1;
    if (tokens.length === 1) return ".";
  }
  let body = "";
  while (t < tokens.length) {
    const lo = tokens[t] ?? "-";
    const hi = tokens[t + 2];
    if (tokens[t] !== null && tokens[t + 1] === null && hi !== undefined && hi !== null) {
      if (lo.codePointAt(0)! <= hi.codePointAt(0)!) body += `${escapeChar(lo)}-${escapeChar(hi)}`;
      t += 3;
    } else {
      body += escapeChar(lo);
      t += 1;
    }
  }
  if (body === "") return negate ? "." : "(?!)";
  return negate ? `[^${body}]` : `[${body}]`;
}
