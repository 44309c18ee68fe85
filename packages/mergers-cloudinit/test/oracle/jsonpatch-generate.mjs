// Builds test/fixtures/jsonpatch-oracle.json: random #cloud-config-jsonp parts applied to random configurations by the
// real cloud-init handler with Debian's python3-jsonpatch / python3-json-pointer (jsonpatch_oracle.py).
//   apt-get install -y python3-yaml python3-jsonpatch
//   apt-get download cloud-init && dpkg -x cloud-init_*.deb /tmp/ci && \
//   PYTHON=/usr/bin/python3 PYTHONPATH=/tmp/ci/usr/lib/python3/dist-packages node test/oracle/jsonpatch-generate.mjs
// The tests only read the fixture file.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { loadYaml } from "@merge/yaml";

let seed = 20270117;
const rnd = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const pick = (a) => a[Math.floor(rnd() * a.length)];
const PYTHON = process.env.PYTHON ?? "python3";

// Configurations as YAML (both sides load them with their YAML 1.1 reader): int keys, whole floats, keys that are
// JavaScript member names, strings, bytes, timestamps, sets and aliases.
const DOCS = [
  "a: {b: 1, c: [1, 2, 3]}\nl: [x, y, z]\ns: hello\nn: 5\nf: 1.0\nt: true\nz: ~\n",
  "ports: {8080: a, '8080': b, 443: c}\n10: ten\n'9': nine\nl: [0, 1, 2]\n",
  "constructor: c\ntoString: t\n__proto__: p\nlength: 3\n'': empty\n'a/b': slash\n'm~n': tilde\n'-': dash\nlist: [0, 1, 2]\n",
  "l: [[1, 2], {k: v}, [], '', 9.0]\nbytes: !!binary aGVsbG8=\nwhen: 2001-12-14\nset: !!set {a, b}\n",
  "base: &b {p: 1, q: [1, 2]}\nother: *b\nlist: [*b, *b]\n",
  "{}\n",
  "é: 1\n'日本': [1]\ns: 'a😀b'\nn: {x: {y: {z: [1, {w: 2}]}}}\n",
  "~: none\nnull_list: [~]\n1: one\ntrue: yes\n1.5: f\n",
  "runcmd: [a, b]\npackages: [p]\nwrite_files: [{path: /x, content: c}]\n",
  "a: {b: {c: {d: 1}}}\nl: [{a: 1}, {a: 2}]\n",
];
const KEYS = [
  "a",
  "b",
  "c",
  "l",
  "s",
  "n",
  "f",
  "t",
  "z",
  "ports",
  "8080",
  "443",
  "10",
  "9",
  "list",
  "runcmd",
  "packages",
  "x",
  "y",
  "p",
  "q",
  "base",
  "other",
  "bytes",
  "when",
  "set",
  "constructor",
  "toString",
  "__proto__",
  "length",
  "",
  "a~1b",
  "m~0n",
  "-",
  "valueOf",
  "hasOwnProperty",
  "prototype",
  "é",
  "日本",
  "k",
  "w",
  "d",
  "1",
  "true",
  "null",
  "~",
  "1.5",
  "new",
];
const INDEXES = [
  "0",
  "1",
  "2",
  "3",
  "5",
  "-",
  "01",
  "00",
  "007",
  "0_1",
  "0x1",
  "+1",
  "-1",
  " 1",
  "1 ",
  "1\n",
  "0\n",
  "0 ",
  "0\u0663",
  "\u0661",
  "1e0",
  "10",
  "1.0",
  "0_",
  "99999999999999999999",
];
const BAD = ["~2", "~", "a~", "~a"];

function segment() {
  const r = rnd();
  if (r < 0.55) return pick(KEYS);
  if (r < 0.95) return pick(INDEXES);
  return pick(BAD);
}

const escapeKey = (key) => key.replaceAll("~", "~0").replaceAll("/", "~1");

/** Every pointer that exists in a configuration (exact model: only string keys are reachable). */
function pointersOf(doc) {
  const out = [];
  const walk = (value, at, depth) => {
    if (depth > 4) return;
    if (Array.isArray(value)) {
      value.forEach((item, i) => {
        out.push([`${at}/${i}`, item]);
        walk(item, `${at}/${i}`, depth + 1);
      });
    } else if (isDict(value)) {
      for (const [key, item] of value.entries()) {
        if (typeof key !== "string") continue;
        out.push([`${at}/${escapeKey(key)}`, item]);
        walk(item, `${at}/${escapeKey(key)}`, depth + 1);
      }
    }
  };
  walk(doc, "", 0);
  return out;
}
const isDict = (v) => v !== null && typeof v === "object" && v.constructor?.name === "PyDict";

/** JSON text for a loaded value, floats written as floats; undefined for what JSON cannot hold. */
function jsonOf(v) {
  if (v === null || typeof v === "string" || typeof v === "boolean") return JSON.stringify(v);
  if (typeof v === "number")
    return Number.isInteger(v) ? String(v) : Number.isFinite(v) ? String(v) : undefined;
  if (v?.constructor?.name === "PyFloat") return Number.isFinite(v.value) ? `${v.value}.0` : undefined;
  if (Array.isArray(v)) {
    const items = v.map(jsonOf);
    return items.includes(undefined) ? undefined : `[${items.join(", ")}]`;
  }
  if (isDict(v)) {
    const items = [...v.entries()].map(([k, x]) => (typeof k === "string" ? [k, jsonOf(x)] : [undefined]));
    if (items.some(([k, x]) => k === undefined || x === undefined)) return undefined;
    // Mappings compare in any order: write them reversed.
    return `{${items
      .reverse()
      .map(([k, x]) => `${JSON.stringify(k)}: ${x}`)
      .join(", ")}}`;
  }
  return undefined;
}
const POINTERS = new Map(
  DOCS.map((doc) => [doc, pointersOf(loadYaml(doc, { values: "exact" })).map(([p]) => p)]),
);
const TESTABLE = new Map(
  DOCS.map((doc) => [
    doc,
    pointersOf(loadYaml(doc, { values: "exact" }))
      .map(([p, v]) => [p, jsonOf(v)])
      .filter(([, text]) => text !== undefined),
  ]),
);
let current = DOCS[0];

function path() {
  const existing = POINTERS.get(current);
  const r0 = rnd();
  if (existing.length > 0 && r0 < 0.45) return pick(existing);
  if (existing.length > 0 && r0 < 0.65) return `${pick(existing)}/${pick(["-", "new", "0", "1", "x"])}`;
  if (r0 < 0.75) return `/${pick(["new", "x", "n2", "runcmd", "a", "l"])}`;
  const r = rnd();
  if (r < 0.04) return "";
  if (r < 0.06) return pick(["a", "a/b", " /a"]);
  if (r < 0.08) return pick([{ raw: "5" }, { raw: "null" }, { raw: '["/a"]' }, { raw: '{"a": 1}' }]);
  const n = 1 + Math.floor(rnd() * 3);
  return `/${Array.from({ length: n }, segment).join("/")}`;
}

const VALUES = [
  { raw: "1" },
  { raw: "1.0" },
  { raw: "true" },
  { raw: "false" },
  { raw: "0" },
  { raw: "-0.0" },
  { raw: "1e2" },
  { raw: "NaN" },
  { raw: "Infinity" },
  { raw: "12345678901234567890" },
  { raw: "5" },
  { raw: "5.0" },
  { raw: "9.0" },
  "hello",
  "h",
  "x",
  "",
  null,
  { raw: "[1, 1.0]" },
  { raw: "[1, 2, 3]" },
  { raw: "[true, 2.0, 3]" },
  { raw: '{"b": 1, "c": [1, 2, 3]}' },
  { raw: '{"c": [1, 2, 3], "b": 1.0}' },
  { raw: '{"10": 1, "9": 2, "B": 3}' },
  { raw: '{"x": {"y": [1]}}' },
  { raw: '{"k": 1, "k": 2, "j": 3}' },
  { raw: '{"p": 1, "q": [1, 2]}' },
  { raw: "[]" },
  { raw: "{}" },
  "c",
  "ten",
  "none",
];

/** JSON text of a generated value; `{ raw }` is written as is (floats, NaN, big ints, duplicate keys). */
function text(v) {
  if (v !== null && typeof v === "object" && "raw" in v) return v.raw;
  if (Array.isArray(v)) return `[${v.map(text).join(", ")}]`;
  if (v !== null && typeof v === "object" && "pairs" in v) {
    return `{${v.pairs.map(([k, x]) => `${JSON.stringify(k)}: ${text(x)}`).join(", ")}}`;
  }
  return JSON.stringify(v);
}

const OPS = [
  "add",
  "add",
  "add",
  "remove",
  "remove",
  "replace",
  "replace",
  "move",
  "copy",
  "test",
  "test",
  "test",
];
const ODD_OPS = ["_get", "ADD", "", "get", "merge", { raw: "1" }, { raw: "null" }, { raw: '["add"]' }];

function operation() {
  const r = rnd();
  const op = r < 0.02 ? pick(ODD_OPS) : pick(OPS);
  const pairs = [];
  if (rnd() > 0.02) pairs.push(["op", op]);
  if (rnd() > 0.03) pairs.push(["path", path()]);
  const name = typeof op === "string" ? op : "";
  const testable = TESTABLE.get(current);
  if (name === "test" && testable.length > 0 && rnd() < 0.6) {
    // A test of what is there (1 written 1.0 or true now and then: Python's == agrees).
    const [at, value] = pick(testable);
    const spelled = value === "1" ? pick(["1", "1.0", "true"]) : value;
    return {
      pairs: [
        ["op", "test"],
        ["path", at],
        ["value", { raw: spelled }],
      ],
    };
  }
  if ((name === "move" || name === "copy") && rnd() > 0.05) pairs.push(["from", path()]);
  if (["add", "replace", "test"].includes(name) ? rnd() > 0.04 : rnd() < 0.05)
    pairs.push(["value", pick(VALUES)]);
  // Repeated members: the library's multidict hook turns them into lists.
  if (rnd() < 0.03) pairs.push([pick(["op", "path", "value", "from"]), pick(VALUES)]);
  for (let i = pairs.length - 1; i > 0; i--) {
    if (rnd() < 0.2) [pairs[i], pairs[i - 1]] = [pairs[i - 1], pairs[i]];
  }
  return { pairs };
}

const PREFIXES = [
  ...Array(14).fill("#cloud-config-jsonp\n"),
  "#cloud-config-jsonp",
  "  \n#cloud-config-jsonp\n",
  "\x1c\x85#cloud-config-jsonp\n",
  "\ufeff#cloud-config-jsonp\n",
  "#CLOUD-CONFIG-JSONP\n",
  "",
  "#cloud-config-jsonp\n\ufeff",
];

function patch() {
  const r = rnd();
  let body;
  if (r < 0.06) {
    body = pick([
      "{}",
      '""',
      "[]",
      "5",
      "null",
      "true",
      '{"op": "add"}',
      '"abc"',
      "[{",
      "[] x",
      '[{"op": "add", "path": "/a", "value": 1}',
      '["op"]',
      "[[]]",
      '[{"op": "add", "path": "/a", "value": 1}, 5]',
    ]);
  } else {
    body = `[${Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => text(operation())).join(", ")}]`;
  }
  return pick(PREFIXES) + body;
}

/** Cases that each check one rule of the libraries, written by hand. */
const HAND = [
  [
    "a: 1\n",
    '[{"op": "add", "path": "/constructor", "value": 1}, {"op": "add", "path": "/toString", "value": 2}]',
  ],
  ["a: 1\n", '[{"op": "add", "path": "/__proto__", "value": {"polluted": true}}]'],
  ["a: 1\n", '[{"op": "_get", "path": "/a"}]'],
  ["l: [1, 2]\n", '[{"op": "test", "path": "/l/length", "value": 2}]'],
  ["l: [1, 2]\n", '[{"op": "add", "path": "/l/01", "value": 9}]'],
  ["l: [1, 2]\n", '[{"op": "replace", "path": "/l/00", "value": 9}]'],
  ["l: [1, 2]\n", '[{"op": "add", "path": "/l/-", "value": 9}, {"op": "remove", "path": "/l/0"}]'],
  ["l: [1, 2]\n", '[{"op": "replace", "path": "/l/-", "value": 9}]'],
  ["n: 1\n", '[{"op": "test", "path": "/n", "value": 1.0}, {"op": "test", "path": "/n", "value": true}]'],
  ["n: 1.0\n", '[{"op": "test", "path": "/n", "value": 1}]'],
  ["n: .nan\n", '[{"op": "test", "path": "/n", "value": NaN}]'],
  ["m: {a: 1, b: [1, 2.0]}\n", '[{"op": "test", "path": "/m", "value": {"b": [1.0, 2], "a": true}}]'],
  ["ports: {8080: a}\n", '[{"op": "replace", "path": "/ports/8080", "value": "b"}]'],
  ["ports: {8080: a}\n", '[{"op": "add", "path": "/ports/8080", "value": "b"}]'],
  ["a: {b: 1}\n", '[{"op": "move", "from": "/a", "path": "/a/b/c"}]'],
  ["a: {b: 1}\n", '[{"op": "move", "from": "/a", "path": "/a"}]'],
  ["l: [[1], 2]\n", '[{"op": "move", "from": "/l/0", "path": "/l/0/0"}]'],
  ["l: [1, 2, 3]\n", '[{"op": "move", "from": "/l/0", "path": "/l/2"}]'],
  [
    "a: {b: [1]}\n",
    '[{"op": "copy", "from": "/a", "path": "/c"}, {"op": "add", "path": "/c/b/-", "value": 2}]',
  ],
  ["s: hello\n", '[{"op": "test", "path": "/s/1", "value": "e"}]'],
  ["s: hello\n", '[{"op": "copy", "from": "/s/0", "path": "/c"}]'],
  ["s: hello\n", '[{"op": "add", "path": "/s/0", "value": "x"}]'],
  ["a: 1\n", '[{"op": "add", "path": "", "value": [1, 2]}, {"op": "add", "path": "/-", "value": 3}]'],
  ["a: 1\n", '[{"op": "replace", "path": "", "value": 5}]'],
  ["~: none\na: 1\n", '[{"op": "remove", "path": ""}]'],
  ["a: 1\n", '[{"op": "add", "path": "/b", "value": 1, "value": 2}]'],
  ["a: 1\n", '[{"op": "add", "op": "remove", "path": "/a"}]'],
  ["a: 1\n", '[{"op": "add", "path": "/x", "value": {"k": 1, "\\u006b": 2}}]'],
  ["a: 1\n", "[]"],
  ["a: 1\n", "{}"],
  ["a: 1\n", '""'],
  ["a: 1\n", '{"op": "add", "path": "/b", "value": 1}'],
  [
    "a: 1\n",
    '[{"op": "add", "path": "/b", "value": 1.0}, {"op": "add", "path": "/c", "value": 12345678901234567890}]',
  ],
];

const cases = [
  ...HAND.map(([doc, body]) => ({ doc, patch: `#cloud-config-jsonp\n${body}` })),
  ...Array.from({ length: 2400 }, () => {
    current = pick(DOCS);
    return { doc: current, patch: patch() };
  }),
];
const out = JSON.parse(
  execFileSync(PYTHON, [new URL("./jsonpatch_oracle.py", import.meta.url).pathname], {
    input: JSON.stringify(cases),
    maxBuffer: 1 << 28,
  }).toString(),
);
const fixture = {
  jsonpatch: out.jsonpatch,
  jsonpointer: out.jsonpointer,
  cases: cases.map((c, i) => ({ ...c, expected: out.results[i] })),
};
writeFileSync(new URL("../fixtures/jsonpatch-oracle.json", import.meta.url), `${JSON.stringify(fixture)}\n`);
const applied = out.results.filter((r) => r.value !== undefined).length;
console.log(
  `${cases.length} cases (${applied} applied) from jsonpatch ${out.jsonpatch}, jsonpointer ${out.jsonpointer}`,
);
