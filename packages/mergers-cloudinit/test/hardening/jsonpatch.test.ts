import { isMergeError, PyDict } from "@merge/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyJsonPatchPart, mergeCloudConfig } from "../../src/index.js";
import { catchMergeError as failure } from "../../../../test-kit/errors.js";
import { expectPristine } from "../../../../test-kit/hostile.js";
import { reportCounts, tally } from "../../../../test-kit/tally.js";

reportCounts("@merge/mergers-cloudinit", import.meta.url);

// #cloud-config-jsonp follows Python's jsonpatch 1.32 / jsonpointer 2.3 as Debian ships them (the oracle suite,
// test/jsonpatch-oracle.test.ts, replays 2,400 cases of the real library); these are the classes of issue 17.
const patch = (ops: unknown) => `#cloud-config-jsonp\n${JSON.stringify(ops)}`;

describe("JSON patch paths reach only what the configuration holds", () => {
  it("treats JavaScript member names as ordinary keys: added as data, missing when absent", () => {
    const names = [
      "constructor",
      "toString",
      "__proto__",
      "hasOwnProperty",
      "valueOf",
      "prototype",
      "__defineGetter__",
    ];
    let cases = 0;
    for (const name of names) {
      const added = applyJsonPatchPart(
        { a: 1 },
        patch([{ op: "add", path: `/${name}`, value: { polluted: true } }]),
        {
          values: "exact",
        },
      ) as PyDict;
      expect(added.keyList()).toEqual(["a", name]);
      expect((added.get(name) as PyDict).get("polluted")).toBe(true);
      // Reading a member the configuration does not hold fails as a missing key does.
      for (const op of [
        { op: "test", path: `/${name}`, value: null },
        { op: "replace", path: `/${name}`, value: 1 },
        { op: "remove", path: `/${name}` },
        { op: "copy", from: `/${name}`, path: "/x" },
        { op: "move", from: `/${name}`, path: "/x" },
        { op: "add", path: `/${name}/polluted`, value: 1 },
      ]) {
        const error = failure(() => applyJsonPatchPart({ a: 1 }, patch([op])));
        expect(error.code).toBe("JSON_PATCH");
        expect(error.details?.operation).toBe(0);
        cases++;
      }
      expectPristine();
    }
    tally("pollution", cases + names.length);
  });

  it("gives lists no length and no members, and reads indexes as jsonpointer does", () => {
    const base = { l: [10, 20, 30] };
    const refused = [
      "length",
      "constructor",
      "push",
      "__proto__",
      "+1",
      "-1",
      " 1",
      "1 ",
      "1e0",
      "0x1",
      "1.0",
    ];
    for (const part of refused) {
      expect(
        failure(() => applyJsonPatchPart(base, patch([{ op: "test", path: `/l/${part}`, value: 3 }]))).code,
      ).toBe("JSON_PATCH");
      expect(
        failure(() => applyJsonPatchPart(base, patch([{ op: "add", path: `/l/${part}`, value: 3 }]))).code,
      ).toBe("JSON_PATCH");
    }
    // The library's pattern accepts anything that starts with 0, and Python's int() then reads it.
    const read = (part: string) =>
      applyJsonPatchPart(base, patch([{ op: "replace", path: `/l/${part}`, value: 0 }])) as { l: number[] };
    expect(read("01").l).toEqual([10, 0, 30]);
    expect(read("002").l).toEqual([10, 20, 0]);
    expect(read("0_1").l).toEqual([10, 0, 30]);
    expect(read("1\n").l).toEqual([10, 0, 30]);
    expect(read("0\u0661").l).toEqual([10, 0, 30]);
    expect(failure(() => read("3")).code).toBe("JSON_PATCH");
    expect(failure(() => read("-")).code).toBe("JSON_PATCH");
    const appended = applyJsonPatchPart(base, patch([{ op: "add", path: "/l/-", value: 40 }])) as {
      l: number[];
    };
    expect(appended.l).toEqual([10, 20, 30, 40]);
    tally("pollution", refused.length * 2 + 7);
  });

  it("knows only the six operations of RFC 6902", () => {
    for (const op of ["_get", "get", "ADD", "merge", "", "__proto__", "constructor"]) {
      const error = failure(() => applyJsonPatchPart({ a: 1 }, patch([{ op, path: "/a" }])));
      expect(error.code).toBe("JSON_PATCH");
      expect(error.details).toMatchObject({ operation: 0, reason: "invalid" });
    }
    tally("pollution", 7);
  });

  it("addresses the string key of a mapping, never its int key of the same digits, as Python does", () => {
    const ports = new PyDict([[8080, "a"]]);
    const base = new PyDict([["ports", ports]]);
    const added = applyJsonPatchPart(base, patch([{ op: "add", path: "/ports/8080", value: "b" }]), {
      values: "exact",
    }) as PyDict;
    expect([...(added.get("ports") as PyDict).entries()]).toEqual([
      [8080, "a"],
      ["8080", "b"],
    ]);
    expect(failure(() => applyJsonPatchPart(base, patch([{ op: "remove", path: "/ports/8080" }]))).code).toBe(
      "JSON_PATCH",
    );
    expect([...ports.entries()]).toEqual([[8080, "a"]]);
    tally("pollution", 2);
  });

  it("tests with Python's == (1 == 1.0 == true, mappings in any order, NaN never equal)", () => {
    const ok = (value: unknown, ops: unknown[]) =>
      expect(() => applyJsonPatchPart(value, patch(ops))).not.toThrow();
    ok({ n: 1 }, [{ op: "test", path: "/n", value: true }]);
    expect(() =>
      applyJsonPatchPart({ n: 1 }, '#cloud-config-jsonp\n[{"op": "test", "path": "/n", "value": 1.0}]'),
    ).not.toThrow();
    ok({ m: { a: 1, b: [1, 2] } }, [{ op: "test", path: "/m", value: { b: [1, 2], a: true } }]);
    const nan = failure(() =>
      applyJsonPatchPart(
        { n: Number.NaN },
        '#cloud-config-jsonp\n[{"op": "test", "path": "/n", "value": NaN}]',
      ),
    );
    expect(nan.details).toMatchObject({ operation: 0, reason: "test" });
    tally("pollution", 4);
  });
});

describe("JSON patch failures are coded errors naming the operation", () => {
  it("names the failing operation among several, and applies nothing of the patch", () => {
    const base = { a: 1, l: [1] };
    const error = failure(() =>
      applyJsonPatchPart(
        base,
        patch([
          { op: "add", path: "/b", value: 2 },
          { op: "remove", path: "/l/0" },
          { op: "replace", path: "/missing", value: 3 },
        ]),
        "user-data.json",
      ),
    );
    expect(error.code).toBe("JSON_PATCH");
    expect(error.details).toMatchObject({ operation: 2, op: "replace", reason: "conflict" });
    expect(error.message).toContain("operation 3");
    expect(error.source?.file).toBe("user-data.json");
    expect(base).toEqual({ a: 1, l: [1] });
    tally("size", 1);
  });

  it("refuses anything that is not a list of operations, or not JSON, with JSON_PATCH", () => {
    const texts = [
      "5",
      "null",
      "true",
      '"abc"',
      '{"op": "add"}',
      "[{",
      "[] x",
      "[5]",
      '["op"]',
      "[[]]",
      "[null]",
    ];
    for (const text of texts) {
      const error = failure(() => applyJsonPatchPart({ a: 1 }, `#cloud-config-jsonp\n${text}`));
      expect(error.code).toBe("JSON_PATCH");
    }
    // What Python iterates to nothing is an empty patch.
    for (const text of ["[]", "{}", '""']) {
      expect(applyJsonPatchPart({ a: 1 }, `#cloud-config-jsonp\n${text}`)).toEqual({ a: 1 });
    }
    tally("size", texts.length + 3);
  });

  it("applies a patch to a 10^5-deep value with a coded error, never a RangeError", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = { k: deep };
    const error = failure(() => applyJsonPatchPart({ deep }, patch([{ op: "add", path: "/x", value: 1 }])));
    expect(error.code).toBe("DEPTH_LIMIT");
    let list: unknown = [];
    for (let i = 0; i < 100_000; i++) list = [list];
    expect(failure(() => applyJsonPatchPart({ list }, patch([]))).code).toBe("DEPTH_LIMIT");
    // A 10^5-deep patch value.
    const text = `#cloud-config-jsonp\n[{"op": "add", "path": "/x", "value": ${"[".repeat(100_000)}${"]".repeat(100_000)}}]`;
    expect(failure(() => applyJsonPatchPart({ a: 1 }, text)).code).toBe("JSON_PATCH");
    tally("size", 3);
  });

  it("rejects the part in mergeCloudConfig and keeps merging", () => {
    const result = mergeCloudConfig([
      "#cloud-config\na: 1\n",
      patch([{ op: "_get", path: "/a" }]),
      patch([{ op: "add", path: "/constructor", value: { prototype: { isAdmin: true } } }]),
      "#cloud-config\nb: 2\n",
    ]);
    expect(result.parts.map((p) => p.status)).toEqual(["merged", "rejected", "merged", "merged"]);
    expect(result.errors[0]?.code).toBe("JSON_PATCH");
    expect(result.value).toEqual({ a: 1, constructor: { prototype: { isAdmin: true } }, b: 2 });
    expectPristine();
    tally("pollution", 1);
  });
});

describe("properties of arbitrary patches", () => {
  const segment = fc.constantFrom(
    "a",
    "l",
    "0",
    "1",
    "-",
    "01",
    "length",
    "constructor",
    "__proto__",
    "toString",
    "",
    "~0",
    "~1",
    "~2",
    "x",
  );
  const pointer = fc.oneof(
    fc.array(segment, { maxLength: 3 }).map((parts) => parts.map((p) => `/${p}`).join("")),
    fc.constantFrom("", "a", 5, null),
  );
  const value = fc.jsonValue({ maxDepth: 2 });
  const op = fc.record(
    {
      op: fc.constantFrom("add", "remove", "replace", "move", "copy", "test", "_get", "ADD"),
      path: pointer,
      from: pointer,
      value,
    },
    { requiredKeys: [] },
  );

  it("change no input, fail only with coded errors, and leave prototypes alone", () => {
    const runs = 2000;
    fc.assert(
      fc.property(fc.array(op, { maxLength: 4 }), (ops) => {
        const base = { a: { b: 1 }, l: [1, { c: [2] }], s: "text" };
        const before = JSON.stringify(base);
        try {
          const result = applyJsonPatchPart(base, patch(ops));
          expect(result).not.toBe(base);
        } catch (error) {
          if (!isMergeError(error)) throw error;
          expect(error.code).toBe("JSON_PATCH");
          expect(typeof error.details?.operation).toBe("number");
        }
        expect(JSON.stringify(base)).toBe(before);
        expectPristine();
      }),
      { numRuns: runs },
    );
    tally("property", runs);
  });
});
