// Records test/fixtures/pyyaml-oracle.json from the real PyYAML, so the package's tests of the bugs the oracle
// found also hold on a machine without Python. Run after `pnpm build`, with Debian's python3-yaml installed:
//   node test/oracle/record.mjs            (from packages/yaml)
// Loads: the texts below and issue 11's generated multi-line family, with what SafeLoader (flavour `pyyaml`) and
// libyaml with Salt's constructor rules (flavour `salt`) read. Dumps: strings that PyYAML's own emitter cannot
// round-trip or that YAML 1.1 gives a meaning to, with the text @merge/yaml writes in each preset and what
// SafeLoader and CSafeLoader read back from that text.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dumpYaml } from "../../dist/index.js";
import { multilineCorpus } from "./corpus.mjs";

const python = process.env.MERGE_TEST_PYTHON || "/usr/bin/python3";
const script = new URL("./pyyaml.py", import.meta.url).pathname;

function ask(requests) {
  const run = spawnSync(python, [script], {
    input: JSON.stringify(requests),
    encoding: "utf8",
    maxBuffer: 1 << 30,
  });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout);
}

const LOAD_TEXTS = [
  // Issue 11: quoted scalars whose lines are indented no deeper than their key.
  "a: 'x\ny'\n",
  'k:\n  a: "x\n  y"\n',
  "- 'a\nb'\n- c\n",
  "a:\n  - b: 'c\n d'\n    e: 2\n",
  "a: 'x\n---\n  y'\n",
  "a: 'p  \n\n\n  q  '\n",
  'a: "p\\\n   q"\n',
  'a: "p \\\n\n   q"\n',
  "k: [a,\nb]\n",
  "k: [x  \ny z, z]\n",
  "k: {a: 1,\nb: 2}\nz: 3\n",
  // LINE SEPARATOR, PARAGRAPH SEPARATOR and NEL end lines.
  "a: x\u2028b: y\n",
  "# c\u2029a: 1\n",
  "a: 'x\u2028y'\n",
  'a: "x \u2028 y"\n',
  "a: 'x\u0085y'\n",
  "a: x\u0085 y\n",
  '- "a\\\u2028b"\n',
  "k: |\n  x\u2028  y\n",
  "k: >\n  a\u2028  b\n  c\n\n  d\n",
  "k: >+\n  a\u2029\n\n",
  "- >\n   a\u2028   b\n- c\n",
  // Flow keys and anchors as PyYAML scans them.
  "{a: 1, b\n: 2}\n",
  "{'q\n': v}\n",
  "[: a]\n",
  "{: a}\n",
  "[:a]\n",
  "{!!str\n: v}\n",
  `{${"a".repeat(1100)}: v}\n`,
  "k: &a.b x\n",
  "k: &&\n",
  "[http://x.y/z?a=b#c]\n",
  // Tabs as libyaml (Salt) takes them.
  " \t0\n",
  "a: 1\n \t\nb: 2\n",
  "a:\n  \tb\n",
  "k: |\n   \ta\n",
  "k: [a\n\tb]\n",
  "[  Y\u2029\t]\n",
  // Base 60 and Python's int limits (issue 17).
  `a: 1${":1".repeat(2000)}\n`,
  `a: 1${":59".repeat(173)}.5\n`,
  `a: 1${":1".repeat(174)}.5\n`,
  "a: 190:20:30.15\n",
  'a: !!float " 1 : 2 "\n',
  "a: !!float 1_0:1_0.5\n",
  `a: ${"1".repeat(4300)}\n`,
  `a: ${"1".repeat(4301)}\n`,
  `a: 0${"1".repeat(4301)}\n`,
  `a: !!float ${"1".repeat(5000)}x\n`,
  // Found by running Salt's real loader: a colon after an anchor, alias or tag in a flow collection, tabs in
  // directive lines, a repeated document end.
  "[&a:b]",
  "{&a:b}",
  "k: &n 1\nl: [*n:b, *n :c]\n",
  "[!!str :b]",
  "%YAML\t1.1\n---\na: 1\n",
  "%TAG !e!\ttag:example.com,2000:\n---\na: !!str 1\n",
  "%YAML 1.1 \t\n--- a\n",
  "a: 1\n...\n...\n",
  "a: 1\n...\n# c\n\n...\n",
  // A mapping merging itself, odd tags, and Salt's !!python/unicode on a list (reading rules 3).
  "large: &l\n  <<: [*l]\n  cpu: 8\n  cpu: 9\n",
  "l: &l\n  a: 1\n  <<: [{b: 2}, *l]\n  c: 3\n",
  "l: &l\n  m:\n    <<: *l\n    m: 1\n  n: 2\n",
  "a: &a\n  - <<: *a\n",
  "{!!value x: 1}",
  "a: !!value\nb: !!!int 1\n",
  "x: [!!b]ool x]\n",
  "a: [!!str]\n",
  "a: [!!str,]\n",
  "a: !a.b!c x\n",
  "k: !!python/unicode [a]\nx: 1\nx: 2\n",
];

const loadTexts = [...LOAD_TEXTS, ...multilineCorpus().slice(0, 400)];
const loaded = ask(
  loadTexts.flatMap((text) => [
    { text, loader: "safe" },
    { text, loader: "salt" },
  ]),
);
const load = loadTexts.map((text, i) => ({ text, pyyaml: loaded[2 * i], salt: loaded[2 * i + 1] }));

// Issue 17's characters, and what YAML 1.1 resolves: each as a value and as a key.
const DUMP_STRINGS = [
  "a\tb",
  "\t",
  "\u2028",
  "a\u2029b",
  "\x7f",
  "\ufffe",
  "\uffff",
  "\x85",
  "a\x85b",
  "\x85  x",
  "\ufeffk",
  "=",
  "<<",
  "~",
  "",
  "yes",
  "0o17",
  "1:30",
  "- a",
  "a: b",
  "a #b",
  " lead",
  "trail ",
  "two\nlines",
  "\u{1f600}",
  "\u00a0",
];
const PRESETS = ["pyyaml", "cloud-init", "salt", "readable"];
const dumpCases = [];
for (const s of DUMP_STRINGS) {
  for (const preset of PRESETS) {
    for (const style of ["block", "flow"]) {
      dumpCases.push({
        value: s,
        preset,
        style,
        text: dumpYaml({ k: s, [s]: "v" }, { preset, style, trim: false }),
      });
    }
  }
}
const readBack = ask(
  dumpCases.flatMap(({ text }) => [
    { text, loader: "safe" },
    { text, loader: "csafe" },
  ]),
);
const dump = dumpCases.map((c, i) => ({ ...c, safe: readBack[2 * i], csafe: readBack[2 * i + 1] }));

const [info] = ask([{ info: true }]);
const out = { recorded: `PyYAML ${info.pyyaml} (libyaml) on Python ${info.python}`, load, dump };
writeFileSync(new URL("../fixtures/pyyaml-oracle.json", import.meta.url), `${JSON.stringify(out)}\n`);
console.log(`${load.length} texts, ${dump.length} dumps recorded`);
