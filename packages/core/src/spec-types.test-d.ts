// Type tests for typed spec strings, run by `pnpm typecheck` and by vitest's typecheck mode (`pnpm test`). Each
// `@ts-expect-error` is a test: if the line stops being an error (a misspelt option accepted), compilation fails.
import { describe, expectTypeOf, it } from "vitest";
import type { Merger } from "./engine.js";
import { definePlugin, type MergerPlugin } from "./plugin.js";
import { createRegistry, type Registry } from "./registry.js";
import type { CheckedSpec, PluginOptionNames, PluginTable } from "./spec-types.js";

const list = definePlugin({
  name: "list",
  kinds: ["list"],
  options: { append: "add after", prepend: "add before", recurse_list: "merge pairs" },
  create: () => ({ list: (base) => base }),
});
const keyed = definePlugin({
  name: "keyed",
  kinds: ["list"],
  options: { replace: "replace matches" },
  freeOptions: "the key field",
  create: () => ({ list: (base) => base }),
});
const untyped: MergerPlugin = {
  name: "untyped",
  kinds: ["dict"],
  options: {},
  create: () => ({ dict: (b) => b }),
};

declare module "./plugin.js" {
  interface MergerMap {
    declared: "on" | "off";
  }
}

describe("typed spec strings", () => {
  it("accept valid literal specs of a registry's known plugins", () => {
    const registry = createRegistry([list, keyed]);
    expectTypeOf(registry.resolve("list(append)+keyed(name)")).toEqualTypeOf<Merger>();
    registry.resolve("list(append, recurse_list)");
    registry.resolve("List(APPEND) + keyed(Name,replace)");
    registry.resolve("list(recurse-list)");
    registry.resolve("m_list(prepend)");
    registry.resolve("list()+keyed()");
    registry.resolve("");
  });

  it("reject a misspelt option, an unknown merger and a malformed segment", () => {
    const registry = createRegistry().use(list, keyed);
    // @ts-expect-error: "apend" is not an option of list
    registry.resolve("list(apend)");
    // @ts-expect-error: the second option is misspelt
    registry.resolve("keyed(name)+list(append,recurse_lst)");
    // @ts-expect-error: no merger named lsit
    registry.resolve("lsit(append)");
    // @ts-expect-error: not name(options)
    registry.resolve("list");
    expectTypeOf<
      CheckedSpec<"list(apend)", PluginTable<[typeof list]>>
    >().toEqualTypeOf<'✗ unknown option "apend" for merger "list"'>();
    expectTypeOf<
      CheckedSpec<"dict()", PluginTable<[typeof list]>>
    >().toEqualTypeOf<'✗ unknown merger "dict"'>();
  });

  it("track plugins added with register and use", () => {
    const registry = createRegistry([list]).register(keyed);
    registry.resolve("keyed(id)+list(append)");
    // @ts-expect-error: list has no option "replace" (keyed, which takes free values, is not asked here)
    registry.resolve("list(replace)");
  });

  it("accept any string that is not a literal, and the list forms", () => {
    const registry = createRegistry([list]);
    const fromFile: string = "list(apend)";
    registry.resolve(fromFile);
    registry.resolve([{ name: "list", settings: ["append"] }]);
    registry.resolve([["list", "append"]]);
  });

  it("accept any merger on a registry whose plugins are not known, checking the names MergerMap declares", () => {
    const open = createRegistry();
    open.register(list);
    open.resolve("list(anything)+whatever(x)");
    open.resolve("declared(on)");
    // @ts-expect-error: MergerMap says declared takes on or off
    open.resolve("declared(maybe)");
    const loose = createRegistry([untyped]);
    loose.resolve("untyped(x)+other()");
  });

  it("let a registry of known plugins pass where a Registry is expected", () => {
    const take = (registry: Registry) => registry;
    expectTypeOf(take(createRegistry([list, keyed]))).toEqualTypeOf<Registry>();
    expectTypeOf<PluginOptionNames<typeof list>>().toEqualTypeOf<"append" | "prepend" | "recurse_list">();
    expectTypeOf<PluginOptionNames<typeof keyed>>().toEqualTypeOf<string>();
  });
});

describe("typed spec strings of plugins without options", () => {
  it("accept name() and reject any option", () => {
    const bare = definePlugin({
      name: "bare",
      kinds: ["list"],
      options: {},
      create: () => ({ list: (b) => b }),
    });
    const registry = createRegistry([bare]);
    registry.resolve("bare()");
    // @ts-expect-error: bare takes no options
    registry.resolve("bare(x)");
  });

  it("accept any name and option when a plugin's name is not a literal type", () => {
    const named = {
      name: "named",
      kinds: ["list" as const],
      options: {},
      create: () => ({ list: (b: unknown) => b }),
    };
    createRegistry([named]).resolve("named(x)+other(y)");
  });
});
