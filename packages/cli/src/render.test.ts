import { describe, expect, it } from "vitest";
import { loadYaml } from "@merge/yaml";
import { renderValue, toPlain } from "./render.js";

describe("renderValue", () => {
  it("quotes strings a YAML 1.1 reader would take for booleans or numbers", () => {
    expect(renderValue({ a: "yes", b: "0755", c: "on", d: "plain" }, "yaml")).toBe(
      'a: "yes"\nb: "0755"\nc: "on"\nd: plain\n',
    );
  });

  it("writes shared subtrees out again instead of anchors and aliases", () => {
    const shared = { x: 1 };
    expect(renderValue({ a: shared, b: shared }, "yaml")).toBe("a:\n  x: 1\nb:\n  x: 1\n");
  });

  it("sorts keys and does not indent list items in cloud-init's style", () => {
    expect(renderValue({ b: [1], a: { d: 1, c: 2 } }, "yaml", "cloud-init")).toBe(
      "a:\n  c: 2\n  d: 1\nb:\n- 1\n",
    );
  });

  it("keeps a __proto__ key as data", () => {
    const value = JSON.parse('{"__proto__": {"x": 1}}');
    expect(renderValue(value, "yaml")).toBe("__proto__:\n  x: 1\n");
    expect(renderValue(value, "json")).toBe('{\n  "__proto__": {\n    "x": 1\n  }\n}\n');
  });
});

describe("toPlain", () => {
  it("turns values JSON cannot hold into ones it can, the same for both formats", () => {
    expect(
      toPlain({ big: 2n ** 64n, small: 5n, bytes: new Uint8Array([104, 105]), none: undefined }),
    ).toEqual({
      big: "18446744073709551616",
      small: 5,
      bytes: "aGk=",
      none: null,
    });
    expect(toPlain(new Date("2024-01-02T03:04:05Z"))).toBe("2024-01-02T03:04:05.000Z");
  });

  it("writes YAML timestamps as written and sets as lists", () => {
    const loaded = loadYaml(
      "day: 2001-12-14\nwhen: 2001-12-14 21:59:43.10 -5\nset: !!set {x, y}\n",
    ) as object;
    expect(toPlain(loaded)).toEqual({
      day: "2001-12-14",
      when: "2001-12-14T21:59:43.100000-05:00",
      set: ["x", "y"],
    });
    expect(JSON.parse(renderValue(loaded, "json"))).toEqual(toPlain(loaded));
  });

  it("returns the very same tree when nothing needs converting", () => {
    const tree = { a: [1, { b: "c" }] };
    expect(toPlain(tree)).toBe(tree);
  });
});
