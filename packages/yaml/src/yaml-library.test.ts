import { describe, expect, it, vi } from "vitest";

// Counts how often the loader asks for the `yaml` package's parser (loaded on first use, see yaml-library.ts).
const asked = vi.hoisted(() => ({ count: 0 }));
vi.mock("#yaml-library", async (importOriginal) => {
  const real = await importOriginal<typeof import("./yaml-library.js")>();
  return {
    yamlLibrary: () => {
      asked.count++;
      return real.yamlLibrary();
    },
  };
});

const { loadYaml, loadYamlWithPositions } = await import("./index.js");

describe("the yaml package's parser", () => {
  it("is not needed for the plain block and flow shapes of configuration files", () => {
    asked.count = 0;
    const text = "# a pillar\nusers:\n  bob:\n    uid: 1000\n    groups: [adm, 'sudo']\npackages:\n- vim\n";
    expect(loadYaml(text, { flavor: "salt" })).toEqual({
      users: { bob: { uid: 1000, groups: ["adm", "sudo"] } },
      packages: ["vim"],
    });
    expect(loadYamlWithPositions(text).positionOf(["users", "bob", "uid"])).toEqual({ line: 4, column: 5 });
    expect(loadYaml('{"a": [1, 2], "b": null}')).toEqual({ a: [1, 2], b: null });
    expect(asked.count).toBe(0);
  });

  it("is loaded for a text the fast path gives up on, and reads it", () => {
    asked.count = 0;
    expect(loadYaml("base: &b {x: 1}\nother:\n  <<: *b\n  y: |\n    two\n")).toEqual({
      base: { x: 1 },
      other: { x: 1, y: "two\n" },
    });
    expect(asked.count).toBeGreaterThan(0);
  });

  it("reports a syntax error the fast path cannot judge at its line and column", () => {
    expect(() => loadYaml("a: [1, 2\nb: 3\n", { filename: "bad.yml" })).toThrow(
      expect.objectContaining({
        code: "YAML_PARSE",
        source: expect.objectContaining({ file: "bad.yml", line: 2 }),
      }),
    );
  });
});
