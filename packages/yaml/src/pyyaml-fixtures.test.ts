import { readFileSync } from "node:fs";
import { isMergeError, PyDict, PyFloat, pyFloatRepr } from "@merge/core";
import { describe, expect, it } from "vitest";
import { type DumpYamlOptions, dumpYaml } from "./dump.js";
import { loadYaml } from "./load.js";
import type { YamlFlavor } from "./scalars.js";
import { YamlTimestamp } from "./timestamp.js";

type Typed = unknown;

function fixture<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(`../test/fixtures/${name}`, import.meta.url), "utf8")) as T;
}

const MIN = BigInt(Number.MIN_SAFE_INTEGER);
const MAX = BigInt(Number.MAX_SAFE_INTEGER);

/** The typed JSON form of the fixtures turned into the JavaScript values the loader returns. */
function build(d: Typed): unknown {
  if (Array.isArray(d)) return d.map(build);
  if (d === null || typeof d !== "object") return d;
  const o = d as Record<string, unknown>;
  if ("$int" in o) {
    const big = BigInt(o.$int as string);
    return big >= MIN && big <= MAX ? Number(big) : big;
  }
  if ("$float" in o) {
    const f = o.$float as string;
    return f === "nan" ? Number.NaN : f === "inf" ? Infinity : f === "-inf" ? -Infinity : Number(f);
  }
  if ("$map" in o) {
    const entries = (o.$map as [Typed, Typed][]).map(([k, v]): [unknown, unknown] => [build(k), build(v)]);
    return entries.every(([k]) => typeof k === "string") ? Object.fromEntries(entries) : new Map(entries);
  }
  if ("$set" in o) return new Set((o.$set as Typed[]).map(build));
  if ("$bytes" in o) return new Uint8Array(Buffer.from(o.$bytes as string, "base64"));
  if ("$date" in o) return loadYaml(o.$date as string);
  if ("$datetime" in o) return loadYaml(o.$datetime as string);
  throw new Error(`unknown fixture form ${JSON.stringify(d)}`);
}

/** A loaded value (exact model) in a comparable form: ints and floats apart, floats by Python's repr. */
function canon(v: unknown): unknown {
  if (v === null || typeof v === "boolean" || typeof v === "string") return v;
  if (typeof v === "bigint") return { $int: String(v) };
  if (typeof v === "number") return Number.isInteger(v) ? { $int: String(v) } : { $float: pyFloatRepr(v) };
  if (v instanceof PyFloat) return { $float: pyFloatRepr(v.value) };
  if (v instanceof YamlTimestamp) {
    return v.kind === "date" ? { $date: v.toPythonIsoformat() } : { $datetime: v.toPythonIsoformat(" ") };
  }
  if (v instanceof Uint8Array) return { $bytes: Buffer.from(v).toString("base64") };
  if (Array.isArray(v)) return v.map(canon);
  if (v instanceof Set) return { $set: [...v].map((x) => JSON.stringify(canon(x))).sort() };
  if (v instanceof PyDict) return { $map: [...v].map(([k, x]) => [canon(k), canon(x)]) };
  throw new Error("unexpected value");
}

/** The same comparable form from the fixture's typed JSON. */
function canonExpected(d: Typed): unknown {
  if (Array.isArray(d)) return d.map(canonExpected);
  if (d === null || typeof d !== "object") return d;
  const o = d as Record<string, unknown>;
  if ("$int" in o) return { $int: String(BigInt(o.$int as string)) };
  if ("$float" in o) {
    const f = o.$float as string;
    return { $float: f === "nan" || f === "inf" || f === "-inf" ? f : pyFloatRepr(Number(f)) };
  }
  if ("$map" in o)
    return { $map: (o.$map as [Typed, Typed][]).map(([k, v]) => [canonExpected(k), canonExpected(v)]) };
  if ("$set" in o)
    return { $set: (o.$set as string[]).map((s) => JSON.stringify(canonExpected(JSON.parse(s)))).sort() };
  return d;
}

interface LoadRow {
  text: string;
  pyyaml: Typed;
  salt: Typed;
}

describe("loading agrees with PyYAML and Salt's loader (recorded outputs)", () => {
  const rows = fixture<LoadRow[]>("pyyaml-load.json");
  for (const flavor of ["pyyaml", "salt"] as YamlFlavor[]) {
    it(`reads ${rows.length} documents as ${flavor === "pyyaml" ? "yaml.safe_load" : "SaltYamlSafeLoader"} does`, () => {
      const failures: string[] = [];
      for (const row of rows) {
        const expected = row[flavor] as { $error?: string } | null;
        let got: unknown;
        try {
          got = canon(loadYaml(row.text, { flavor, values: "exact" }));
        } catch (error) {
          if (!isMergeError(error)) throw error;
          got = { $error: error.code };
        }
        const wantError = expected !== null && typeof expected === "object" && "$error" in expected;
        const gotError = got !== null && typeof got === "object" && "$error" in (got as object);
        if (wantError ? !gotError : JSON.stringify(got) !== JSON.stringify(canonExpected(expected))) {
          failures.push(`${JSON.stringify(row.text)} → ${JSON.stringify(got)}`);
        }
      }
      expect(failures).toEqual([]);
    });
  }
});

const CONFIGS: Record<string, DumpYamlOptions> = {
  pyyaml: {},
  "pyyaml-flow": { style: "flow" },
  "pyyaml-auto": { style: "auto" },
  "pyyaml-w30": { style: "auto", width: 30, indent: 3 },
  "cloud-init": { preset: "cloud-init" },
  salt: { preset: "salt" },
  "salt-auto": { preset: "salt", style: "auto" },
  "salt-block": { preset: "salt", style: "block" },
};

describe("dumping agrees with PyYAML's and libyaml's emitters (recorded outputs)", () => {
  const rows = fixture<{ value: Typed; expected: Record<string, string> }[]>("pyyaml-dump.json");
  for (const [name, options] of Object.entries(CONFIGS)) {
    it(`writes ${rows.length} values as ${name} does`, () => {
      const failures: string[] = [];
      for (const row of rows) {
        const expected = row.expected[name];
        if (typeof expected !== "string") continue;
        const got = dumpYaml(build(row.value), options);
        if (got !== expected)
          failures.push(`${JSON.stringify(row.value)}: ${JSON.stringify(got)} ≠ ${JSON.stringify(expected)}`);
      }
      expect(failures).toEqual([]);
    });
  }
});
