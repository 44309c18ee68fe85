import { join } from "node:path";
import { isMergeError } from "@merge/core";
import { describe, expect, it } from "vitest";
import type { CompiledTemplateStore } from "./environment.js";
import { createRenderer, type RendererOptions } from "./renderer.js";
import { tempTree } from "./test-vars.js";

/** A store in memory that counts what it is asked and given. */
function memoryStore(): CompiledTemplateStore & { entries: Map<string, string>; gets: number } {
  const entries = new Map<string, string>();
  const store = {
    entries,
    gets: 0,
    get(key: string) {
      store.gets++;
      return entries.get(key);
    },
    set(key: string, code: string) {
      entries.set(key, code);
    },
  };
  return store;
}

const VARS = { pillar: { role: "web" }, minion_id: "web1" };
const TEXT = "role: {{ pillar.role }}\nid: {{ minion_id }}\n";

function render(options: RendererOptions, text = TEXT, file = "/srv/stack/web.yml"): string {
  return createRenderer(options).render(text, file, VARS, "/srv/stack/stack.cfg");
}

describe("compiledTemplates: compiled code kept between renderers", () => {
  it("stores each template's code once and runs the stored code in the next renderer", () => {
    const store = memoryStore();
    expect(render({ compiledTemplates: store })).toBe("role: web\nid: web1");
    expect(store.entries.size).toBe(1);
    const [key, code] = [...store.entries][0]!;
    // The key names the template and holds its text; the code is what the compiler made of it.
    expect(key).toContain('"/srv/stack/web.yml"');
    expect(key.endsWith("role: {{ pillar.role }}\nid: {{ minion_id }}")).toBe(true);
    expect(code).toContain("function root(");
    // A second renderer runs what the store holds: the stored code, with one literal changed, prints the change.
    expect(code).toContain('"role: "');
    store.entries.set(key, code.replace('"role: "', '"stored role: "'));
    expect(render({ compiledTemplates: store })).toBe("stored role: web\nid: web1");
    // Without the store the text is compiled as ever.
    expect(render({})).toBe("role: web\nid: web1");
  });

  it("keeps apart what compiles differently: name, text, trim_blocks, the filters known", () => {
    const store = memoryStore();
    render({ compiledTemplates: store });
    render({ compiledTemplates: store }, TEXT, "/srv/stack/db.yml");
    render({ compiledTemplates: store }, `${TEXT}x: 1\n`);
    const block = "{% if true %}\nyes\n{% endif %}\n";
    expect(render({ compiledTemplates: store, trimBlocks: true }, block)).toBe("yes\n");
    expect(render({ compiledTemplates: store }, block)).toBe("\nyes\n");
    // strictSalt knows fewer filters: a template using yaml_encode fails to compile there, stored or not.
    const salt = "v: {{ 'a' | yaml_encode }}\n";
    expect(render({ compiledTemplates: store }, salt)).toBe('v: "a"');
    let failed: unknown;
    try {
      render({ compiledTemplates: store, strictSalt: true }, salt);
    } catch (error) {
      failed = error;
    }
    expect(isMergeError(failed) && failed.code).toBe("TEMPLATE_SYNTAX");
    expect(store.entries.size).toBe(6);
  });

  it("compiles afresh, and stores again, when the stored code does not run", () => {
    const store = memoryStore();
    render({ compiledTemplates: store });
    const [key] = [...store.entries.keys()];
    for (const bad of ["this is not JavaScript {", "return 42;", ""]) {
      store.entries.set(key!, bad);
      expect(render({ compiledTemplates: store })).toBe("role: web\nid: web1");
      expect(store.entries.get(key!)).toContain("function root(");
    }
  });

  it("stores nothing for a template that does not compile, and reports it as without a store", () => {
    const store = memoryStore();
    let failed: unknown;
    try {
      render({ compiledTemplates: store }, "a: {% if %}\n");
    } catch (error) {
      failed = error;
    }
    expect(isMergeError(failed) && [failed.code, failed.source?.line]).toEqual(["TEMPLATE_SYNTAX", 1]);
    expect(store.entries.size).toBe(0);
  });

  it("stores the templates a render includes and imports, and renders them from the store", () => {
    const dir = tempTree({
      "lib/macros.jinja": "{% macro greet(n) %}hello {{ n }}{% endmacro %}",
      "lib/part.jinja": "part of {{ minion_id }}",
    });
    const text =
      "{% from 'lib/macros.jinja' import greet %}{{ greet(minion_id) }}, {% include 'lib/part.jinja' %}\n";
    const cfg = join(dir, "stack.cfg");
    const store = memoryStore();
    const once = () =>
      createRenderer({ compiledTemplates: store }).render(text, join(dir, "a.yml"), VARS, cfg);
    expect(once()).toBe("hello web1, part of web1");
    expect(store.entries.size).toBe(3);
    expect(once()).toBe("hello web1, part of web1");
    expect(store.entries.size).toBe(3);
  });
});
