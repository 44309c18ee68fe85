import { loadYaml } from "@merge/yaml";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createStackLoader } from "./loader.js";
import { makeTree } from "./test-tree.js";

// How often the loader parses a file's rendered text: once per text while a file's renders repeat, and a file whose
// renders never repeat keeps only its latest parse (see parse-cache.test.ts for why).

vi.mock("@merge/yaml", async (importOriginal) => {
  const yaml = await importOriginal<typeof import("@merge/yaml")>();
  return { ...yaml, loadYaml: vi.fn(yaml.loadYaml) };
});

const root = makeTree({
  "stack.cfg": "plain.yml\nrole.yml\nown.yml\n",
  "plain.yml": "ntp: [a, b]\n",
  // Three texts in turn: the host's role.
  "role.yml": "role: {{ pillar.role }}\n",
  // A new text for every host.
  "own.yml": "id: {{ minion_id }}\n",
});

function parsesOf(name: string): number {
  return vi.mocked(loadYaml).mock.calls.filter(([, options]) => options?.filename?.endsWith(name)).length;
}

afterEach(() => {
  vi.mocked(loadYaml).mockClear();
});

describe("parses the loader keeps", () => {
  it("parses a text once while a file's renders repeat, and every text of a file whose renders never do", () => {
    const loader = createStackLoader({ config: "stack.cfg", cwd: root, values: "exact" });
    const roles = ["web", "db", "cache"];
    for (let host = 0; host < 60; host++) {
      const data = loader.load({ minionId: `h${host}`, pillar: { role: roles[host % 3] } }).data;
      expect(data.get("role")).toBe(roles[host % 3]);
      expect(data.get("id")).toBe(`h${host}`);
    }
    expect(parsesOf("plain.yml")).toBe(1);
    expect(parsesOf("role.yml")).toBe(3);
    expect(parsesOf("own.yml")).toBe(60);
  });

  it("still parses a host's texts once when it is rendered again after many others (as --watch does)", () => {
    const loader = createStackLoader({ config: "stack.cfg", cwd: root, values: "exact" });
    for (let host = 0; host < 40; host++) loader.load({ minionId: `h${host}`, pillar: { role: "web" } });
    const before = parsesOf("own.yml");
    for (let again = 0; again < 3; again++) {
      expect(loader.load({ minionId: "h39", pillar: { role: "web" } }).data.get("id")).toBe("h39");
    }
    expect(parsesOf("own.yml")).toBe(before);
  });
});
