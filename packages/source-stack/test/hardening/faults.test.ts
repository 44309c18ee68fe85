import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isMergeError, type MergeError } from "@merge/core";
import { afterAll, describe, expect, it } from "vitest";
import { createStackLoader, loadStack } from "../../src/index.js";
import { expectPristine, hostileJsonTexts, ownHostileKeys } from "../../../../test-kit/hostile.js";
import { reportCounts, tally } from "../../../../test-kit/tally.js";
import { makeTree } from "./tree.js";
import { catchMergeError as failure } from "../../../../test-kit/errors.js";

reportCounts("@merge/source-stack", import.meta.url);

const tree = makeTree();
afterAll(() => tree.remove());

describe("faults in the stack tree", () => {
  it("refuses a directory, a FIFO and a dangling symlink where a YAML file is expected, without blocking", () => {
    execFileSync("mkfifo", [join(tree.stack, "roles", "fifo.yml")]);
    tree.write("stack/roles/dir.yml/inner.yml", "x: 1\n");
    execFileSync("ln", [
      "-s",
      join(tree.root, "nothing-here.yml"),
      join(tree.stack, "roles", "dangling.yml"),
    ]);
    const cases = [
      ["fifo", "STACK_NOT_FILE"],
      ["dir", "STACK_NOT_FILE"],
    ] as const;
    for (const [role, code] of cases) {
      const error = failure(() =>
        loadStack({ config: tree.config, minionId: "web1", grains: { roles: [role] } }),
      );
      expect(error.code).toBe(code);
      expect(error.source?.file).toBe(tree.config);
    }
    // Salt's glob lists a dangling link (lexists); reading it is refused with a coded error.
    const dangling = failure(() =>
      loadStack({ config: tree.config, minionId: "web1", grains: { roles: ["dangling"] } }),
    );
    expect(dangling.code).toBe("STACK_NOT_FILE");
    expect(dangling.message).toContain("dangling symlink");
    // A FIFO or directory given as the config itself is not a file: skipped with a warning, never read.
    for (const config of [join(tree.stack, "roles", "fifo.yml"), join(tree.stack, "roles")]) {
      const result = loadStack({ config, minionId: "web1" });
      expect(result.warnings.map((w) => w.code)).toEqual(["STACK_CONFIG_MISSING"]);
    }
    tally("faults", 5);
  });

  it("reports unreadable files (invalid UTF-8: root reads any file, so chmod cannot make one) with the file", () => {
    tree.write("stack/roles/binary.yml", new Uint8Array([0x61, 0x3a, 0x20, 0xff, 0xfe, 0x00, 0x0a]));
    const error = failure(() =>
      loadStack({ config: tree.config, minionId: "web1", grains: { roles: ["binary"] } }),
    );
    expect(error.code).toBe("STACK_READ");
    expect(error.source?.file).toBe(join(tree.stack, "roles", "binary.yml"));
    const config = tree.write("stack/binary.cfg", new Uint8Array([0xc3, 0x28, 0x0a]));
    expect(failure(() => loadStack({ config, minionId: "web1" })).code).toBe("STACK_READ");
    tally("faults", 2);
  });

  it("gives YAML and template errors in a stack file their file, line and column", () => {
    const files: [string, string, RegExp][] = [
      ["bad-yaml", "a: 1\n  b: [\n", /^YAML_/],
      ["bad-tag", "a: !!python/object:os.system [id]\n", /^YAML_TAG$/],
      ["dup", "a: 1\na: 2\n", /^YAML_DUPLICATE_KEY$/],
      ["deep", `a: ${"[".repeat(100_000)}\n`, /^DEPTH_LIMIT$/],
      [
        "bomb",
        `a: &a [x,x,x,x,x,x,x,x,x,x]\n${Array.from(
          { length: 9 },
          (_, i) =>
            `${"b".repeat(i + 1)}: &${"b".repeat(i + 1)} [${Array(10)
              .fill(i === 0 ? "*a" : `*${"b".repeat(i)}`)
              .join(",")}]`,
        ).join("\n")}\n`,
        /^SIZE_LIMIT$/,
      ],
      ["tpl", "a: {{ nope.attr }}\n", /^TEMPLATE_/],
      ["tpl-syntax", "a: {% if %}\n", /^TEMPLATE_/],
      ["strategy", "a:\n  __: nonsense\n  b: 1\n", /^UNKNOWN_STRATEGY$/],
    ];
    tree.write("stack/roles/base-a.yml", "a: {b: 1}\n");
    for (const [role, text, code] of files) {
      tree.write(`stack/roles/${role}.yml`, text);
      // The strategy is only checked where it merges: give the stack an `a` first.
      const error = failure(() =>
        loadStack({ config: tree.config, minionId: "web1", grains: { roles: ["base-a", role] } }),
      );
      expect(error.code).toMatch(code);
      expect(error.source?.file).toBe(join(tree.stack, "roles", `${role}.yml`));
      expect(error.source?.line).toBeGreaterThan(0);
      expect(error.source?.column).toBeGreaterThan(0);
    }
    tally("faults", files.length);
  });

  it("survives a file that vanishes or changes while the stack is being rendered", () => {
    let cases = 0;
    for (const cache of [true, false]) {
      tree.write("stack/roles/gone.yml", "gone: 1\n");
      tree.write("stack/roles/changes.yml", "version: old\n");
      tree.write("stack/roles/killer.yml", "killer: {{ __salt__['test.chaos']() }}\n");
      const loader = createStackLoader({
        config: tree.config,
        cache,
        functions: {
          "test.chaos": () => {
            rmSync(join(tree.stack, "roles", "gone.yml"), { force: true });
            writeFileSync(join(tree.stack, "roles", "changes.yml"), "version: new\n");
            return 1;
          },
        },
      });
      try {
        const result = loader.load({ minionId: "web1", grains: { roles: ["killer", "gone", "changes"] } });
        expect(["old", "new"]).toContain((result.data as { version?: string }).version);
      } catch (error) {
        expect(isMergeError(error)).toBe(true);
        expect((error as MergeError).code).toMatch(/^STACK_/);
      }
      cases++;
      // The next host: without the cache the loader sees the tree as it is now.
      tree.write("stack/roles/killer.yml", "killer: 1\n");
      const next = loader.load({ minionId: "web2", grains: { roles: ["killer", "gone", "changes"] } });
      if (!cache) {
        expect(next.data).toMatchObject({ version: "new" });
        expect(next.data).not.toHaveProperty("gone");
      }
      cases++;
    }
    tally("faults", cases);
  });
});

describe("prototype pollution through a stack", () => {
  it("gives templates no way to a constructor or a prototype", () => {
    const templates = [
      "a: \"{{ ''.constructor.constructor('return process')() }}\"\n",
      "a: \"{{ range.constructor('return 1')() }}\"\n",
      "{% set o = {} %}{% do o.constructor.assign(o.constructor.prototype, {'polluted': 1}) %}a: 1\n",
      "a: \"{{ joiner.constructor('return process')() }}\"\n",
      'a: "{{ stack.__proto__ }}"\n',
      'a: "{{ [].constructor }}"\n',
      'a: "{{ __salt__.constructor }}"\n',
      "{% do stack.update({'__proto__': {'polluted': 2}}) %}a: \"{{ stack.polluted }}\"\n",
      "{% set d = {} %}{% do d.update({'__proto__': {'isAdmin': true}}) %}a: \"{{ d.isAdmin }}\"\n",
      "{% set d = {} %}{% do d.setdefault('__proto__', {}).update({'hacked': 1}) %}a: \"{{ d.hacked }}\"\n",
    ];
    for (const text of templates) {
      tree.write("stack/roles/escape.yml", text);
      try {
        const { data } = loadStack({ config: tree.config, minionId: "web1", grains: { roles: ["escape"] } });
        // Whatever the template printed, it is not a function's source, a process or a planted value.
        expect(JSON.stringify(data)).not.toMatch(/function|\[object process\]|"a":"?(1|2|true)"?/);
      } catch (error) {
        expect(isMergeError(error)).toBe(true);
        expect((error as MergeError).code).toBe("TEMPLATE_RENDER");
      }
      expectPristine();
    }
    tally("pollution", templates.length);
  });

  it("keeps hostile keys from grains, pillar and YAML files as data", () => {
    let cases = 0;
    tree.write(
      "stack/roles/hostile.yml",
      "{% do stack.update(__grains__.get('extra', {})) %}\n__proto__: {polluted: 1}\nconstructor: {prototype: {isAdmin: true}}\nlist:\n  - __proto__: {hacked: 1}\n",
    );
    for (const text of hostileJsonTexts()) {
      const extra = JSON.parse(text);
      const result = loadStack({
        config: tree.config,
        minionId: "web1",
        grains: { roles: ["hostile"], extra },
        pillar: JSON.parse(text),
      });
      expect(ownHostileKeys(result.data).length).toBeGreaterThanOrEqual(3);
      expect(Object.getPrototypeOf(result.data)).toBe(Object.prototype);
      expectPristine();
      cases++;
    }
    tally("pollution", cases);
  });
});
