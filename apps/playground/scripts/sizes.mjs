// What a visit downloads, gzipped: the page and its script, the merge worker and the modules they import
// statically (the first load of the cloud-config mode), then each chunk loaded on demand (PillarStack's engine, the
// MIME reader). `node scripts/sizes.mjs` after `vite build`; `--json` prints the numbers as JSON.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const dist = fileURLToPath(new URL("../dist/", import.meta.url));
const assets = readdirSync(`${dist}assets`);
const gz = (file) => gzipSync(readFileSync(`${dist}${file}`), { level: 9 }).length;
const text = (file) => readFileSync(`${dist}${file}`, "utf8");

// Static imports of a built module (`import{a}from"./x.js"`, `import"./x.js"`), not `import("./x.js")`.
function staticImports(file) {
  const out = new Set();
  for (const match of text(file).matchAll(/(?:\bfrom|\bimport)\s*["']\.\/([^"']+\.js)["']/g))
    out.add(`assets/${match[1]}`);
  return out;
}
function closure(files) {
  const seen = new Set();
  const todo = [...files];
  while (todo.length > 0) {
    const file = todo.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    for (const dep of staticImports(file)) todo.push(dep);
  }
  return seen;
}

const html = text("index.html");
const entry = [...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+)"/g)].map((m) => m[1]);
const worker = assets.filter((name) => /^worker-.*\.js$/.test(name)).map((name) => `assets/${name}`);
const first = closure(["index.html", ...entry.filter((f) => f.endsWith(".js")), ...worker]);
for (const css of entry.filter((f) => f.endsWith(".css"))) first.add(css);
const sum = (files) => [...files].reduce((total, file) => total + gz(file), 0);

const lazy = {};
for (const name of assets) {
  const file = `assets/${name}`;
  if (first.has(file) || !name.endsWith(".js")) continue;
  const extra = [...closure([file])].filter((f) => !first.has(f));
  lazy[name.replace(/-[\w-]+\.js$/, "")] = sum(extra);
}
const report = {
  firstLoad: { files: [...first].sort(), gzipBytes: sum(first) },
  onDemand: lazy,
};
if (process.argv.includes("--json")) console.log(JSON.stringify(report, null, 2));
else {
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log(`cloud-config mode, first load: ${kb(report.firstLoad.gzipBytes)} gzipped`);
  for (const file of report.firstLoad.files) console.log(`  ${file}  ${kb(gz(file))}`);
  console.log("loaded on demand (gzipped, beyond the first load):");
  for (const [name, bytes] of Object.entries(lazy)) console.log(`  ${name}  ${kb(bytes)}`);
}
