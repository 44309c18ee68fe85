// The seeded corpus of the PyYAML oracle tests: strings of every character class that matters to YAML, and YAML
// texts that hold them (or that spread flow scalars over lines). Plain JavaScript, so record.mjs can use it too.
// Everything here is deterministic: the same seed gives the same cases on every machine.

/** A small deterministic generator (a linear congruential one is enough to pick cases). */
export function random(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (list) => list[Math.floor(next() * list.length)],
  };
}

const range = (from, to) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i));

/** Characters by class. */
export const CLASSES = {
  c0: range(0x00, 0x1f),
  del: ["\x7f"],
  c1: range(0x80, 0x9f),
  breaks: ["\n", "\r", "\r\n", "\u0085", "\u2028", "\u2029"],
  bom: ["\ufeff"],
  nonCharacters: ["\ufffe", "\uffff", "\ufdd0", "\ufdef", "\u{1fffe}", "\u{10ffff}"],
  specials: ["\ufff9", "\ufffc", "\ufffd", "\ue000", "\uf8ff", "\u{f0000}", "\u{10fffd}"],
  astral: ["\u{10000}", "\u{1f600}", "\u{1f9d1}\u200d\u{1f4bb}", "\u{20000}", "\u{1d11e}", "\u{e0001}"],
  nonAscii: [
    "\u00a0",
    "é",
    "ß",
    "\u0301",
    "\u05d0",
    "\u202e",
    "\u200b",
    "\u200d",
    "\u2060",
    "中",
    "\u3000",
    "\u2003",
  ],
  spaces: [" ", "  ", "\t", " \t"],
  indicators: Array.from("-?:,[]{}#&*!|>'\"%@`\\/=<~."),
};

/** Texts PyYAML's resolver reads as something other than a string (and near misses). */
export const LOOKALIKES = [
  ...["yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE"],
  ...["on", "On", "ON", "off", "Off", "OFF", "y", "Y", "n", "N", "yEs", "oN", "tRUE"],
  ...["null", "Null", "NULL", "~", "nULL", "", "None"],
  ...[
    "0",
    "-0",
    "+0",
    "00",
    "0755",
    "0o17",
    "09",
    "0b1010",
    "0b2",
    "0x1F",
    "0x_1f",
    "1_000",
    "_1",
    "1_",
    "+12",
  ],
  ...["1:30", "1:30:45", "-1:30", "1:60", "0:30", "190:20:30", "1:30.5", "1:1:1:1:1", "12:30:00.000"],
  ...[
    "1.5",
    "1.",
    ".5",
    "1.0e+3",
    "1e3",
    "1.0e3",
    "1E+3",
    "-.inf",
    ".Inf",
    "+.INF",
    ".nan",
    ".NaN",
    ".NAN",
    "inf",
    "nan",
  ],
  ...[
    "2001-12-14",
    "2001-12-14t21:59:43.10-05:00",
    "2001-12-14 21:59:43.10 -5",
    "2001-12-14 21:59:43",
    "2001-1-1",
  ],
  ...["2001-12-14T21:59:43Z", "2002-12-14", "1999-02-30", "20011214"],
  ...[
    "<<",
    "=",
    "<",
    "==",
    "- ",
    "-",
    "--",
    "---",
    "...",
    "....",
    "? ",
    "?",
    ": ",
    ":",
    "::",
    "#",
    "# x",
    "a #b",
    "a# b",
  ],
  ...[
    "a: b",
    "a:b",
    "a :b",
    "[a]",
    "{a: b}",
    "*a",
    "&a b",
    "!a",
    "!!str",
    "%YAML",
    "@a",
    "`a",
    "|",
    ">",
    "'a'",
    '"a"',
  ],
  ...["a,b", "a]b", "a}", "a?", "a?b", "http://x.y/z?a=b#c", "C:\\dir", "-1", "- a", "-a", "?a", ":a", "a:"],
];

/** Ordinary words the generator mixes in. */
const WORDS = ["a", "key", "value", "x y", "hello world", "0", "1", "ab:cd", "é", "tab", "-", " "];

/** Every special character alone and at the start, middle and end of a word, then lookalikes and random mixes. */
export function scalarCorpus(seed = 20261202, randomCount = 1500) {
  const out = new Set();
  const special = [
    ...CLASSES.c0,
    ...CLASSES.del,
    ...CLASSES.c1,
    ...CLASSES.breaks,
    ...CLASSES.bom,
    ...CLASSES.nonCharacters,
    ...CLASSES.specials,
    ...CLASSES.astral,
    ...CLASSES.nonAscii,
    ...CLASSES.spaces,
  ];
  for (const c of special) for (const s of [c, `a${c}`, `${c}a`, `a${c}b`, `a ${c} b`]) out.add(s);
  for (const c of CLASSES.indicators) {
    for (const s of [c, `${c}a`, `a${c}`, `a${c}b`, `${c} a`, `a ${c}`, `a ${c} b`, `${c}${c}`, `a${c} b`])
      out.add(s);
  }
  for (const s of LOOKALIKES) for (const v of [s, ` ${s}`, `${s} `, `${s}\n`, `x ${s}`]) out.add(v);
  const r = random(seed);
  const pieces = () => {
    const kind = r.int(10);
    if (kind < 3) return r.pick(WORDS);
    if (kind < 4) return r.pick(LOOKALIKES);
    if (kind < 5) return r.pick(CLASSES.indicators);
    if (kind < 6) return r.pick(CLASSES.breaks);
    if (kind < 7) return r.pick(CLASSES.spaces);
    if (kind < 8) return r.pick([...CLASSES.c0, ...CLASSES.c1, ...CLASSES.del, ...CLASSES.bom]);
    if (kind < 9) return r.pick([...CLASSES.nonCharacters, ...CLASSES.specials, ...CLASSES.astral]);
    return r.pick(CLASSES.nonAscii);
  };
  for (let i = 0; i < randomCount; i++) {
    let s = "";
    const n = 1 + r.int(6);
    for (let k = 0; k < n; k++) s += pieces();
    // Some long ones, so that line wrapping (width 80) is exercised.
    if (r.int(16) === 0)
      s = Array.from({ length: 4 + r.int(6) }, () => s || "word").join(r.pick([" ", "  ", "\n", " \n "]));
    out.add(s);
  }
  return [...out];
}

/** A YAML double-quoted form of a string with escapes for everything outside printable ASCII, as PyYAML reads it. */
function doubleQuoted(s) {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0);
    if (ch === '"' || ch === "\\") out += `\\${ch}`;
    else if (cp >= 0x20 && cp < 0x7f) out += ch;
    else if (cp <= 0xff) out += `\\x${cp.toString(16).padStart(2, "0")}`;
    else if (cp <= 0xffff) out += `\\u${cp.toString(16).padStart(4, "0")}`;
    else out += `\\U${cp.toString(16).padStart(8, "0")}`;
  }
  return `${out}"`;
}

/** YAML texts holding the corpus's strings written raw, plain, quoted, in blocks and in flow, as keys and values. */
export function readerCorpus(seed = 20261203) {
  const r = random(seed);
  const out = new Set();
  const strings = scalarCorpus(seed, 600);
  for (const s of strings) {
    const single = `'${s.replaceAll("'", "''")}'`;
    const forms = [
      s,
      `k: ${s}`,
      `- ${s}`,
      `${s}: v`,
      `k: ${single}`,
      `${single}: v`,
      `k: ${doubleQuoted(s)}`,
      `[${s}]`,
      `{${s}: v}`,
      `k: [${single}, x]`,
      `k: |\n  ${s}\n`,
      `k: >\n  ${s}\n  ${s}\n`,
      `- a\n- ${s}\n- b\n`,
    ];
    out.add(r.pick(forms));
    out.add(r.pick(forms));
  }
  for (const text of multilineCorpus(seed + 1)) out.add(text);
  return [...out];
}

/**
 * Issue 11's family: flow scalars (single, double quoted and plain) whose lines are indented less than, as much
 * as or more than their key, with blank lines, trailing spaces, escaped breaks, comments and document markers, in
 * block mappings and sequences at several depths and in flow collections.
 */
export function multilineCorpus(seed = 20261204, count = 1500) {
  const r = random(seed);
  const out = new Set();
  const breakOf = () => r.pick(["\n", "\n", "\n", "\r\n", "\n\n", "\n \n", "\u2028", "\u0085", "\u2029"]);
  const lineStart = (depth) => " ".repeat(Math.max(0, depth + r.pick([-2, -1, 0, 0, 1, 2, 4])));
  const word = () =>
    r.pick([
      "x",
      "y z",
      "1",
      "yes",
      "a: b",
      "a #c",
      "#c",
      "-",
      "- x",
      "---",
      "...",
      "'q'",
      '"q"',
      "k:",
      "é",
      "\\",
      "\\t",
      "\\\n",
      "  ",
    ]);
  const flowScalar = (depth, quote) => {
    const lines = 2 + r.int(3);
    let s = word();
    for (let i = 1; i < lines; i++)
      s += `${r.pick(["", " ", "  ", "\t"])}${breakOf()}${lineStart(depth)}${word()}`;
    if (quote === "'") return `'${s.replaceAll("'", "''")}'`;
    if (quote === '"') return `"${s.replaceAll('"', '\\"').replace(/\\(?![tn"\n])/g, "\\\\")}"`;
    return s;
  };
  for (let i = 0; i < count; i++) {
    const depth = r.pick([0, 2, 4]);
    const indent = " ".repeat(depth);
    const quote = r.pick(["'", '"', "", "'", '"']);
    const scalar = flowScalar(depth, quote);
    const shape = r.int(7);
    let text;
    if (shape === 0) text = `${indent}a: ${scalar}\n${indent}b: 1\n`;
    else if (shape === 1) text = `${indent}- ${scalar}\n${indent}- 2\n`;
    else if (shape === 2) text = `k:\n${" ".repeat(depth + 2)}a: ${scalar}\n${" ".repeat(depth + 2)}b: c\n`;
    else if (shape === 3) text = `- a: ${scalar}\n  b: c\n`;
    else if (shape === 4) text = `k: [${scalar}, z]\n`;
    else if (shape === 5) text = `${scalar}\n`;
    else text = `? ${scalar}\n: v\n`;
    out.add(text);
  }
  return [...out];
}
