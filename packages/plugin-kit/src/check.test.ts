import { type Dict, hasOwn, isPlainObject, type Mapping, MergeError, type MergerPlugin } from "@merge/core";
import { describe, expect, it } from "vitest";
import { checkPlugin, PluginCheckError, type PropertyName } from "./index.js";
import { lastMerger, variant } from "./test-plugins.js";

/** The PluginCheckError checkPlugin throws for a plugin; fails the test when it passes. */
function failure(plugin: MergerPlugin, options: Parameters<typeof checkPlugin>[1] = {}): PluginCheckError {
  try {
    checkPlugin(plugin, options);
  } catch (error) {
    if (error instanceof PluginCheckError) return error;
    throw error;
  }
  throw new Error(`checkPlugin(${plugin.name}) passed, but it should have failed`);
}

function expectFailure(error: PluginCheckError, property: PropertyName, problem: RegExp): void {
  expect(error.property).toBe(property);
  expect(error.message).toMatch(problem);
  expect(error.message.split("\n")[0]).toContain(`checkPlugin(${error.plugin}): ${property}: `);
}

describe("checkPlugin on a plugin that keeps every rule", () => {
  it("passes and reports every property it checked", () => {
    const report = checkPlugin(lastMerger());
    expect(report.plugin).toBe("last");
    expect(report.checked).toEqual([
      "options-described",
      "kinds-handled",
      "inputs-unchanged",
      "merge-errors-only",
      "hostile-keys-as-data",
      "input-values-only",
      "in-place-equals-pure",
      "trace-paths",
    ]);
    expect(report.cases).toBeGreaterThanOrEqual(800);
  });

  it("leaves out skipped properties and runs only the ones asked for", () => {
    expect(
      checkPlugin(lastMerger(), { skip: ["trace-paths", "in-place-equals-pure"] }).checked,
    ).not.toContain("trace-paths");
    expect(checkPlugin(lastMerger(), { only: ["trace-paths"], numRuns: 20 }).checked).toEqual([
      "trace-paths",
    ]);
    expect(() => checkPlugin(lastMerger(), { only: ["no-such" as PropertyName] })).toThrow(
      /unknown property/,
    );
  });

  it("does not check in-place-equals-pure for a plugin without in-place handlers", () => {
    const pure = variant("pure", ({ inPlace: _dropped, ...handlers }) => handlers);
    expect(checkPlugin(pure).checked).not.toContain("in-place-equals-pure");
  });
});

describe("checkPlugin on plugins that break a rule", () => {
  it("fails a plugin that changes its input, printing the spec, the inputs and the changed value", () => {
    const mutating = variant("mutating", (handlers) => ({
      ...handlers,
      list: (base, incoming) => {
        if (Array.isArray(incoming)) (base as unknown[]).push(...incoming);
        return base;
      },
    }));
    const error = failure(mutating);
    expectFailure(error, "inputs-unchanged", /the merge changed its base value/);
    expect(error.message).toMatch(/\n {2}spec: {5}mutating\(\)\n/);
    expect(error.message).toMatch(/\n {2}base: {5}\[/);
    expect(error.message).toMatch(/\n {2}incoming: /);
    expect(error.message).toMatch(/\n {2}base after the merge: \[/);
    expect(error.message).toMatch(
      /\n {2}replay: checkPlugin\(plugin, \{ \.\.\.yourOptions, seed: 1515, path: "merge:[\d:]+" \}\)$/,
    );
  });

  it("fails an in-place handler that changes a document", () => {
    const mutating = variant("mutating", (handlers) => ({
      ...handlers,
      inPlace: {
        ...handlers.inPlace,
        dict: (target: Mapping, incoming: unknown) => {
          const result = handlers.inPlace!.dict!(target, incoming);
          if (isPlainObject(incoming)) for (const key of Object.keys(incoming)) delete incoming[key];
          return result;
        },
      },
    }));
    expectFailure(
      failure(mutating, { only: ["in-place-equals-pure", "inputs-unchanged"] }),
      "inputs-unchanged",
      /in-place fold \(mergeAll\) changed a document/,
    );
  });

  it("fails a plugin that assigns keys with =, letting __proto__ through as a prototype", () => {
    const naive = variant("naive", (handlers, ctx) => ({
      ...handlers,
      dict: (mapping, incoming) => {
        // plain-object idioms on purpose (this plugin is meant to fail)
        const base = mapping as Dict;
        if (!isPlainObject(incoming)) return incoming;
        const out: Dict = {};
        for (const key of Object.keys(base)) out[key] = base[key];
        for (const key of Object.keys(incoming)) {
          out[key] = hasOwn(out, key) ? ctx.merge(out[key], incoming[key], key) : incoming[key];
        }
        return out;
      },
    }));
    const error = failure(naive, { skip: ["in-place-equals-pure"] });
    expectFailure(error, "hostile-keys-as-data", /__proto__/);
  });

  it("fails a plugin that drops a __proto__ key, which only the renaming check can see", () => {
    const dropping = variant("dropping", (handlers) => ({
      ...handlers,
      dict: (base, incoming) => {
        const result = handlers.dict!(base, incoming);
        if (!isPlainObject(result) || !hasOwn(result, "__proto__")) return result;
        const out: Dict = {};
        for (const key of Object.keys(result)) if (key !== "__proto__") out[key] = result[key];
        return out;
      },
    }));
    const error = failure(dropping, { skip: ["in-place-equals-pure", "input-values-only"] });
    expectFailure(error, "hostile-keys-as-data", /renaming hostile keys .* changed the result/);
    expect(error.message).toMatch(/result with renamed keys: /);
    expect(error.path).toMatch(/^renamed:/);
  });

  it("fails a plugin that reads an inherited key as if the mapping had it", () => {
    // Old values win here, so the inherited Object function read for `constructor` is kept in the result.
    const inherited = variant("inherited", (handlers, ctx) => ({
      ...handlers,
      other: (base) => base,
      dict: (mapping, incoming) => {
        const base = mapping as Dict;
        if (!isPlainObject(incoming)) return incoming;
        const out: Dict = { ...base };
        for (const key of Object.keys(incoming)) {
          // `key in base` is true for constructor, toString, ... on every plain object.
          Object.defineProperty(out, key, {
            value: key in base ? ctx.merge(base[key], incoming[key], key) : incoming[key],
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
        return out;
      },
    }));
    const error = failure(inherited, { skip: ["in-place-equals-pure"] });
    expect(["input-values-only", "hostile-keys-as-data"]).toContain(error.property);
    expect(error.message).toMatch(/Function|hostile key/);
  });

  it("fails a plugin that invents values", () => {
    const summing = variant("summing", (handlers) => ({
      ...handlers,
      number: (base: unknown, incoming: unknown) =>
        typeof base === "number" && typeof incoming === "number" ? base + incoming : incoming,
    }));
    const error = failure(summing);
    expectFailure(error, "input-values-only", /the result holds -?[\d.e+]+ at .*, which neither input holds/);
  });

  it("fails a plugin whose in-place handler differs from its pure one", () => {
    const prepending = variant("prepending", (handlers, ctx) => ({
      ...handlers,
      inPlace: {
        ...handlers.inPlace,
        list: (target: unknown[], incoming: unknown) => {
          if (!Array.isArray(incoming)) return handlers.list!(target, incoming);
          target.unshift(...incoming);
          if (ctx.tracing) for (let i = 0; i < incoming.length; i++) ctx.explain("appended", i);
          return target;
        },
      },
    }));
    const error = failure(prepending);
    // Shrinking may end at a case where only the events differ (prepending [x] to [x] gives [x, x] either way).
    expectFailure(
      error,
      "in-place-equals-pure",
      /the in-place handlers (give another result|record other trace events) than the pure ones/,
    );
    expect(error.message).toMatch(/\n {2}pure: \[.*\n {2}in place: \[/);
    expect(error.message).toMatch(/\n {2}documents: \[/);
    expect(error.message).toMatch(/\n {2}pure: .*\n {2}in place: /);
    expect(error.path).toMatch(/^in-place:/);
  });

  it("fails a plugin that records an event at a path missing from the result", () => {
    const lost = variant("lost", (handlers, ctx) => ({
      ...handlers,
      dict: (base, incoming) => {
        if (ctx.tracing && isPlainObject(incoming)) ctx.explain("added", "no-such-key");
        return handlers.dict!(base, incoming);
      },
    }));
    const error = failure(lost, { only: ["trace-paths"] });
    expectFailure(
      error,
      "trace-paths",
      /a trace event \(added\) names no-such-key, which is not in the result/,
    );
    expect(error.message).toMatch(/\n {2}event: /);
  });

  it("fails a plugin that sorts its result but records appended items where they were before sorting", () => {
    const sorting = variant("sorting", (handlers, ctx) => ({
      ...handlers,
      list: (base, incoming) => {
        if (!Array.isArray(incoming)) return incoming;
        const text = (value: unknown) => (typeof value === "string" ? value : "");
        const out = [...base, ...incoming].sort((a, b) =>
          text(a) < text(b) ? -1 : text(a) > text(b) ? 1 : 0,
        );
        if (ctx.tracing) for (let i = 0; i < incoming.length; i++) ctx.explain("appended", base.length + i);
        return out;
      },
      inPlace: { dict: handlers.inPlace!.dict! },
    }));
    const error = failure(sorting, { samples: [["b", "c"], ["a"], ["d", "a"]] });
    expectFailure(
      error,
      "trace-paths",
      /a trace event \(appended\) names \[\d+\], but the item there is not from the new value/,
    );
  });

  it("fails a plugin whose handler throws something other than a MergeError", () => {
    const careless = variant("careless", (handlers) => ({
      ...handlers,
      list: (base, incoming) => [...base, ...(incoming as unknown[])],
    }));
    const error = failure(careless, { skip: ["in-place-equals-pure"] });
    expectFailure(error, "merge-errors-only", /threw TypeError: .* wrapped as PLUGIN_FAILED/);
  });

  it("accepts a plugin that fails with a coded MergeError", () => {
    const strict = variant("strict", (handlers, ctx) => ({
      ...handlers,
      list: (base, incoming) =>
        Array.isArray(incoming)
          ? handlers.list!(base, incoming)
          : ctx.fail("MERGE_TYPE", "a list needs a list"),
      inPlace: { dict: handlers.inPlace!.dict! },
    }));
    expect(checkPlugin(strict).checked).toContain("merge-errors-only");
    const thrower = variant("thrower", (handlers) => ({
      ...handlers,
      string: () => {
        throw new MergeError("MERGE_TYPE", "no strings");
      },
    }));
    expect(() => checkPlugin(thrower)).not.toThrow();
  });

  it("fails options without a one-line description, or that no spec string can spell, listing every problem", () => {
    const undocumented = {
      ...lastMerger(),
      name: "undocumented",
      options: { fast: "", Slow: "goes slowly", "a,b": "x\ny" },
    };
    const error = failure(undocumented);
    expectFailure(error, "options-described", /3 problems|4 problems/);
    expect(error.message).toMatch(/- option "fast" needs a one-line description/);
    expect(error.message).toMatch(/- option "Slow" cannot be written in a spec string/);
    expect(error.message).toMatch(/- option "a,b" needs a one-line description/);
  });

  it("fails a declared kind without a handler and a handler for an undeclared kind", () => {
    const missing = {
      ...lastMerger(),
      name: "missing",
      kinds: ["list", "string"] as const,
      create: () => ({ list: (b: unknown) => b }),
    };
    expectFailure(
      failure(missing as unknown as MergerPlugin),
      "kinds-handled",
      /declares kind "string" but create\(\) returned no handler/,
    );
    const extra = variant("extra", (handlers) => handlers, { kinds: ["dict", "list"] });
    expectFailure(
      failure(extra),
      "kinds-handled",
      /returned a "string" handler, but "string" is not in kinds/,
    );
  });

  it("fails a plugin that cannot be registered", () => {
    expectFailure(failure({ ...lastMerger(), name: "Bad Name" }), "options-described", /must be lowercase/);
  });

  it("names an option set that does not resolve", () => {
    const error = failure(lastMerger(), { options: [["nope"]] });
    expectFailure(error, "options-described", /the spec last\(nope\) does not resolve \(UNKNOWN_OPTION/);
  });
});

describe("replaying a failure", () => {
  it("gives the same failure again from the printed seed and path, checking only that case", () => {
    const summing = variant("summing", (handlers) => ({
      ...handlers,
      number: (base: unknown, incoming: unknown) =>
        typeof base === "number" && typeof incoming === "number" ? base + incoming : incoming,
    }));
    const first = failure(summing, { seed: 7 });
    const again = failure(summing, { seed: first.seed, path: first.path });
    expect(again.message).toBe(first.message);
    expect(() => checkPlugin(summing, { path: "nowhere:1" })).toThrow(/not one printed by a failure/);
  });

  it("is deterministic: the same seed gives the same failure", () => {
    const prepending = variant("prepending", (handlers) => ({
      ...handlers,
      inPlace: {
        ...handlers.inPlace,
        list: (target: unknown[], incoming: unknown) =>
          Array.isArray(incoming) ? [...incoming, ...target] : incoming,
      },
    }));
    expect(failure(prepending).message).toBe(failure(prepending).message);
  });
});
