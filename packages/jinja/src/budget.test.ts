import { describe, expect, it } from "vitest";
import { catchMergeError as failure } from "../../../test-kit/errors.js";
import { DEFAULT_LIMITS, RenderAccount } from "./budget.js";
import { createRenderer } from "./renderer.js";

const render = (src: string, limits = {}) =>
  createRenderer({ limits }).render(src, "/srv/stack/case.yml", {}, "/srv/stack/config.cfg");

describe("the resource account of a render", () => {
  it("charges what is built, written and run, and refuses a charge past a limit with TEMPLATE_LIMIT", () => {
    const account = new RenderAccount({
      ...DEFAULT_LIMITS,
      valueSize: 10,
      built: 25,
      output: 5,
      steps: 3,
      depth: 2,
    });
    account.build(10, "x");
    account.build(10, "x");
    expect(() => account.build(11, "a repetition")).toThrow(
      /a repetition would build a value of 11 items, more than 10/,
    );
    expect(() => account.build(6, "x")).toThrow(/values built pass 25 items in total \(limits.built\)/);
    account.write(5);
    expect(() => account.write(1)).toThrow(/limits.output/);
    account.enter();
    account.enter();
    expect(() => account.enter()).toThrow(/limits.depth|limits.steps/);
  });

  it("grows a concatenation by what it adds, but never past the largest value", () => {
    const account = new RenderAccount({ ...DEFAULT_LIMITS, valueSize: 100, built: 1000 });
    for (let i = 0; i < 50; i++) account.grow(99, 1, "a concatenation");
    expect(account.built).toBe(50);
    expect(() => account.grow(101, 1, "a concatenation")).toThrow(/limits.valueSize/);
  });

  it("is fresh for every render, and the renderer's limits option changes it", () => {
    expect(render("{{ ('x' * 8)|length }}", { valueSize: 8 })).toBe("8");
    expect(failure(() => render("{{ 'x' * 9 }}", { valueSize: 8 })).code).toBe("TEMPLATE_LIMIT");
    const renderer = createRenderer({ limits: { steps: 10 } });
    for (let i = 0; i < 3; i++)
      expect(
        renderer.render("{% for i in range(10) %}{% endfor %}ok", "/srv/s/c.yml", {}, "/srv/s/config.cfg"),
      ).toBe("ok");
    expect(failure(() => render("{% for i in range(11) %}{% endfor %}", { steps: 10 })).message).toContain(
      "limits.steps",
    );
    expect(failure(() => render("{{ 'abc' }}", { output: 2 })).message).toContain("limits.output");
  });

  it("refuses limits that are not positive numbers", () => {
    for (const bad of [0, -1, Number.NaN, "10"]) {
      expect(failure(() => createRenderer({ limits: { output: bad as number } })).code).toBe(
        "TEMPLATE_LIMIT",
      );
    }
  });
});
