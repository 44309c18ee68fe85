import { PyDict } from "@merge/core";
import { describe, expect, it } from "vitest";
import { DecimalKey, decimalIdentity, decimalKeysAsText, decimalPathAsText, keyOf } from "./keys.js";

describe("DECIMAL keys", () => {
  it("equal the int or float Python's Decimal equals", () => {
    expect(decimalIdentity("1.00")).toBe(1n);
    expect(decimalIdentity("-0.00")).toBe(0n);
    expect(decimalIdentity("123456789012345678901234567890")).toBe(123456789012345678901234567890n);
    expect(decimalIdentity("2.50")).toBe(2.5);
    expect(decimalIdentity("-0.50000")).toBe(-0.5);
    // 0.1 has no exact float: Decimal("0.1") != 0.1, but equals Decimal("0.10")
    expect(decimalIdentity("0.1")).toBe("decimal:0.1");
    expect(decimalIdentity("0.10")).toBe("decimal:0.1");
    expect(decimalIdentity("-12345678.90")).toBe("decimal:-12345678.9");
  });

  it("merge with int and float keys in a PyDict, keeping the first key and its name", () => {
    const d = new PyDict<unknown>([
      [1, "int"],
      [2.5, "float"],
      [0.1, "float"],
    ]);
    d.set(new DecimalKey("1.00"), "decimal one");
    d.set(new DecimalKey("2.50"), "decimal two and a half");
    d.set(new DecimalKey("0.10"), "decimal tenth");
    expect(d.keyList().map(String)).toEqual(["1", "2.5", "0.1", "0.10"]);
    expect(d.get(1)).toBe("decimal one");
    expect(d.get(new DecimalKey("0.1"))).toBe("decimal tenth");
    expect(keyOf(new DecimalKey("3.00"))).toBeInstanceOf(DecimalKey);
  });

  it("are named by their text once shaping is done, in place and in paths", () => {
    const inner = new PyDict<unknown>([
      [new DecimalKey("2.50"), "x"],
      ["b", 1],
    ]);
    const result = new PyDict<unknown>([
      [1, [inner]],
      [new DecimalKey("0.10"), inner],
    ]);
    decimalKeysAsText(result);
    expect(result.keyList()).toEqual([1, "0.10"]);
    expect(inner.keyList()).toEqual(["2.50", "b"]);
    expect(decimalPathAsText([new DecimalKey("0.10"), "2.50", 0])).toEqual(["0.10", "2.50", 0]);
  });
});
