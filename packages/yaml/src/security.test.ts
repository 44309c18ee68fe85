import { describe, expect, it } from "vitest";
import { loadYaml } from "./load.js";
import { catchMergeError as fails } from "../../../test-kit/errors.js";

function laughs(levels: number): string {
  let text = 'l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
  for (let i = 1; i < levels; i++) {
    const refs = Array.from({ length: 9 }, () => `*l${i - 1}`).join(",");
    text += `l${i}: &l${i} [${refs}]\n`;
  }
  return text;
}

describe("hostile keys", () => {
  it("keeps __proto__, constructor and prototype as own data keys", () => {
    const v = loadYaml("__proto__: {polluted: 1}\nconstructor: {prototype: {x: 1}}\nprototype: 3") as Record<
      string,
      unknown
    >;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v)).toEqual(["__proto__", "constructor", "prototype"]);
    expect(Object.getOwnPropertyDescriptor(v, "__proto__")?.value).toEqual({ polluted: 1 });
    expect((v as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
  });

  it("keeps __proto__ as data when it arrives through << merges and anchors", () => {
    const v = loadYaml(
      "base: &b {__proto__: {polluted: 1}, constructor: 2}\nuser:\n  <<: *b\n  x: 1\nalias: *b\n",
    ) as {
      user: Record<string, unknown>;
    };
    expect(Object.keys(v.user)).toEqual(["__proto__", "constructor", "x"]);
    expect(Object.getPrototypeOf(v.user)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(v.user, "__proto__")?.value).toEqual({ polluted: 1 });
    expect(Object.prototype).not.toHaveProperty("polluted");
    const viaSalt = loadYaml("<<: {__proto__: {polluted: 1}}", { flavor: "salt" }) as object;
    expect(Object.getOwnPropertyNames(viaSalt)).toEqual(["__proto__"]);
    expect(Object.prototype).not.toHaveProperty("polluted");
  });

  it("does not let an inherited name look like a duplicate key", () => {
    expect(loadYaml("constructor: 1\ntoString: 2\nhasOwnProperty: 3", { flavor: "salt" })).toEqual({
      constructor: 1,
      toString: 2,
      hasOwnProperty: 3,
    });
  });
});

describe("resource limits", () => {
  it("stops a billion-laughs document at the node budget", () => {
    const error = fails(() => loadYaml(laughs(10), { filename: "bomb.yaml" }));
    expect(error.code).toBe("SIZE_LIMIT");
    expect(error.source?.file).toBe("bomb.yaml");
  });

  it("counts aliases each time they are used against maxNodes", () => {
    expect(() => loadYaml(laughs(3), { maxNodes: 2000 })).not.toThrow();
    expect(fails(() => loadYaml(laughs(4), { maxNodes: 2000 })).code).toBe("SIZE_LIMIT");
  });

  it("stops merge-key bombs at the budget", () => {
    let text = "m0: &m0 {a: 1, b: 2}\n";
    for (let i = 1; i < 40; i++) text += `m${i}: &m${i} {<<: [*m${i - 1}, *m${i - 1}]}\n`;
    expect(fails(() => loadYaml(text, { maxNodes: 100_000 })).code).toBe("SIZE_LIMIT");
  });

  it("refuses 100,000 nested flow sequences with a coded error, not a stack overflow", () => {
    const text = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    const error = fails(() => loadYaml(text));
    expect(error.code).toBe("DEPTH_LIMIT");
    expect(error.source).toMatchObject({ line: 1, column: 501 });
  });

  it("refuses deep block nesting and honours maxDepth", () => {
    let text = "";
    for (let i = 0; i < 50; i++) text += `${" ".repeat(i)}k${i}:\n`;
    expect(fails(() => loadYaml(text, { maxDepth: 20 })).code).toBe("DEPTH_LIMIT");
    expect(() => loadYaml(text, { maxDepth: 60 })).not.toThrow();
    const deep = `${"- ".repeat(100_000)}x`;
    expect(fails(() => loadYaml(deep)).code).toBe("DEPTH_LIMIT");
  });

  it("accepts nesting up to the default limit of 500", () => {
    const text = `${"[".repeat(499)}1${"]".repeat(499)}`;
    let v: unknown = loadYaml(text);
    let depth = 0;
    while (Array.isArray(v)) {
      v = v[0];
      depth++;
    }
    expect(depth).toBe(499);
  });
});
