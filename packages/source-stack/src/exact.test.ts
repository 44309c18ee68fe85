import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { isPlainObject, PyDict, PyFloat, toExact } from "@merge/core";
import { describe, expect, it } from "vitest";
import { catchMergeError as failure } from "../../../test-kit/errors.js";
import { loadStackBatch } from "./batch.js";
import { createStackLoader, loadStack } from "./loader.js";
import { createMemoryFileSystem } from "./memory-files.js";
import { NOT_FOUND, traverse } from "./traverse.js";
import { fromWire, toWire } from "./wire.js";

const exactDir = fileURLToPath(new URL("../test/fixtures/exact/", import.meta.url));
const batchSetup = fileURLToPath(new URL("../test/fixtures/batch/setup.mjs", import.meta.url));
// Recorded by test/fixtures/exact/oracle.py from the real Jinja2 and PyYAML, in the tagged form of ./wire.ts.
const oracle = JSON.parse(readFileSync(`${exactDir}expected.json`, "utf8")) as {
  minionId: string;
  pillar: unknown;
};

/** A stack kept in memory: `stack.cfg` lists the files in the order given. */
function memoryStack(files: Record<string, string>) {
  const tree = { "stack.cfg": Object.keys(files).join("\n"), ...files };
  return { config: "stack.cfg", cwd: "/srv", files: createMemoryFileSystem(tree, "/srv") };
}

describe('values: "exact"', () => {
  it("gives the pillar real Jinja2 + PyYAML give: whole floats, int keys, key order, typed template results", () => {
    const result = loadStack({
      config: "stack.cfg",
      cwd: exactDir,
      minionId: oracle.minionId,
      values: "exact",
    });
    expect(result.data).toBeInstanceOf(PyDict);
    // The tagged form names every PyDict, list and whole float, with keys in order: equal forms are equal values.
    expect(toWire(result.data)).toEqual(oracle.pillar);
    expect(result.data.get("version")).toEqual(new PyFloat(9));
    expect(result.data.get("datadir")).toBe("/etc/postgresql/9.0/main");
    expect(result.warnings).toEqual([]);
  });

  it("computes exactly but gives plain data by default: plain objects and numbers (toPlain of the exact result)", () => {
    const { data } = loadStack({ config: "stack.cfg", cwd: exactDir, minionId: "db-1" });
    expect(isPlainObject(data)).toBe(true);
    expect(data.version).toBe(9);
    expect(data.ports).toEqual({ 443: "b", 8080: "a" });
    // the templates computed on the exact values, as Salt's do
    expect(data.datadir).toBe("/etc/postgresql/9.0/main");
    expect(data.port_list).toEqual([8080, 443]);
    expect(data.has_8080).toBe(true);
    expect(data.order_keys).toBe("10,9,B");
    expect(data.json).toBe("9.0");
  });

  it("gives templates pillar, grains and opts as PyDicts with the caller's keys", () => {
    const data = loadStack({
      ...memoryStack({
        "a.yml": [
          "ratio: {{ pillar.ratio / 2 }}",
          "os: {{ __grains__.os }}",
          "opt: {{ __opts__['x'] }}",
          "n: {{ stack.n }}",
        ].join("\n"),
      }),
      minionId: "m",
      pillar: { ratio: 3 },
      grains: { os: "Debian" },
      opts: { x: 1 },
      values: "exact",
    });
    expect(data.data.get("ratio")).toBe(1.5);
    expect(data.data.get("os")).toBe("Debian");
    expect(data.data.get("opt")).toBe(1);
    expect(data.data.get("n")).toBe(null);
  });

  it("makes |json of a mapping with int and str keys a coded error, as Salt's sorted() fails", () => {
    const stack = memoryStack({
      "a.yml": "mixed: {1: a, b: c}\n",
      "b.yml": "text: '{{ stack.mixed|json }}'\n",
    });
    const error = failure(() => loadStack({ ...stack, minionId: "m", values: "exact" }));
    expect(error.code).toBe("TEMPLATE_RENDER");
    expect(error.message).toContain("'<' not supported between instances of 'str' and 'int'");
  });

  it("merges later files into the first file's keys in their places, and new keys after them", () => {
    const stack = memoryStack({
      "a.yml": "m: {'10': 1, '9': 2}\n",
      "b.yml": "m: {B: 3, '10': 4, 1: int}\n",
    });
    const { data } = loadStack({ ...stack, minionId: "m", values: "exact" });
    const m = data.get("m") as PyDict;
    expect(m.keyList()).toEqual(["10", "9", "B", 1]);
    expect(m.get("10")).toBe(4);
  });

  it("refuses a stack that contains itself (STACK_CYCLE) with the key path", () => {
    const stack = memoryStack({ "a.yml": "{% do stack.update({'self': stack}) %}a: 1\n" });
    const error = failure(() => loadStack({ ...stack, minionId: "m", values: "exact" }));
    expect(error.code).toBe("STACK_CYCLE");
    expect(error.keys).toEqual(["self"]);
  });

  it("keeps grains opaque in config templates: a hostile grain cannot leave the stack directory", () => {
    const tree = {
      "stack.cfg": "roles/{{ __grains__['role'] }}.yml\n",
      "roles/web.yml": "role: web\n",
      "secret.yml": "secret: 1\n",
    };
    const files = createMemoryFileSystem(tree, "/srv");
    const load = (role: string) =>
      loadStack({
        config: "stack.cfg",
        cwd: "/srv",
        files,
        minionId: "m",
        grains: { role },
        values: "exact",
      });
    expect(load("web").data.get("role")).toBe("web");
    const hostile = load("../secret");
    expect(hostile.files).toEqual([]);
    expect(hostile.warnings.map((w) => w.code)).toEqual(["STACK_NO_MATCH"]);
  });

  it("refuses a values option it does not know (STACK_CONFIG)", () => {
    const error = failure(() => createStackLoader({ config: "x", values: "python" as never }));
    expect(error.code).toBe("STACK_CONFIG");
    expect(error.message).toBe('unknown values "python"; use plain or exact');
  });

  it("hands PyDicts and PyFloats over from worker threads intact", async () => {
    const hosts = ["db-1", "db-2", "db-3", "db-4"].map((minionId) => ({ minionId }));
    const options = { config: "stack.cfg", cwd: exactDir, values: "exact" as const };
    const threaded = await loadStackBatch(hosts, { ...options, workers: 2 });
    const inThread = await loadStackBatch(hosts, { ...options, workers: 1 });
    expect(threaded.map((entry) => entry.ok)).toEqual([true, true, true, true]);
    for (const [i, entry] of threaded.entries()) {
      if (!entry.ok || !inThread[i]!.ok) throw new Error("a host failed");
      const data = entry.result.data;
      expect(data).toBeInstanceOf(PyDict);
      expect(data.get("version")).toBeInstanceOf(PyFloat);
      expect((data.get("ports") as PyDict).keyList()).toEqual([8080, 443]);
      expect(toWire(data)).toEqual(toWire(inThread[i]!.ok ? inThread[i]!.result.data : undefined));
    }
    expect(threaded[0]!.ok && toWire(threaded[0]!.result.data)).toEqual(oracle.pillar);
  });

  it("keeps plain batches plain", async () => {
    const entries = await loadStackBatch([{ minionId: "a" }, { minionId: "b" }], {
      config: "test/fixtures/batch/stack.cfg",
      setupModule: batchSetup,
      workers: 2,
    });
    expect(entries.map((entry) => entry.ok && isPlainObject(entry.result.data))).toEqual([true, true]);
  });
});

describe("the tagged form results cross threads in", () => {
  it("gives back the value: PyDict keys with their types and order, PyFloats, lists, plain objects, sharing", () => {
    const shared = new PyDict([["x", new PyFloat(1)]]);
    const plain = JSON.parse('{"__proto__": "data"}') as Record<string, unknown>;
    plain.n = 1n;
    const value = new PyDict<unknown>([
      [8080, [shared, shared]],
      ["8080", plain],
      [true, null],
      [null, 1.5],
      [new PyFloat(2), "two"],
    ]);
    const back = fromWire(structuredClone(toWire(value))) as PyDict;
    expect(back).toBeInstanceOf(PyDict);
    expect(back.keyList()).toEqual([8080, "8080", true, null, new PyFloat(2)]);
    const list = back.get(8080) as PyDict[];
    expect(list[0]).toBe(list[1]);
    expect(list[0]!.get("x")).toEqual(new PyFloat(1));
    const object = back.get("8080") as Record<string, unknown>;
    expect(Object.keys(object)).toEqual(["__proto__", "n"]);
    expect(Object.getOwnPropertyDescriptor(object, "__proto__")?.value).toBe("data");
    expect(object.n).toBe(1n);
    expect(Object.getPrototypeOf(object)).toBe(Object.prototype);
    expect(back.get(null)).toBe(1.5);
  });
});

describe("traverse on PyDicts", () => {
  it("finds int keys from path text, and dicts inside lists by an int step, as Salt's traverse_dict_and_list", () => {
    const data = toExact({ ports: {} }) as PyDict;
    data.set("ports", new PyDict([[8080, "a"]]));
    data.set("list", [new PyDict([[0, "zero"]]), "x"]);
    expect(traverse(data, "ports:8080")).toBe("a");
    expect(traverse(data, "ports:'8080'")).toBe(NOT_FOUND);
    expect(traverse(data, "list:0")).toBe("zero");
    expect(traverse(data, "list:1")).toBe("x");
    expect(traverse(data, "missing")).toBe(NOT_FOUND);
  });
});
