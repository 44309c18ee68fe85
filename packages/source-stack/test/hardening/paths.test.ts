import { isMergeError } from "@merge/core";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { loadStack, type StackHost } from "../../src/index.js";
import { expectPristine } from "../../../../test-kit/hostile.js";
import { reportCounts, tally } from "../../../../test-kit/tally.js";
import { makeTree, SECRET } from "./tree.js";

reportCounts("@merge/source-stack", import.meta.url);

const tree = makeTree();
afterAll(() => tree.remove());

// Values a minion (grains, its id) or a pillar could carry to reach a file outside the stack directory.
const HOSTILE_VALUES = [
  "../secret",
  "../../secret",
  "../other/minions/web1",
  "minions/../../secret",
  "..",
  ".",
  "",
  `${tree.root}/secret`,
  `${tree.stack}/../secret`,
  "/etc/passwd",
  "/etc/hostname\0",
  "*",
  "**",
  "?",
  "web?",
  "[a-z]*",
  "web[12]",
  "*/../../secret",
  "../*",
  "link",
  "../linkdir/minions/web1",
  "linkdir/minions/web1",
  "web1\0../../secret",
  "x\n../secret",
  "x\r\n../../secret",
  "..\\secret",
  "%2e%2e/secret",
  "\u2024\u2024/secret",
  "~/secret",
  "{{ '../secret' }}",
  "{% raw %}",
  "a".repeat(10_000),
];

function mergedFiles(
  host: StackHost,
  saltGlobs = false,
): { files: readonly string[]; data: unknown } | string {
  try {
    const result = loadStack({ config: tree.config, saltGlobs, ...host });
    return { files: result.files, data: result.data };
  } catch (error) {
    if (!isMergeError(error)) throw error;
    return error.code;
  }
}

function expectInside(outcome: ReturnType<typeof mergedFiles>): void {
  if (typeof outcome === "string") {
    expect(outcome).toMatch(/^(STACK_PATH|STACK_NOT_FILE|STACK_READ|TEMPLATE_[A-Z_]+|YAML_[A-Z_]+)$/);
    return;
  }
  expect(JSON.stringify(outcome.data)).not.toContain(SECRET);
  for (const file of outcome.files) {
    expect(file.startsWith(`${tree.stack}/`)).toBe(true);
    expect(file).not.toContain("/linkdir/");
    expect(file).not.toContain("/link.yml");
  }
}

describe("stack paths from hostile grains, minion ids and pillar values", () => {
  it("never merges a file from outside the stack directory", () => {
    let cases = 0;
    for (const value of HOSTILE_VALUES) {
      const hosts: StackHost[] = [
        { minionId: value },
        { minionId: "web1", grains: { roles: [value] } },
        { minionId: "web1", pillar: { env: value } },
      ];
      for (const host of hosts) {
        for (const saltGlobs of [false, true]) {
          expectInside(mergedFiles(host, saltGlobs));
          cases++;
        }
      }
    }
    expectPristine();
    tally("paths", cases);
  });

  it("does not let a grain or minion id with glob characters pull in other hosts' files", () => {
    let cases = 0;
    for (const value of ["*", "web*", "web?", "web[12]", "[w]eb1", "*1"]) {
      const byId = mergedFiles({ minionId: value });
      expect(typeof byId === "string" ? byId : byId.files.filter((f) => f.includes("/minions/"))).toEqual([]);
      const byGrain = mergedFiles({ minionId: "none", grains: { roles: [value] } });
      expect(
        typeof byGrain === "string" ? byGrain : byGrain.files.filter((f) => f.includes("/roles/")),
      ).toEqual([]);
      cases += 2;
    }
    // Salt's own behaviour is available on request: then the grain is a pattern.
    const salt = mergedFiles({ minionId: "web*" }, true);
    expect(typeof salt === "string" ? salt : salt.files.map((f) => f.slice(tree.stack.length))).toEqual([
      "/core.yml",
      "/minions/web1.yml",
      "/minions/web2.yml",
    ]);
    tally("paths", cases + 1);
  });

  it("refuses a symlink that leads outside, a ../ path and an absolute path written in the config", () => {
    const lines = [
      "minions/link.yml",
      "linkdir/minions/web1.yml",
      "../secret.yml",
      `${tree.root}/secret.yml`,
      "../*.yml",
    ];
    for (const line of lines) {
      const config = tree.write(`stack/cfg-${lines.indexOf(line)}.cfg`, `core.yml\n${line}\n`);
      let code: string | undefined;
      try {
        const result = loadStack({ config, minionId: "web1" });
        expect(JSON.stringify(result.data)).not.toContain(SECRET);
      } catch (error) {
        if (!isMergeError(error)) throw error;
        code = error.code;
      }
      expect(code).toBe("STACK_PATH");
    }
    tally("paths", lines.length);
  });

  it("never leaves the stack directory for any value made of path and glob characters (fast-check)", () => {
    const piece = fc.constantFrom(
      "..",
      ".",
      "/",
      "*",
      "**",
      "?",
      "[",
      "]",
      "!",
      "\0",
      "\n",
      "\\",
      "~",
      "web1",
      "secret",
      "link",
      "linkdir",
      "minions",
      "other",
      tree.root,
    );
    const value = fc.array(piece, { minLength: 1, maxLength: 8 }).map((parts) => parts.join(""));
    const runs = 300;
    fc.assert(
      fc.property(value, fc.constantFrom("id", "grain", "pillar"), fc.boolean(), (text, where, saltGlobs) => {
        const host: StackHost =
          where === "id"
            ? { minionId: text }
            : where === "grain"
              ? { minionId: "web1", grains: { roles: [text] } }
              : { minionId: "web1", pillar: { env: text } };
        expectInside(mergedFiles(host, saltGlobs));
      }),
      { numRuns: runs },
    );
    tally("property", runs);
  });
});
