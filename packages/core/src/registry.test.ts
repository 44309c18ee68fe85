import { describe, expect, it } from "vitest";
import type { MergerPlugin } from "./plugin.js";
import { createRegistry } from "./registry.js";
import { concatList, deepDict, replaceScalar } from "./test-plugins.js";
import { catchMergeError as caught } from "../../../test-kit/errors.js";

describe("createRegistry", () => {
  it("returns independent registries", () => {
    const a = createRegistry().use(deepDict());
    const b = createRegistry();
    expect(a.has("deep")).toBe(true);
    expect(b.has("deep")).toBe(false);
  });

  it("refuses a second plugin of the same name unless replacement is asked for", () => {
    const registry = createRegistry([deepDict()]);
    expect(caught(() => registry.register(deepDict())).code).toBe("DUPLICATE_PLUGIN");
    const replacement = { ...concatList(), name: "deep" };
    registry.register(replacement, { replace: true });
    expect(registry.get("deep")).toBe(replacement);
  });

  it("lists the registered names for an unknown merger", () => {
    const registry = createRegistry([deepDict(), concatList()]);
    const error = caught(() => registry.resolve("lst()"));
    expect(error.code).toBe("UNKNOWN_MERGER");
    expect(error.message).toContain('"lst"');
    expect(error.message).toContain("concat, deep");
  });

  it("lists the valid options for an unknown option", () => {
    const registry = createRegistry([concatList()]);
    const error = caught(() => registry.resolve("concat(back)"));
    expect(error.code).toBe("UNKNOWN_OPTION");
    expect(error.message).toContain('"back"');
    expect(error.message).toContain("front");
  });

  it("ignores unknown options in lenient mode", () => {
    const registry = createRegistry([concatList()]);
    expect(registry.resolve("concat(back,front)", { lenient: true }).merge([1], [2])).toEqual([2, 1]);
  });

  it("checks each option of a settings string in strict mode", () => {
    const registry = createRegistry([concatList()]);
    expect(caught(() => registry.resolve([{ name: "concat", settings: "front,sideways" }])).code).toBe(
      "UNKNOWN_OPTION",
    );
  });

  it("accepts cloud-init's m_ prefix", () => {
    const registry = createRegistry([concatList()]);
    expect(registry.resolve("m_concat()").merge([1], [2])).toEqual([1, 2]);
  });

  it("accepts free option values for plugins that declare them", () => {
    const keyed: MergerPlugin = { ...concatList(), name: "keyed", freeOptions: "the key field" };
    expect(() => createRegistry([keyed]).resolve("keyed(name)")).not.toThrow();
  });

  it("validates plugins when they are registered", () => {
    const registry = createRegistry();
    expect(caught(() => registry.register({ name: "Bad Name" } as never)).code).toBe("INVALID_PLUGIN");
    expect(caught(() => registry.register({ ...concatList(), kinds: ["tuple" as never] })).code).toBe(
      "INVALID_PLUGIN",
    );
    expect(caught(() => registry.register({ ...concatList(), create: undefined } as never)).code).toBe(
      "INVALID_PLUGIN",
    );
  });

  it("rejects a plugin whose create() misses a declared kind", () => {
    const liar: MergerPlugin = { ...concatList(), name: "liar", kinds: ["list", "dict"] };
    expect(caught(() => createRegistry([liar]).resolve("liar()")).code).toBe("INVALID_PLUGIN");
  });

  it("can be frozen and cloned", () => {
    const registry = createRegistry([deepDict()]).freeze();
    expect(registry.frozen).toBe(true);
    const error = caught(() => registry.register(concatList()));
    expect(error.code).toBe("REGISTRY_FROZEN");
    expect(error.message).toContain("clone()");
    const copy = registry.clone().use(concatList());
    expect(copy.has("concat")).toBe(true);
    expect(registry.has("concat")).toBe(false);
  });

  it("passes options through has() with substring matching for settings strings", () => {
    const seen: string[] = [];
    const probe: MergerPlugin = {
      name: "probe",
      kinds: ["list"],
      options: { append: "" },
      create(options) {
        seen.push(`${options.has("append")}:${options.has("pend")}:${options.list.join("|")}`);
        return { list: (base) => base };
      },
    };
    const registry = createRegistry([probe, replaceScalar()]);
    registry.resolve("probe(append)");
    registry.resolve([{ name: "probe", settings: "xappendx" }], { lenient: true });
    expect(seen).toEqual(["true:false:append", "true:true:xappendx"]);
  });
});
