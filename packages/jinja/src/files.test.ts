// The `files` option: templates' own imports and Salt's file checks read the renderer's file system, with the same
// results and the same refusals as on disk.
import { join } from "node:path";
import { isMergeError } from "@merge/core";
import { describe, expect, it } from "vitest";
import type { TemplateFileSystem } from "./files.js";
import { createRenderer } from "./renderer.js";
import { memoryFiles } from "./test-memory-files.js";
import { tempTree, VARS } from "./test-vars.js";

const TREE: Record<string, string> = {
  "config.cfg": "core.yml\n",
  "common/x.yml": "name: {{ minion_id }}\nport: 80\nroles: {{ pillar.roles | json }}\n",
  "common/data.json": '{"a": [1, 2], "b": {"c": null}}',
  "notes.txt": "hello\r\nworld\n",
  "macros.sls": "{% macro m(v) %}<{{ v }}>{% endmacro %}",
  "part.sls": "included for {{ minion_id }}",
  "base.sls": "[{% block b %}base{% endblock %}]",
  "bad.sls": "line 1\n{% if %}\n",
  "bom.txt": "\uFEFFmarked",
};

/** Each case is rendered as `<root>/host.yml` of `<root>/config.cfg`; `root` is where the tree is. */
const CASES: Record<string, (root: string) => string> = {
  import_yaml: () => '{% import_yaml "common/x.yml" as x %}{{ x.name }}:{{ x.port }}:{{ x.roles }}',
  import_json: () => "{% import_json 'common/data.json' as d %}{{ d }}",
  import_text: () => "{% import_text 'notes.txt' as t %}[{{ t }}]",
  bom: () => "{% import_text 'bom.txt' as t %}{{ t | length }}",
  from_import: () => "{% from 'macros.sls' import m %}{{ m(1) }}{{ m('x') }}",
  include: () => "{% include 'part.sls' %}",
  extends: () => "{% extends 'base.sls' %}{% block b %}child{% endblock %}",
  absolute_inside: (root) => `{% import_yaml '${join(root, "common/x.yml")}' as x %}{{ x.port }}`,
  dot_pieces: () => "{% import_yaml './common//x.yml' as x %}{{ x.port }}",
  file_checks: () =>
    "{% set base = __stack__.cfg_path.rsplit('/', 1)[0] %}" +
    "{% for p in ['notes.txt', 'common', 'common/x.yml', 'nope', 'notes.txt/', 'common/'] %}" +
    "{{ p }}={{ __salt__['file.file_exists'](base ~ '/' ~ p) }}/" +
    "{{ __salt__['file.directory_exists'](base ~ '/' ~ p) }} {% endfor %}",
  missing: () => "a\n{% include 'missing.sls' %}",
  ignore_missing: () => "[{% include 'missing.sls' ignore missing %}]",
  not_a_file: () => "{% import_yaml 'common' as c %}",
  leaves: () => "{% include '../common/x.yml' %}",
  syntax: () => "{% include 'bad.sls' %}",
  parse: () => "{% import_json 'notes.txt' as n %}",
};

type Outcome = { text: string } | { code: string; message: string; file?: string; line?: number };

/** Every case's text, or its error (code, message, file and line). */
function outcomes(root: string, files?: TemplateFileSystem): Record<string, Outcome> {
  const r = createRenderer(files === undefined ? {} : { files });
  const out: Record<string, Outcome> = {};
  for (const [name, template] of Object.entries(CASES)) {
    try {
      out[name] = { text: r.render(template(root), join(root, "host.yml"), VARS, join(root, "config.cfg")) };
    } catch (e) {
      if (!isMergeError(e)) throw e;
      out[name] = {
        code: e.code,
        message: e.message,
        file: e.source?.file,
        line: e.source?.line,
      };
    }
  }
  return out;
}

describe("a renderer's file system", () => {
  it("renders a tree kept in memory exactly as the same tree on disk", () => {
    const dir = tempTree(TREE);
    // The outcomes with the tree's directory written `<root>`, to be put back as another root.
    const onDisk = JSON.parse(JSON.stringify(outcomes(dir)).split(dir).join("<root>")) as Record<
      string,
      Outcome
    >;
    expect(onDisk.import_yaml).toEqual({ text: "test-1-dev:80:['db', 'web']" });
    expect(onDisk.file_checks).toEqual({
      text: "notes.txt=True/False common=False/True common/x.yml=True/False nope=False/False notes.txt/=False/False common/=False/True ",
    });
    expect(onDisk.missing).toMatchObject({
      code: "TEMPLATE_RENDER",
      message: "TemplateNotFound: missing.sls",
    });
    expect(onDisk.syntax).toMatchObject({ code: "TEMPLATE_SYNTAX", file: "<root>/bad.sls", line: 2 });
    // Mounted where nothing is on disk, and at the root of the file system (a config directory of "/").
    for (const root of ["/srv/nowhere/pillar", "/"]) {
      const files = memoryFiles(TREE, root);
      const expected = JSON.stringify(onDisk)
        .split("<root>/")
        .join(root.endsWith("/") ? root : `${root}/`);
      expect(outcomes(root, files)).toEqual(JSON.parse(expected));
      expect(files.reads.length).toBeGreaterThan(0);
    }
  });

  it("without the option, reads the local disk (the in-memory tree is not seen)", () => {
    const outcome = outcomes("/srv/nowhere/pillar").import_yaml;
    expect(outcome).toMatchObject({ message: "TemplateNotFound: common/x.yml" });
  });

  it("refuses a file whose real path leads out of the config directory", () => {
    const inner = memoryFiles({ "link.yml": "a: 1\n", "ok.yml": "b: 2\n" }, "/srv/pillar");
    // link.yml stands for a symlink to a file elsewhere.
    const files: TemplateFileSystem = {
      ...inner,
      realpath: (path) => (path === "/srv/pillar/link.yml" ? "/srv/secret.yml" : inner.realpath(path)),
    };
    const render = (src: string) =>
      createRenderer({ files }).render(src, "/srv/pillar/host.yml", VARS, "/srv/pillar/config.cfg");
    expect(render("{% import_yaml 'ok.yml' as o %}{{ o.b }}")).toBe("2");
    expect(() => render("{% import_yaml 'link.yml' as l %}{{ l }}")).toThrow(
      "TemplateNotFound: link.yml (it resolves outside the config directory)",
    );
    expect(inner.reads).toEqual(["/srv/pillar/ok.yml"]);
  });

  it("reads a file again in each config run and recompiles it only when its text changed", () => {
    const files = memoryFiles({ "m.sls": "{% macro m(x) %}<{{ x }}>{% endmacro %}" }, "/p");
    const r = createRenderer({ files });
    const src = "{% from 'm.sls' import m %}{{ m(minion_id) }}";
    const run = (id: string) => r.render(src, "/p/host.yml", { ...VARS, minion_id: id }, "/p/config.cfg");
    expect(run("a")).toBe("<a>");
    expect(run("b")).toBe("<b>");
    expect(r.compiledCount).toBe(2);
    files.write("m.sls", "{% macro m(x) %}[{{ x }}]{% endmacro %}");
    expect(run("c")).toBe("[c]");
    expect(r.compiledCount).toBe(3);
  });

  it("answers file.file_exists for a relative path from the working directory", () => {
    const cwd = process.cwd();
    const files = memoryFiles({ "here.txt": "" }, cwd);
    const r = createRenderer({ files });
    const src = "{{ __salt__['file.file_exists']('here.txt') }} {{ __salt__['file.file_exists']('') }}";
    expect(r.render(src, "/p/host.yml", VARS, "/p/config.cfg")).toBe("True False");
  });
});
