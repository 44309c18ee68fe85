import { describe, expect, it } from "vitest";
import { catchMergeError as failure } from "../../../test-kit/errors.js";
import { loadStack } from "./loader.js";
import { makeTree } from "./test-tree.js";

// The line a YAML error points at, given as `details.excerpt` only when it is the author's text exactly.
describe("the line of a YAML error in a stack file", () => {
  const root = makeTree({
    "stack.cfg": "bad.yml\n",
    "flow.cfg": "flow.yml\n",
    "kept.cfg": "kept.yml\n",
    "secret.cfg": "secret.yml\n",
    "bad.yml": "x: 1\nports: [80, 443\nother: 2\n",
    "flow.yml": "x: {a: 1}\nports: [80, 443\nother: 2\n",
    "kept.yml": "x: {{ pillar.x }}\nports: [80, 443\nother: 2\n",
    "secret.yml": "x: 1\nports: [80, 443\npassword: {{ pillar.pw }}\n",
  });
  const load = (config: string) =>
    failure(() => loadStack({ config, cwd: root, minionId: "m", pillar: { x: 1, pw: "*topsecretpw" } }));
  const excerpt = (config: string) => (load(config).details as { excerpt?: unknown } | undefined)?.excerpt;

  it("is given for a file without template syntax, its message kept", () => {
    const error = load("stack.cfg");
    expect(error.message).toMatch(/^expected ',' or the end of the flow collection/);
    expect(excerpt("stack.cfg")).toEqual({ line: 3, column: 6, text: "other: 2" });
    expect(excerpt("flow.cfg")).toEqual({ line: 3, column: 6, text: "other: 2" });
  });

  it("is given for a templated file when the rendering left that line as the template wrote it", () => {
    expect(load("kept.cfg").message).toMatch(/not shown/);
    expect(excerpt("kept.cfg")).toEqual({ line: 3, column: 6, text: "other: 2" });
  });

  it("is never given for a line a pillar value was rendered into, and the value is nowhere in the error", () => {
    const error = load("secret.cfg");
    expect(error.source?.line).toBe(3);
    expect((error.details as { excerpt?: unknown } | undefined)?.excerpt).toBeUndefined();
    expect(JSON.stringify({ message: error.message, details: error.details ?? null })).not.toContain(
      "topsecretpw",
    );
  });
});
