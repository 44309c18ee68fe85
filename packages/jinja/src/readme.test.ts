import { PyDict } from "@merge/core";
import { expect, it } from "vitest";
import { createRenderer, type TemplateFileSystem } from "./index.js";

// Keeps the "Use" section of README.md true.
it("renders the README's config template", () => {
  const warnings: string[] = [];
  const renderer = createRenderer({
    salt: { "mine.get": () => ({}) },
    onWarning: (w) => warnings.push(`${w.file}: ${w.message}`),
  });
  const text = renderer.render(
    "{% for r in pillar.roles %}- roles/{{ r }}.yml\n{% endfor %}",
    "/srv/stack/config.cfg",
    { pillar: { roles: ["web", "db"] }, minion_id: "web-1" },
    "/srv/stack/config.cfg",
  );
  expect(text).toBe("- roles/web.yml\n- roles/db.yml\n");
  expect(renderer.compiledCount).toBe(1);
  expect(warnings).toEqual([]);
});

// Keeps the "Values" section true: a template changes a mapping in its own representation.
it("writes a key into a plain object by its text and into a PyDict as the int it is", () => {
  const renderer = createRenderer();
  const plain: Record<string, unknown> = {};
  const exact = new PyDict();
  for (const stack of [plain, exact])
    renderer.render(
      "{% do stack.update({8080: 'x'}) %}",
      "/srv/stack/a.yml",
      { stack },
      "/srv/stack/config.cfg",
    );
  expect(plain).toEqual({ "8080": "x" });
  expect(exact.keyList()).toEqual([8080]);
});

// Keeps "Files templates read" true: an import read from the renderer's own file system.
it("imports a file from the README's file system kept in memory", () => {
  const texts: Record<string, string> = { "/srv/stack/defaults.yml": "port: 8080\n" };
  const files: TemplateFileSystem = {
    stat: (path) =>
      Object.hasOwn(texts, path)
        ? { isFile: () => true, isDirectory: () => false }
        : path === "/srv/stack"
          ? { isFile: () => false, isDirectory: () => true }
          : undefined,
    realpath: (path) => path,
    readFile: (path) => new TextEncoder().encode(texts[path]),
  };
  const text = createRenderer({ files }).render(
    "{% import_yaml 'defaults.yml' as d %}port={{ d.port }}",
    "/srv/stack/core.yml",
    {},
    "/srv/stack/config.cfg",
  );
  expect(text).toBe("port=8080");
});
