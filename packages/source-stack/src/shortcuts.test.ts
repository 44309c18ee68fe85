import { writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createStackLoader } from "./loader.js";
import { createRenderer, jinjaSource } from "@merge/jinja";
import { makeTree } from "./test-tree.js";

// The loader's speed shortcuts must give exactly what the slow path gives.

describe("plain files skip the template engine", () => {
  it("renders a text without `{` exactly as the Jinja renderer does (newline rules included)", () => {
    const renderer = createRenderer();
    const text = fc.string({
      unit: fc.constantFrom("a", ":", " ", "-", "\n", "\r", "%", "#", "}", "|", "'", '"', "\\", "é", "\t"),
      maxLength: 40,
    });
    fc.assert(
      fc.property(text, (source) => {
        // the loader's condition for skipping the renderer
        fc.pre(!source.includes("{") && !source.includes("#}"));
        expect(jinjaSource(source)).toBe(renderer.render(source, "plain.yml", {}, "stack.cfg"));
      }),
      { numRuns: 500 },
    );
  });

  it("keeps a stray `#}` as text, as Jinja does, with or without template syntax in the file", () => {
    const root = makeTree({
      "stack.cfg": "a.yml\nb.yml\n",
      "a.yml": "a: x#}\n",
      "b.yml": "b: '{{ 1 }}#}'\n",
    });
    const { data } = createStackLoader({ config: "stack.cfg", cwd: root }).load({ minionId: "m" });
    expect(data).toEqual({ a: "x#}", b: "1#}" });
  });

  it("keeps Jinja's chomping of the final newline, which a block scalar at the end of a file sees", () => {
    const root = makeTree({
      "stack.cfg": "plain.yml\nrendered.yml\n",
      "plain.yml": "plain: |\n  line\n",
      "rendered.yml": "rendered: |\n  {{ 'line' }}\n",
    });
    const { data } = createStackLoader({ config: "stack.cfg", cwd: root }).load({ minionId: "m" });
    expect(data).toEqual({ plain: "line", rendered: "line" });
  });

  it("still renders every file through a caller's own renderer", () => {
    const root = makeTree({ "stack.cfg": "a.yml\n", "a.yml": "a: 1\n" });
    const seen: string[] = [];
    const loader = createStackLoader({
      config: "stack.cfg",
      cwd: root,
      renderer: {
        render: (source, file) => {
          seen.push(file);
          return source.replace("1", "2");
        },
      } as Parameters<typeof createStackLoader>[0]["renderer"] & object,
    });
    expect(loader.load({ minionId: "m" }).data).toEqual({ a: 2 });
    expect(seen).toEqual(["stack.cfg", "a.yml"]);
  });
});

describe("missing per-host files are answered from the directory listing", () => {
  it("finds the files that exist and no others, for many hosts through one loader", () => {
    const root = makeTree({
      "stack.cfg": "minions/{{ minion_id }}.yml\n",
      "minions/web1.yml": "who: web1\n",
      "minions/Web2.yml": "who: Web2\n",
    });
    const loader = createStackLoader({ config: "stack.cfg", cwd: root });
    expect(loader.load({ minionId: "web1" }).data).toEqual({ who: "web1" });
    expect(loader.load({ minionId: "Web2" }).data).toEqual({ who: "Web2" });
    const missing = loader.load({ minionId: "db9" });
    expect(missing.data).toEqual({});
    expect(missing.warnings.map((w) => w.code)).toEqual(["STACK_NO_MATCH"]);
  });

  it("sees a file added after the listing once the loader is cleared", () => {
    const root = makeTree({ "stack.cfg": "minions/{{ minion_id }}.yml\n", "minions/a.yml": "who: a\n" });
    const loader = createStackLoader({ config: "stack.cfg", cwd: root });
    expect(loader.load({ minionId: "b" }).data).toEqual({});
    writeFileSync(join(root, "minions", "b.yml"), "who: b\n");
    loader.clear();
    expect(loader.load({ minionId: "b" }).data).toEqual({ who: "b" });
  });
});
