import { PyDict } from "@merge/core";
import { expect, it } from "vitest";
import { createRenderer } from "./index.js";

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
