import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createCloudInitRegistry } from "@merge/mergers-cloudinit";
import { describe, expect, it } from "vitest";
import { configItems, createStackLoader, loadStack } from "./loader.js";
import { makeTree } from "./test-tree.js";
import { catchMergeError as failure } from "../../../test-kit/errors.js";

const codes = (warnings: readonly { code: string }[]) => warnings.map((w) => w.code);

/** A loader of `s/stack.cfg` in `tree` that records what it tells `onFile` and `onLookup` (`kind:pattern:matched`). */
function toldLoader(tree: string) {
  const files: string[] = [];
  const lookups: string[] = [];
  const loader = createStackLoader({
    config: "s/stack.cfg",
    cwd: tree,
    onFile: (file) => files.push(file),
    onLookup: (lookup) => lookups.push(`${lookup.kind}:${lookup.pattern}:${lookup.matched}`),
  });
  return { loader, files, lookups };
}

describe("config files", () => {
  const root = makeTree({
    "lines.cfg": "a.yml\n\n   \n a.yml\n#b.yml\nb.yml\nmissing.yml\nb.yml\n",
    "list.cfg": "- b.yml\n- a.yml\n",
    "badlist.cfg": "- a.yml\n- 12\n",
    "glob.cfg": "n/*.yml\n",
    "a.yml": "l: [a]\nwho: a\n",
    "b.yml": "l: [b]\nwho: b\n",
    "#b.yml": "hash: true\n",
    "n/10.yml": "order: [n10]\n",
    "n/9.yml": "order: [n9]\n",
    "n/B.yml": "order: [nB]\n",
    "n/_.yml": "order: [n_]\n",
    "n/.hidden.yml": "order: [hidden]\n",
  });
  const load = (config: string | string[]) => loadStack({ config, cwd: root, minionId: "m1" });

  it("reads one path per line: blank lines skipped, lines not stripped, # not a comment, repeats merged again", () => {
    const result = load("lines.cfg");
    expect(result.files).toEqual(["a.yml", "#b.yml", "b.yml", "b.yml"]);
    expect(result.data).toEqual({ l: ["a", "b", "b"], who: "b", hash: true });
    expect(result.warnings.map((w) => w.message)).toEqual([
      `Ignoring pillar stack template " a.yml": can't find from root dir ""`,
      `Ignoring pillar stack template "missing.yml": can't find from root dir ""`,
    ]);
  });

  it("reads a config that renders to a YAML list", () => {
    expect(load("list.cfg").files).toEqual(["b.yml", "a.yml"]);
  });

  it("refuses a YAML list item that is not a string", () => {
    expect(failure(() => load("badlist.cfg")).code).toBe("STACK_CONFIG");
  });

  it("merges glob matches sorted by code point, dotfiles left out", () => {
    expect(load("glob.cfg").data).toEqual({ order: ["n10", "n9", "nB", "n_"] });
  });

  it("skips a missing config with a warning and runs a config listed twice twice", () => {
    const result = load(["nope.cfg", "list.cfg", "list.cfg"]);
    expect(codes(result.warnings)).toEqual(["STACK_CONFIG_MISSING"]);
    expect(result.data.l).toEqual(["b", "a", "b", "a"]);
  });

  it("reports what it looked for, found or not: config files and each line as the glob it was read as", () => {
    const result = load(["nope.cfg", "lines.cfg", "glob.cfg"]);
    expect(result.searched).toEqual([
      { kind: "config", pattern: "nope.cfg", config: "nope.cfg", matched: 0 },
      { kind: "config", pattern: "lines.cfg", config: "lines.cfg", matched: 1 },
      { kind: "line", pattern: "a.yml", config: "lines.cfg", matched: 1 },
      { kind: "line", pattern: " a.yml", config: "lines.cfg", matched: 0 },
      { kind: "line", pattern: "#b.yml", config: "lines.cfg", matched: 1 },
      { kind: "line", pattern: "b.yml", config: "lines.cfg", matched: 1 },
      { kind: "line", pattern: "missing.yml", config: "lines.cfg", matched: 0 },
      { kind: "line", pattern: "b.yml", config: "lines.cfg", matched: 1 },
      { kind: "config", pattern: "glob.cfg", config: "glob.cfg", matched: 1 },
      { kind: "line", pattern: "n/*.yml", config: "glob.cfg", matched: 4 },
    ]);
  });

  it("reports a minion's text in a looked-for line escaped, so the pattern matches only that name", () => {
    const tree = makeTree({ "host.cfg": "hosts/{{ minion_id }}.yml\n" });
    const result = loadStack({ config: "host.cfg", cwd: tree, minionId: "w*b" });
    expect(result.searched[1]).toEqual({
      kind: "line",
      pattern: "hosts/w[*]b.yml",
      config: "host.cfg",
      matched: 0,
    });
  });

  it("tells onFile and onLookup what it reads and looks for as it goes, up to the file that fails", () => {
    const tree = makeTree({
      "s/stack.cfg": "base.yml\nhosts/{{ minion_id }}.yml\ncommon/*.yml\n",
      "s/base.yml": "{% include 'parts/inc.jinja' %}\n{% if false %}{% include \"../up.sls\" %}{% endif %}\n",
      "s/parts/inc.jinja":
        "{% if false %}{% import_yaml '/etc/passwd' as p %}{% endif %}{% include \"parts/more.jinja\" %}",
      "s/parts/more.jinja": "port: 22\n",
      "s/common/a.yml": "a: [1\n",
    });
    const { loader, files, lookups } = toldLoader(tree);
    expect(failure(() => loader.load({ minionId: "web1" })).code).toBe("YAML_PARSE");
    // Templates named by a literal include/import/from, followed into the included ones; a name above the config's
    // directory, or an absolute one outside it, is not one the renderer reads.
    expect(files).toEqual([
      "s/stack.cfg",
      "s/base.yml",
      "s/parts/inc.jinja",
      "s/parts/more.jinja",
      "s/common/a.yml",
    ]);
    expect(lookups).toEqual([
      "config:s/stack.cfg:1",
      "line:s/base.yml:1",
      "line:s/hosts/web1.yml:0",
      "line:s/common/*.yml:1",
    ]);
  });

  it("tells onFile of templates by computed names and file checks, and onLookup of the ones missing, every host", () => {
    const tree = makeTree({
      "s/stack.cfg": "base.yml\n",
      "s/base.yml": [
        "{% include 'roles/' ~ pillar.role ~ '.jinja' ignore missing %}",
        "{% import_yaml 'defaults/' ~ minion_id ~ '.yml' as d %}",
        "seen: {{ __salt__['file.file_exists']('" + "%%TREE%%" + "/s/flag.txt') }}",
        "{# include 'commented.jinja' #}",
      ].join("\n"),
      "s/roles/web.jinja": "role: web\n",
      "s/defaults/web1.yml": "port: 22\n",
      "s/defaults/db1.yml": "port: 5432\n",
    });
    const base = join(tree, "s", "base.yml");
    writeFileSync(base, readFileSync(base, "utf8").replace("%%TREE%%", tree));
    const { loader, files, lookups } = toldLoader(tree);
    const web = loader.load({ minionId: "web1", pillar: { role: "web" } });
    expect(files).toEqual(["s/stack.cfg", "s/base.yml", "s/roles/web.jinja", "s/defaults/web1.yml"]);
    expect(lookups).toEqual(["config:s/stack.cfg:1", "line:s/base.yml:1", "template:s/flag.txt:0"]);
    expect(web.searched.map((lookup) => lookup.kind)).toEqual(["config", "line", "template"]);
    files.length = 0;
    lookups.length = 0;
    // The next host renders the same files from the renderer's cache, and is told of what it looks at all the same.
    writeFileSync(join(tree, "s", "flag.txt"), "");
    loader.load({ minionId: "db1", pillar: { role: "db" } });
    expect(files).toEqual(["s/stack.cfg", "s/base.yml", "s/defaults/db1.yml", "s/flag.txt"]);
    expect(lookups).toEqual(["config:s/stack.cfg:1", "line:s/base.yml:1", "template:s/roles/db.jinja:0"]);
  });

  it("resolves YAML paths against the config's own directory", () => {
    const outer = makeTree({ "stack/config.cfg": "a.yml\n", "stack/a.yml": "x: 1\n" });
    const result = loadStack({ config: join(outer, "stack/config.cfg"), minionId: "m" });
    expect(result.data).toEqual({ x: 1 });
    expect(result.files).toEqual([join(outer, "stack/a.yml")]);
  });
});

describe("configItems (a rendered config read as Salt reads it)", () => {
  it("takes a YAML list in any of its spellings", () => {
    expect(configItems("# paths\n\n- a.yml\n- b/*.yml\n", "c")).toEqual(["a.yml", "b/*.yml"]);
    expect(configItems("--- [a.yml, b.yml]\n", "c")).toEqual(["a.yml", "b.yml"]);
    expect(configItems("&paths\n- a.yml\n", "c")).toEqual(["a.yml"]);
    expect(configItems("!!seq [a.yml]", "c")).toEqual(["a.yml"]);
  });

  it("falls back to lines for anything else, including YAML that does not parse", () => {
    expect(configItems("a.yml\nb.yml", "c")).toEqual(["a.yml", "b.yml"]);
    expect(configItems("key: value\n", "c")).toEqual(["key: value"]);
    expect(configItems("- *.yml\n- a.yml\n", "c")).toEqual(["- *.yml", "- a.yml"]);
    expect(configItems("", "c")).toEqual([]);
    expect(configItems("\u00e9t\u00e9.yml\n", "c")).toEqual(["\u00e9t\u00e9.yml"]);
  });
});

describe("YAML files", () => {
  const root = makeTree({
    "c.cfg": "list.yml\nscalar.yml\nempty.yml\nnull.yml\nok.yml\n",
    "list.yml": "- a\n- b\n",
    "scalar.yml": "just text\n",
    "empty.yml": "",
    "null.yml": "~\n",
    "ok.yml": "fine: yes\noctal: 010\ntime: 12:30\n",
    "bad.cfg": "bad.yml\n",
    "bad.yml": "a: 1\n  b: [\n",
    "dup.cfg": "dup.yml\n",
    "dup.yml": "a: 1\na: 2\n",
    "strategy.cfg": "dict.yml\nstrategy.yml\n",
    "dict.yml": "fine:\n  a: 1\n",
    "strategy.yml": "x: 1\nfine:\n  __: merge-lst\n  y: 2\n",
  });

  it("skips files that are not mappings, with a warning each, and reads YAML the way Salt does", () => {
    const result = loadStack({ config: "c.cfg", cwd: root, minionId: "m" });
    expect(result.files).toEqual(["ok.yml"]);
    expect(codes(result.warnings)).toEqual([
      "STACK_NOT_MAPPING",
      "STACK_NOT_MAPPING",
      "STACK_NOT_MAPPING",
      "STACK_NOT_MAPPING",
    ]);
    // Salt's loader reads 010 as decimal 10 and 12:30 as sexagesimal 750
    expect(result.data).toEqual({ fine: true, octal: 10, time: 750 });
  });

  it("fails with YAML_PARSE naming the file and line", () => {
    const error = failure(() => loadStack({ config: "bad.cfg", cwd: root, minionId: "m" }));
    expect(error.code).toBe("YAML_PARSE");
    expect(error.source?.file).toBe("bad.yml");
    expect(error.source?.line).toBeGreaterThan(0);
  });

  it("refuses duplicate keys, as Salt's loader does", () => {
    expect(failure(() => loadStack({ config: "dup.cfg", cwd: root, minionId: "m" })).code).toMatch(/^YAML_/);
  });

  it("reports an unknown strategy with the file, line, column and key path of the directive", () => {
    const error = failure(() => loadStack({ config: "strategy.cfg", cwd: root, minionId: "m" }));
    expect(error.code).toBe("UNKNOWN_STRATEGY");
    expect(error.path).toBe("fine");
    expect(error.source).toMatchObject({ file: "strategy.yml", line: 3, column: 3 });
  });
});

describe("file encodings", () => {
  const root = makeTree({
    "bom.cfg": "\ufeffa.yml\nb.yml\n",
    "a.yml": "a: 1\n",
    "b.yml": "\ufeffb: 2\n",
    "latin1.cfg": "latin1.yml\n",
  });
  writeFileSync(join(root, "latin1.yml"), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x3a, 0x20, 0x31, 0x0a]));

  it("keeps a byte-order mark as Salt's Jinja loader does: part of a config line, skipped by YAML", () => {
    const result = loadStack({ config: "bom.cfg", cwd: root, minionId: "m" });
    expect(result.files).toEqual(["b.yml"]);
    expect(result.data).toEqual({ b: 2 });
    expect(result.warnings.map((w) => w.code)).toEqual(["STACK_NO_MATCH"]);
  });

  it("refuses a file that is not UTF-8 with STACK_READ naming it", () => {
    const error = failure(() => loadStack({ config: "latin1.cfg", cwd: root, minionId: "m" }));
    expect(error.code).toBe("STACK_READ");
    expect(error.source?.file).toBe("latin1.yml");
  });
});

describe("path safety", () => {
  const outer = makeTree({
    "secret.yml": "secret: leaked\n",
    "stack/inside.yml": "inside: true\n",
    "stack/sub/": "",
    "stack/link-out.yml": { link: "../secret.yml" },
    "stack/link-in.yml": { link: "inside.yml" },
    "stack/dangling.yml": { link: "nowhere.yml" },
    "stack/up.cfg": "../secret.yml\n",
    "stack/up-missing.cfg": "../nothing.yml\n",
    "stack/roundabout.cfg": "sub/../inside.yml\n",
    "stack/dir.cfg": "su*\n",
    "stack/link-out.cfg": "link-out.yml\n",
    "stack/link-in.cfg": "link-in.yml\n",
    "stack/dangling.cfg": "dangling.yml\n",
  });
  const stack = join(outer, "stack");
  const load = (config: string) => loadStack({ config, cwd: stack, minionId: "m" });

  it("refuses a file outside the config's directory, as Salt does", () => {
    const error = failure(() => load("up.cfg"));
    expect(error.code).toBe("STACK_PATH");
    expect(error.source?.file).toBe("up.cfg");
    expect(codes(load("up-missing.cfg").warnings)).toEqual(["STACK_NO_MATCH"]);
  });

  it("accepts paths that stay inside after normalisation, and absolute paths inside", () => {
    expect(load("roundabout.cfg").data).toEqual({ inside: true });
    const absolute = makeTree({ "stack/a.yml": "a: 1\n" });
    const cfg = join(absolute, "stack/abs.cfg");
    writeFileSync(cfg, `${join(absolute, "stack/a.yml")}\n`);
    expect(loadStack({ config: cfg, minionId: "m" }).data).toEqual({ a: 1 });
    writeFileSync(cfg, `${join(outer, "secret.yml")}\n`);
    expect(failure(() => loadStack({ config: cfg, minionId: "m" })).code).toBe("STACK_PATH");
  });

  it("refuses a symlink leading outside (Salt would follow it) but follows one inside", () => {
    expect(failure(() => load("link-out.cfg")).code).toBe("STACK_PATH");
    expect(load("link-in.cfg").data).toEqual({ inside: true });
  });

  it("refuses a directory or a dangling symlink matched by a line", () => {
    expect(failure(() => load("dir.cfg")).code).toBe("STACK_NOT_FILE");
    expect(failure(() => load("dangling.cfg")).code).toBe("STACK_NOT_FILE");
  });
});

describe("values from the minion in config templates", () => {
  const root = makeTree({
    "c.cfg": "minions/{{ minion_id }}.yml\nroles/{{ __grains__['role'] }}.yml\n",
    "minions/a.yml": "hosts: [a]\n",
    "minions/b.yml": "hosts: [b]\n",
    "minions/*.yml": "hosts: [literal-star]\n",
    "roles/web.yml": "roles: [web]\n",
    "roles/db.yml": "roles: [db]\n",
  });

  it("match only themselves by default: a minion id or grain of * pulls in nothing else", () => {
    const result = loadStack({ config: "c.cfg", cwd: root, minionId: "*", grains: { role: "[wd]*" } });
    expect(result.data).toEqual({ hosts: ["literal-star"] });
    expect(codes(result.warnings)).toEqual(["STACK_NO_MATCH"]);
  });

  it("act as wildcards with saltGlobs, as in Salt", () => {
    const result = loadStack({
      config: "c.cfg",
      cwd: root,
      minionId: "*",
      grains: { role: "[wd]*" },
      saltGlobs: true,
    });
    expect(result.data).toEqual({ hosts: ["literal-star", "a", "b"], roles: ["db", "web"] });
  });

  it("still render normally in YAML files and in ordinary names", () => {
    expect(loadStack({ config: "c.cfg", cwd: root, minionId: "a", grains: { role: "web" } }).data).toEqual({
      hosts: ["a"],
      roles: ["web"],
    });
  });
});

describe("templates and the live stack", () => {
  const root = makeTree({
    "first.cfg": "base.yml\nderived.yml\n",
    "second.cfg": "{% if stack.get('tier') == 'gold' %}gold.yml{% endif %}\n",
    "base.yml": "tier: gold\nname: {{ minion_id }}\nusers: [{{ pillar['user'] }}]\n",
    "derived.yml":
      "{% do stack.update({'touched': stack['name'] ~ '!'}) %}\n{% do pillar.update({'hacked': true}) %}\ncopy: {{ stack['touched'] }}\n",
    "gold.yml": "perks: [lounge]\n",
  });

  it("lets a template change stack and later files (and later configs) see it", () => {
    const pillar = { user: "alice" };
    const result = loadStack({ config: ["first.cfg", "second.cfg"], cwd: root, minionId: "m1", pillar });
    expect(result.data).toEqual({
      tier: "gold",
      name: "m1",
      users: ["alice"],
      touched: "m1!",
      copy: "m1!",
      perks: ["lounge"],
    });
    expect(result.files).toEqual(["base.yml", "derived.yml", "gold.yml"]);
    // the caller's pillar is not changed by a template
    expect(pillar).toEqual({ user: "alice" });
  });

  it("renders many hosts with one loader, each independent of the others", () => {
    const loader = createStackLoader({ config: "first.cfg", cwd: root });
    const one = loader.load({ minionId: "h1", pillar: { user: "u1" } });
    const two = loader.load({ minionId: "h2", pillar: { user: "u2" } });
    (one.data.users as string[]).push("mutated by the caller");
    const again = loader.load({ minionId: "h1", pillar: { user: "u1" } });
    expect(two.data).toMatchObject({ name: "h2", users: ["u2"], copy: "h2!" });
    expect(again.data).toEqual({ tier: "gold", name: "h1", users: ["u1"], touched: "h1!", copy: "h1!" });
  });

  it("calls the caller's __salt__ functions and returns template warnings", () => {
    const tree = makeTree({
      "c.cfg": "x.yml\n",
      "x.yml":
        "{% do __salt__['log.warning']('careful: ' ~ minion_id) %}\npeers: {{ __salt__['mine.get']('web*') | json }}\n",
    });
    const seen: string[] = [];
    const result = loadStack({
      config: "c.cfg",
      cwd: tree,
      minionId: "m7",
      functions: { "mine.get": (target: string) => ({ [target]: "10.0.0.1" }) },
      onWarning: (warning) => seen.push(warning.message),
    });
    expect(result.data).toEqual({ peers: { "web*": "10.0.0.1" } });
    expect(result.warnings).toMatchObject([{ code: "TEMPLATE_WARNING", file: "x.yml" }]);
    expect(seen).toEqual([result.warnings[0]!.message]);
    expect(seen[0]).toContain("careful: m7");
  });

  it("sees the tree as first read until clear(), or every time with cache: false", () => {
    const tree = makeTree({ "c.cfg": "*.yml\n", "a.yml": "v: 1\n" });
    const cached = createStackLoader({ config: "c.cfg", cwd: tree });
    const fresh = createStackLoader({ config: "c.cfg", cwd: tree, cache: false });
    expect(cached.load({ minionId: "m" }).data).toEqual({ v: 1 });
    writeFileSync(join(tree, "a.yml"), "v: 2\n");
    writeFileSync(join(tree, "b.yml"), "w: 3\n");
    expect(cached.load({ minionId: "m" }).data).toEqual({ v: 1 });
    expect(fresh.load({ minionId: "m" }).data).toEqual({ v: 2, w: 3 });
    cached.clear();
    expect(cached.load({ minionId: "m" }).data).toEqual({ v: 2, w: 3 });
    rmSync(join(tree, "a.yml"));
    expect(fresh.load({ minionId: "m" }).files).toEqual(["b.yml"]);
  });

  it("reports template errors with the file", () => {
    const broken = makeTree({ "c.cfg": "x.yml\n", "x.yml": "a: {{ nothing.attr }}\n" });
    const error = failure(() => loadStack({ config: "c.cfg", cwd: broken, minionId: "m" }));
    expect(error.code).toMatch(/^TEMPLATE_/);
    expect(error.source?.file).toBe("x.yml");
  });

  it("gives a template error the template's own line for the caret, in the file or in one it includes", () => {
    const broken = makeTree({
      "c.cfg": "x.yml\ny.yml\n",
      "x.yml": "a: 1\nb: {{ nothing.attr }}\n",
      "y.yml": "c: 3\n",
    });
    const render = failure(() => loadStack({ config: "c.cfg", cwd: broken, minionId: "m" }));
    expect(render.code).toBe("TEMPLATE_RENDER");
    expect(render.details).toMatchObject({ excerpt: { line: 2, column: 14, text: "b: {{ nothing.attr }}" } });
    writeFileSync(join(broken, "x.yml"), "{% include 'inc.jinja' %}\n");
    writeFileSync(join(broken, "inc.jinja"), "\r\nd: {{ 1 + }}\n");
    const syntax = failure(() => loadStack({ config: "c.cfg", cwd: broken, minionId: "m" }));
    expect(syntax.code).toBe("TEMPLATE_SYNTAX");
    expect(syntax.source?.file).toBe(join(broken, "inc.jinja"));
    expect(syntax.details).toMatchObject({ excerpt: { line: 2, text: "d: {{ 1 + }}" } });
    // A config template's error too; the line is the author's text, never rendered text.
    writeFileSync(join(broken, "c.cfg"), "x.yml\n{{ grains.missing.deeper }}\n");
    const config = failure(() =>
      loadStack({ config: "c.cfg", cwd: broken, minionId: "m", grains: { secret: "s3cret" } }),
    );
    expect(config.details).toMatchObject({ excerpt: { line: 2, text: "{{ grains.missing.deeper }}" } });
  });
});

describe("the merge is pluggable", () => {
  const root = makeTree({
    "c.cfg": "a.yml\nb.yml\n",
    "a.yml": "keep: old\nlist: [1]\nd: {x: 1}\n",
    "b.yml": "keep: new\nlist: [2]\nd: {y: 2}\n",
  });

  it("uses stack() by default and accepts stack(merge-first)", () => {
    expect(loadStack({ config: "c.cfg", cwd: root, minionId: "m" }).data).toEqual({
      keep: "new",
      list: [1, 2],
      d: { x: 1, y: 2 },
    });
    expect(loadStack({ config: "c.cfg", cwd: root, minionId: "m", spec: "stack(merge-first)" }).data).toEqual(
      {
        keep: "old",
        list: [2, 1],
        d: { x: 1, y: 2 },
      },
    );
  });

  it("merges with any registry spec, for example cloud-init's mergers", () => {
    const result = loadStack({
      config: "c.cfg",
      cwd: root,
      minionId: "m",
      registry: createCloudInitRegistry(),
      spec: "list(append)+dict(no_replace,recurse_list)+str()",
    });
    expect(result.data).toEqual({ keep: "old", list: [1, 2], d: { x: 1, y: 2 } });
  });

  it("rejects a spec the registry does not know", () => {
    expect(
      failure(() => loadStack({ config: "c.cfg", cwd: root, minionId: "m", spec: "stack(bogus)" })).code,
    ).toBe("UNKNOWN_OPTION");
  });
});
