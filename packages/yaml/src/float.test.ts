import { describe, expect, it } from "vitest";
import { dumpYaml } from "./dump.js";
import { YamlFloat } from "./float.js";
import { loadYaml } from "./load.js";

describe("keepFloats", () => {
  it("returns whole-number floats as YamlFloat, other numbers as numbers", () => {
    const v = loadYaml("a: 1.0\nb: 1\nc: 1.5\nd: 1.0e+3\ne: -0.0\nf: .inf", { keepFloats: true }) as Record<
      string,
      unknown
    >;
    expect(v.a).toBeInstanceOf(YamlFloat);
    expect(String(v.a)).toBe("1.0");
    expect(Number(v.a)).toBe(1);
    expect(v.b).toBe(1);
    expect(v.c).toBe(1.5);
    expect(String(v.d)).toBe("1000.0");
    expect(String(v.e)).toBe("-0.0");
    expect(v.f).toBe(Number.POSITIVE_INFINITY);
    expect(JSON.stringify(v)).toBe('{"a":1,"b":1,"c":1.5,"d":1000,"e":0,"f":null}');
  });

  it("dumps them back as Python floats", () => {
    const v = loadYaml("a: 1.0\nb: 1\nc: 2.0e+20", { keepFloats: true });
    expect(dumpYaml(v)).toBe("a: 1.0\nb: 1\nc: 2.0e+20\n");
    expect(dumpYaml(loadYaml("a: 1.0\nb: 1"))).toBe("a: 1\nb: 1\n");
  });

  it("keeps keys as numbers named as json.dumps does", () => {
    expect(loadYaml("{1.0: a, x: &f 2.0, *f : b}", { keepFloats: true })).toEqual({
      "1.0": "a",
      x: new YamlFloat(2),
      "2.0": "b",
    });
  });
});
