import { isMergeError } from "@merge/core";
import { describe, expect, it } from "vitest";
import { loadStack } from "./loader.js";
import { makeTree } from "./test-tree.js";

describe("hostile input", () => {
  const outer = makeTree({
    "secret.yml": "secret: leaked\n",
    "stack/c.cfg": "minions/{{ minion_id }}.yml\nroles/{{ __grains__['role'] }}.yml\n",
    "stack/minions/a.yml": "a: 1\n",
    "stack/roles/web.yml": "web: 1\n",
    "stack/proto.cfg": "proto.yml\n",
    "stack/proto.yml":
      '__proto__: {polluted: true}\nconstructor: {prototype: {polluted: true}}\nlist: [{__proto__: {x: 1}}]\n"<<": {y: 1}\n',
  });
  const stack = `${outer}/stack`;

  it("keeps __proto__ and constructor keys as data and leaves Object.prototype alone", () => {
    const result = loadStack({
      config: "proto.cfg",
      cwd: stack,
      minionId: "m",
      pillar: JSON.parse('{"__proto__": {"p": 1}}'),
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.hasOwn(result.data, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(result.data)).toBe(Object.prototype);
    expect((result.data.constructor as unknown as Record<string, unknown>).prototype).toEqual({
      polluted: true,
    });
  });

  it("never reads a file outside the directory whatever the minion claims", () => {
    const tries = [
      "../secret",
      "../../secret",
      `${outer}/secret`,
      "..\\secret",
      "a/../../secret",
      "*/../../secret",
    ];
    for (const minionId of tries) {
      for (const saltGlobs of [false, true]) {
        let data: unknown;
        try {
          data = loadStack({
            config: "c.cfg",
            cwd: stack,
            minionId,
            grains: { role: minionId },
            saltGlobs,
          }).data;
        } catch (error) {
          expect(isMergeError(error) && error.code).toBe("STACK_PATH");
          continue;
        }
        expect(JSON.stringify(data)).not.toContain("leaked");
      }
    }
  });

  it("treats NUL bytes and glob characters in grains as plain, unmatched text", () => {
    const result = loadStack({ config: "c.cfg", cwd: stack, minionId: "a\0", grains: { role: "w?b" } });
    expect(result.files).toEqual([]);
    expect(result.warnings.map((w) => w.code)).toEqual(["STACK_NO_MATCH", "STACK_NO_MATCH"]);
  });
});
