import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createCloudInitRegistry, formatCloudConfig, mergeCloudConfig, mergeUserData } from "../src/index.js";

// Cases made by test/oracle/generate.mjs and run through a real cloud-init (its version is in the file).
interface OracleCase {
  readonly kind: "values" | "parts" | "userdata" | "yaml";
  readonly spec?: string;
  readonly base?: unknown;
  readonly incoming?: unknown;
  readonly parts?: { text: string; name?: string; headers?: [string, string][] }[];
  readonly raw?: string;
  readonly expected: { value?: unknown; error?: string; names?: string[]; written?: string };
}
const fixture = JSON.parse(
  readFileSync(new URL("./fixtures/cloud-init-oracle.json", import.meta.url), "utf8"),
) as {
  cloudInit: string;
  cases: OracleCase[];
};
// JSON carries no key order for integer-like keys either way, so values are compared as JSON round trips.
const plain = (value: unknown) => JSON.parse(JSON.stringify(value ?? null));
// Over a thousand cases: generous, as CI machines are shared.
const TIMEOUT = 120_000;

describe(`agreement with cloud-init ${fixture.cloudInit}`, () => {
  const registry = createCloudInitRegistry();
  it(
    "merges values like cloud-init's mergers, and fails where they raise",
    () => {
      let compared = 0;
      for (const c of fixture.cases.filter((x) => x.kind === "values")) {
        const run = () => registry.resolve(c.spec!, { lenient: true }).merge(c.base, c.incoming);
        if (c.expected.error !== undefined) {
          expect(run, `${c.spec} ${JSON.stringify(c.base)} ${JSON.stringify(c.incoming)}`).toThrow(
            expect.objectContaining({ code: "MERGE_TYPE" }),
          );
        } else {
          expect(plain(run()), `${c.spec} ${JSON.stringify(c.base)} ${JSON.stringify(c.incoming)}`).toEqual(
            c.expected.value,
          );
        }
        compared++;
      }
      expect(compared).toBeGreaterThan(100);
    },
    TIMEOUT,
  );
  it(
    "merges cloud-config parts like cloud-init's handler",
    () => {
      for (const c of fixture.cases.filter((x) => x.kind === "parts")) {
        const result = mergeCloudConfig(c.parts!);
        expect(plain(result.value), JSON.stringify(c.parts)).toEqual(c.expected.value);
        expect(result.merged).toEqual(c.expected.names);
      }
    },
    TIMEOUT,
  );
  it(
    "reads YAML 1.1 parts (booleans, octals, timestamps, binary, merge keys, aliases) as cloud-init does",
    () => {
      // Values hold timestamps and bytes here, so they are compared through the written output below.
      for (const c of fixture.cases.filter((x) => x.kind === "yaml")) {
        expect(mergeCloudConfig(c.parts!).merged).toEqual(c.expected.names);
      }
    },
    TIMEOUT,
  );
  it(
    "takes MIME user-data apart like cloud-init's user-data processor",
    async () => {
      for (const c of fixture.cases.filter((x) => x.kind === "userdata")) {
        const result = await mergeUserData(c.raw!);
        expect(plain(result.value), c.raw).toEqual(c.expected.value);
        expect(result.merged).toEqual(c.expected.names);
      }
    },
    TIMEOUT,
  );
});

describe(`written output agrees with cloud-init ${fixture.cloudInit}`, () => {
  it(
    "writes cloud-config.txt as cloud-init's handler does",
    async () => {
      for (const c of fixture.cases.filter((x) => x.kind !== "values")) {
        const result = c.kind === "userdata" ? await mergeUserData(c.raw!) : mergeCloudConfig(c.parts!);
        expect(formatCloudConfig(result), JSON.stringify(c.parts ?? c.raw)).toBe(c.expected.written);
      }
    },
    TIMEOUT,
  );
});
