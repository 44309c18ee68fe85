// Builds test/fixtures/confd-oracle.json: random cloud-init configuration trees (a base file, a conf.d directory of
// *.cfg files and things that are not, merge_how / merge_type declarations, conf_d keys, templates with instance
// data) read by the real cloud-init's util.read_conf_with_confd (confd_oracle.py).
//   apt-get install -y python3-yaml python3-jinja2
//   apt-get download cloud-init && dpkg -x cloud-init_*.deb /tmp/ci && \
//   PYTHON=/usr/bin/python3 PYTHONPATH=/tmp/ci/usr/lib/python3/dist-packages node test/oracle/confd-generate.mjs
// The tests only read the fixture file.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";

let seed = 20270301;
const rnd = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const pick = (a) => a[Math.floor(rnd() * a.length)];
const chance = (p) => rnd() < p;
const PYTHON = process.env.PYTHON ?? "python3";

const KEYS = ["a", "b", "runcmd", "packages", "users", "ntp", "1", "datasource_list", "system_info"];
const SCALARS = [
  "1",
  "2",
  "1.0",
  "2.5",
  "0755",
  "yes",
  "off",
  "~",
  "x",
  "'y'",
  "hello world",
  "2001-12-14",
  "''",
];
const SPECS = [
  "list()+dict()+str()",
  "list(append)+dict(no_replace,recurse_list)+str()",
  "dict(replace)+list(append)",
  "dict(replace)+list()+str()",
  "list(prepend)+dict(recurse_list,recurse_str)+str(append)",
  "dict(allow_delete,replace)+list()",
  "list()",
  "str()",
  "dict(recurse_array)+list(extend)",
  "list(apend)+dict(replce)",
];
const BAD_SPECS = ["nope()+dict()", "dict(", "dict()x", "+"];

function scalar() {
  return pick(SCALARS);
}

/** A block value at `indent` (a scalar on the key's line, or nested lines). */
function value(depth, indent) {
  const r = rnd();
  const pad = " ".repeat(indent + 2);
  if (depth >= 2 || r < 0.4) return ` ${scalar()}`;
  if (r < 0.55) return ` [${Array.from({ length: Math.floor(rnd() * 3) }, scalar).join(", ")}]`;
  if (r < 0.75) {
    const n = 1 + Math.floor(rnd() * 3);
    return `\n${Array.from({ length: n }, () => `${pad}- ${scalar()}`).join("\n")}`;
  }
  const n = 1 + Math.floor(rnd() * 3);
  const lines = [];
  for (let i = 0; i < n; i++) lines.push(`${pad}${pick(KEYS)}:${value(depth + 1, indent + 2)}`);
  return `\n${lines.join("\n")}`;
}

function declaration() {
  const r = rnd();
  if (r < 0.45) return "";
  if (r < 0.7) return `merge_how: '${pick(SPECS)}'\n`;
  if (r < 0.78) return `merge_type: '${pick(SPECS)}'\n`;
  if (r < 0.84) return `merge_how: null\nmerge_type: '${pick(SPECS)}'\n`;
  if (r < 0.9) return `merge_how: '${pick(SPECS)}'\nmerge_type: '${pick(SPECS)}'\n`;
  if (r < 0.94)
    return "merge_how:\n  - name: list\n    settings: [append]\n  - name: dict\n    settings: [no_replace, recurse_list]\n";
  if (r < 0.985) return "";
  if (r < 0.995) return `merge_how: '${pick(BAD_SPECS)}'\n`;
  return "merge_how: 5\n";
}

function mapping() {
  const n = Math.floor(rnd() * 5);
  const lines = [];
  for (let i = 0; i < n; i++) lines.push(`${pick(KEYS)}:${value(0, 0)}`);
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}

const TEMPLATE_BODIES = [
  "a: {{ v1.region }}\nruncmd: [{{ cloud_name }}, {{ ds.meta_data.instance_id }}]\n",
  "b: {{ missing }}\n",
  "{% if v1.cloud_name == 'aws' %}\na: aws\n{% else %}\na: other\n{% endif %}\n",
  "a: {{ v1.missing.deeper }}\n",
  "a: {{ v1.region - 1 }}\n",
  "a: {% if %}\n",
  "packages:\n{% for p in ['x', 'y'] %}\n  - {{ p }}\n{% endfor %}\n",
  "",
  "{{ '' }}",
];
const INSTANCE_DATA = JSON.stringify({
  v1: { cloud_name: "aws", region: "us-east-1", "instance-id": "i-1" },
  ds: { "meta-data": { instance_id: "i-1" } },
  "base64-encoded-keys": [],
});

/** The text of one configuration file. */
function content(allowTemplate) {
  const r = rnd();
  if (r < 0.06) return "";
  if (r < 0.09) return "# only a comment\n";
  if (r < 0.13) return "a: [unclosed\n";
  if (r < 0.16) return "- a\n- b\n";
  if (r < 0.18) return "just a string\n";
  if (r < 0.2) return "a: 1\n---\nb: 2\n";
  if (r < 0.22) return `\ufeff${mapping()}`;
  if (r < 0.226) return Buffer.from([0x61, 0x3a, 0x20, 0xff, 0x0a]);
  if (allowTemplate && r < 0.34) return `## template: jinja\n${pick(TEMPLATE_BODIES)}`;
  if (allowTemplate && r < 0.36) return "## template: mako\na: 1\n";
  return `${declaration()}${mapping()}`;
}

const asEntry = (path, text) => ({
  path,
  kind: "file",
  content: (typeof text === "string" ? Buffer.from(text, "utf8") : text).toString("base64"),
});

function confdNames() {
  const names = ["00-first.cfg", "10_b.cfg", "50.cfg", "90-last.cfg", "A.cfg", "z.cfg", "é.cfg", ".cfg"];
  const out = [];
  for (const name of names) if (chance(0.35)) out.push(name);
  return out;
}

function tree(withTemplates) {
  const entries = [];
  const r = rnd();
  let dirName = "cloud.cfg.d";
  let conf = "";
  if (r < 0.1) {
    dirName = "other.d";
    conf = pick(["conf_d: other.d\n", "conf_d: '  other.d  '\n", "conf_d: ./other.d/\n"]);
  } else if (r < 0.14) conf = pick(["conf_d: ''\n", "conf_d: null\n", "conf_d: 0\n", "conf_d: []\n"]);
  else if (r < 0.16) conf = pick(["conf_d: 1\n", "conf_d: [a]\n", "conf_d: {a: 1}\n"]);
  else if (r < 0.18) conf = "conf_d: missing.d\n";
  const baseKind = rnd();
  if (baseKind < 0.06) {
    // no base file at all: cloud-init still reads cloud.cfg.d
  } else if (baseKind < 0.1) entries.push({ path: "cloud.cfg", kind: "dir" });
  else {
    const body = content(withTemplates);
    entries.push(
      asEntry("cloud.cfg", typeof body === "string" && !body.startsWith("## ") ? conf + body : body),
    );
  }
  if (chance(0.9)) {
    entries.push({ path: dirName, kind: "dir" });
    for (const name of confdNames()) entries.push(asEntry(`${dirName}/${name}`, content(withTemplates)));
    if (chance(0.15)) entries.push(asEntry(`${dirName}/README`, "a: not read\n"));
    if (chance(0.15)) entries.push(asEntry(`${dirName}/x.cfg.bak`, "a: not read\n"));
    if (chance(0.1)) entries.push(asEntry(`${dirName}/upper.CFG`, "a: not read\n"));
    if (chance(0.1)) entries.push(asEntry(`${dirName}/sub/inner.cfg`, "a: not read\n"));
    if (chance(0.1)) entries.push({ path: `${dirName}/dir.cfg`, kind: "dir" });
    if (chance(0.1)) {
      entries.push(asEntry("elsewhere.yaml", "b: from a symlink\n"));
      entries.push({ path: `${dirName}/linked.cfg`, kind: "symlink", target: "../elsewhere.yaml" });
    }
    if (chance(0.08)) entries.push({ path: `${dirName}/broken.cfg`, kind: "symlink", target: "nowhere.cfg" });
  }
  return entries;
}

const cases = [];
for (let i = 0; i < 900; i++) cases.push({ file: "cloud.cfg", tree: tree(false) });
for (let i = 0; i < 200; i++)
  cases.push({ file: "cloud.cfg", tree: tree(true), instanceData: INSTANCE_DATA });
// A base file named by a path with a directory, whose FILE.d sits beside it.
cases.push({
  file: "etc/cloud/cloud.cfg",
  tree: [
    asEntry("etc/cloud/cloud.cfg", "a: base\nb: base\n"),
    asEntry("etc/cloud/cloud.cfg.d/x.cfg", "a: confd\n"),
  ],
});
// Templates without instance data are plain YAML (the type line is a comment).
cases.push({ file: "cloud.cfg", tree: [asEntry("cloud.cfg", "## template: jinja\na: '{{ v1.region }}'\n")] });

const results = JSON.parse(
  execFileSync(PYTHON, [new URL("./confd_oracle.py", import.meta.url).pathname], {
    input: JSON.stringify(cases),
    maxBuffer: 1 << 28,
    env: process.env,
  }).toString(),
);
const version = execFileSync(
  PYTHON,
  ["-c", "from cloudinit import version; print(version.version_string())"],
  {
    env: process.env,
  },
)
  .toString()
  .trim();
const out = {
  cloudInit: version,
  cases: cases.map((c, i) => ({ ...c, expected: results[i] })),
};
writeFileSync(new URL("../fixtures/confd-oracle.json", import.meta.url), `${JSON.stringify(out)}\n`);
const crashes = results.filter((r) => r.crash !== undefined).length;
console.log(
  `${cases.length} cases (${crashes} where cloud-init stops with an exception), cloud-init ${version}`,
);
