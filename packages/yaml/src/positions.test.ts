import { describe, expect, it } from "vitest";
import { loadYamlWithPositions } from "./load.js";

describe("loadYamlWithPositions", () => {
  const text = [
    "# header",
    "defaults: &d",
    "  port: 80",
    "  tls: off",
    "hosts:",
    "  - name: web",
    "    <<: *d",
    "  - name: db",
    "    port: 5432",
    "1: one",
    "",
  ].join("\n");
  const { value, positionOf } = loadYamlWithPositions(text, { filename: "top.sls" });

  it("returns the value as loadYaml does", () => {
    expect(value).toEqual({
      defaults: { port: 80, tls: false },
      hosts: [
        { port: 80, tls: false, name: "web" },
        { name: "db", port: 5432 },
      ],
      1: "one",
    });
  });

  it("gives the line and column of keys and items", () => {
    expect(positionOf([])).toEqual({ line: 2, column: 1 });
    expect(positionOf(["defaults"])).toEqual({ line: 2, column: 1 });
    expect(positionOf(["defaults", "port"])).toEqual({ line: 3, column: 3 });
    expect(positionOf(["hosts", 1])).toEqual({ line: 8, column: 5 });
    expect(positionOf(["hosts", 1, "port"])).toEqual({ line: 9, column: 5 });
    expect(positionOf(["1"])).toEqual({ line: 10, column: 1 });
  });

  it("points merged keys at the line that wrote them", () => {
    expect(positionOf(["hosts", 0, "name"])).toEqual({ line: 6, column: 5 });
    expect(positionOf(["hosts", 0, "port"])).toEqual({ line: 3, column: 3 });
  });

  it("returns undefined for paths that do not exist", () => {
    expect(positionOf(["nope"])).toBeUndefined();
    expect(positionOf(["hosts", 7])).toBeUndefined();
    expect(positionOf(["defaults", "port", "x"])).toBeUndefined();
  });
});
