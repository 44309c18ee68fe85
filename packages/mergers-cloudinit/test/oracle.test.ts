import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createCloudInitRegistry, formatCloudConfig, mergeCloudConfig, mergeUserData } from "../src/index.js";
import { decodeTyped, encodeTyped, type Typed } from "./oracle/typed.js";

// Cases made by test/oracle/generate.mjs and run through a real cloud-init (its version is in the file). Values are
// typed JSON (test/oracle/typed.py): ints and floats, key types and key order are compared exactly.
interface OracleCase {
  readonly kind: "values" | "parts" | "userdata" | "yaml";
  /** Names the example of issue 12 a hand-written case reproduces. */
  readonly note?: string;
  readonly spec?: string;
  readonly base?: Typed;
  readonly incoming?: Typed;
  readonly parts?: { text: string; name?: string; headers?: [string, string][] }[];
  readonly raw?: string;
  readonly expected: { value?: Typed; error?: string; names?: string[]; written?: string };
}
const fixture = JSON.parse(
  readFileSync(new URL("./fixtures/cloud-init-oracle.json", import.meta.url), "utf8"),
) as {
  cloudInit: string;
  cases: OracleCase[];
};
// Nearly two thousand cases: generous, as CI machines are shared.
const TIMEOUT = 180_000;

/** The cases of a kind that disagree with cloud-init, described; an empty list when all agree. */
type Check = (c: OracleCase) => Promise<string | undefined> | string | undefined;
async function disagreements(kind: OracleCase["kind"] | "any", check: Check): Promise<string[]> {
  const out: string[] = [];
  let compared = 0;
  for (const c of fixture.cases) {
    if (kind !== "any" && c.kind !== kind) continue;
    compared++;
    const problem = await check(c);
    if (problem !== undefined) out.push(`${problem}\n  case: ${JSON.stringify(c.parts ?? c.raw ?? c.spec)}`);
  }
  expect(compared).toBeGreaterThan(100);
  return out;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

describe(`agreement with cloud-init ${fixture.cloudInit}`, () => {
  const registry = createCloudInitRegistry();
  it("holds a case for each example of issue 12, with cloud-init's answer", () => {
    const byNote = new Map(fixture.cases.filter((c) => c.note !== undefined).map((c) => [c.note, c]));
    expect(byNote.get("list(append) of {'k': 1, '10': 2} gives ['k', '10']")?.expected.value).toEqual([
      "k",
      "10",
    ]);
    expect(byNote.get("a YAML key 00 appended to a list gives the int 0")?.expected.value).toEqual({
      $dict: [["runcmd", ["a", 0]]],
    });
    expect(byNote.get("whole floats stay floats")?.expected.written).toContain("version: 9.0\n");
    expect(byNote.size).toBe(8);
  });
  it(
    "merges values like cloud-init's mergers (types, key order), and fails where they raise",
    async () => {
      const problems = await disagreements("values", (c) => {
        const base = decodeTyped(c.base);
        const incoming = decodeTyped(c.incoming);
        let got: Typed;
        try {
          got = encodeTyped(registry.resolve(c.spec!, { lenient: true }).merge(base, incoming));
        } catch (error) {
          const code = (error as { code?: string }).code;
          return c.expected.error !== undefined && code === "MERGE_TYPE"
            ? undefined
            : `${c.spec}: threw ${code}, cloud-init gave ${JSON.stringify(c.expected.value)}`;
        }
        if (c.expected.error !== undefined)
          return `${c.spec}: no error where cloud-init raised ${c.expected.error}`;
        return same(got, c.expected.value)
          ? undefined
          : `${c.spec}: ${JSON.stringify(got)} where cloud-init gave ${JSON.stringify(c.expected.value)}`;
      });
      expect(problems).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    "merges cloud-config parts like cloud-init's handler (values in the exact model)",
    async () => {
      const problems = await disagreements("parts", (c) => {
        const result = mergeCloudConfig(c.parts!, { values: "exact" });
        const got = encodeTyped(result.value);
        if (!same(got, c.expected.value)) {
          return `value ${JSON.stringify(got)} where cloud-init has ${JSON.stringify(c.expected.value)}`;
        }
        return same(result.merged, c.expected.names) ? undefined : `merged ${JSON.stringify(result.merged)}`;
      });
      expect(problems).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    "reads YAML 1.1 parts (booleans, octals, timestamps, binary, merge keys, aliases) as cloud-init does",
    async () => {
      const problems = await disagreements("yaml", (c) => {
        const result = mergeCloudConfig(c.parts!, { values: "exact" });
        const got = encodeTyped(result.value);
        if (!same(got, c.expected.value)) {
          return `value ${JSON.stringify(got)} where cloud-init has ${JSON.stringify(c.expected.value)}`;
        }
        return same(result.merged, c.expected.names) ? undefined : `merged ${JSON.stringify(result.merged)}`;
      });
      expect(problems).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    "takes MIME user-data apart like cloud-init's user-data processor",
    async () => {
      const problems = await disagreements("userdata", async (c) => {
        const result = await mergeUserData(c.raw!, { values: "exact" });
        const got = encodeTyped(result.value);
        if (!same(got, c.expected.value)) {
          return `value ${JSON.stringify(got)} where cloud-init has ${JSON.stringify(c.expected.value)}`;
        }
        return same(result.merged, c.expected.names) ? undefined : `merged ${JSON.stringify(result.merged)}`;
      });
      expect(problems).toEqual([]);
    },
    TIMEOUT,
  );
});

describe(`written output agrees with cloud-init ${fixture.cloudInit}`, () => {
  it(
    "writes cloud-config.txt as cloud-init's handler does, whichever values the result was made with",
    async () => {
      const problems = await disagreements("any", async (c) => {
        if (c.kind === "values") return undefined;
        for (const values of ["plain", "exact"] as const) {
          const result =
            c.kind === "userdata"
              ? await mergeUserData(c.raw!, { values })
              : mergeCloudConfig(c.parts!, { values });
          const written = formatCloudConfig(result);
          if (written !== c.expected.written) {
            return `values: ${values} wrote ${JSON.stringify(written)}\n  cloud-init: ${JSON.stringify(c.expected.written)}`;
          }
        }
        return undefined;
      });
      expect(problems).toEqual([]);
    },
    TIMEOUT,
  );
});
