import { existsSync, readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { MergeError, type PathKey, type SourcePosition } from "@merge/core";
import { draft4Problems, type SchemaProblem } from "./draft4.js";

/** Where cloud-init keeps its schema, below a Python `dist-packages` / `site-packages` directory. */
const SCHEMA_IN_PACKAGE = join("cloudinit", "config", "schemas", "schema-cloud-config-v1.json");

/**
 * The places `findCloudInitSchema` looks, in order: `$CLOUD_INIT_SCHEMA` (a schema file), then
 * `$CLOUD_INIT_ROOT` (a directory cloud-init's package was unpacked into with `dpkg -x`), then the Python
 * directories of an installed cloud-init (`/usr/lib/python3/dist-packages`, `/usr/lib/python3.*` and
 * `/usr/local/lib/python3.*` `site-packages` / `dist-packages`).
 */
export function cloudInitSchemaCandidates(
  env: Readonly<Record<string, string | undefined>> = process.env,
): string[] {
  const out: string[] = [];
  if (env.CLOUD_INIT_SCHEMA) out.push(env.CLOUD_INIT_SCHEMA);
  const roots = env.CLOUD_INIT_ROOT ? [env.CLOUD_INIT_ROOT, "/"] : ["/"];
  for (const root of roots) {
    out.push(join(root, "usr", "lib", "python3", "dist-packages", SCHEMA_IN_PACKAGE));
    for (const lib of [join(root, "usr", "lib"), join(root, "usr", "local", "lib")]) {
      let names: string[] = [];
      try {
        names = readdirSync(lib).filter((name) => /^python3(\.\d+)?$/.test(name));
      } catch {
        continue;
      }
      for (const name of names.sort()) {
        for (const sub of ["dist-packages", "site-packages"])
          out.push(join(lib, name, sub, SCHEMA_IN_PACKAGE));
      }
    }
  }
  return [...new Set(out)];
}

/** The schema file of the installed (or unpacked) cloud-init, or undefined when there is none. */
export function findCloudInitSchema(
  env: Readonly<Record<string, string | undefined>> = process.env,
): string | undefined {
  return cloudInitSchemaCandidates(env).find((path) => existsSync(path));
}

/** Reads a JSON Schema file; `SCHEMA_LOAD` when it cannot be read or is not a JSON object. */
export async function loadSchema(file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (cause) {
    throw new MergeError(
      "SCHEMA_LOAD",
      `cannot read the schema ${file}: ${(cause as { code?: string }).code ?? cause}`,
      {
        source: { file },
        cause,
      },
    );
  }
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (cause) {
    throw new MergeError("SCHEMA_LOAD", `the schema ${file} is not JSON: ${(cause as Error).message}`, {
      source: { file },
      cause,
    });
  }
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    throw new MergeError("SCHEMA_LOAD", `the schema ${file} is not a JSON object`, { source: { file } });
  }
  return schema as Record<string, unknown>;
}

export interface ValidateOptions {
  /** The JSON Schema (draft 4, as cloud-init's), already loaded (`loadSchema`). */
  readonly schema: Record<string, unknown>;
  /** Names the schema in errors about the schema itself. */
  readonly schemaFile?: string;
  /**
   * Where the value at a key path came from (file, line, column, part): each problem's `source`. With the
   * provenance `--explain` records this names the part or file to blame.
   */
  readonly locate?: (path: readonly PathKey[]) => SourcePosition | undefined;
}

/** The result of validating a configuration. */
export interface ValidationResult {
  readonly valid: boolean;
  /** One `SCHEMA_VALIDATION` error per problem, with the key path and (through `locate`) where the value came from. */
  readonly errors: readonly MergeError[];
  /** Keys the schema marks `deprecated` that the configuration uses (`SCHEMA_DEPRECATED`); they do not fail it. */
  readonly deprecations: readonly MergeError[];
}

/**
 * Validates a configuration (exact or plain values) against cloud-init's JSON Schema as `cloud-init schema` does with
 * jsonschema's `Draft4Validator` (see draft4.ts): every problem, sorted by key path, in jsonschema's words without the
 * offending value; binary values count as strings; the `date` and `uri` formats are checked; `deprecated` marks give
 * deprecations, not errors, where cloud-init reports them. The schema is compiled by ajv first: one that does not
 * compile is `SCHEMA_LOAD`.
 */
export async function validateCloudConfig(
  value: unknown,
  options: ValidateOptions,
): Promise<ValidationResult> {
  const [{ default: Ajv04 }, { fullFormats }, { pyRepr }] = await Promise.all([
    import("ajv-draft-04"),
    import("ajv-formats/dist/formats.js"),
    import("@merge/jinja"),
  ]);
  // ajv only checks that the schema is one: jsonschema would fail on a broken one too.
  const ajv = new Ajv04({ strict: false, validateSchema: false, logger: false, validateFormats: false });
  ajv.addKeyword({ keyword: "deprecated", schemaType: "boolean" });
  ajv.addKeyword({ keyword: "label", schemaType: "string" });
  try {
    ajv.compile(options.schema);
  } catch (cause) {
    throw new MergeError(
      "SCHEMA_LOAD",
      `the schema${options.schemaFile === undefined ? "" : ` ${options.schemaFile}`} does not compile: ${(cause as Error).message}`,
      { source: options.schemaFile === undefined ? undefined : { file: options.schemaFile }, cause },
    );
  }
  const uri = fullFormats.uri as (text: string) => boolean;
  const problems = draft4Problems(options.schema, value, { repr: pyRepr, isUri: (text) => uri(text) });
  const asError = (problem: SchemaProblem) =>
    new MergeError(
      problem.deprecation ? "SCHEMA_DEPRECATED" : "SCHEMA_VALIDATION",
      problem.path.length === 0 ? `the configuration ${problem.message}` : problem.message,
      { path: problem.path, source: options.locate?.(problem.path) },
    );
  const errors = problems.filter((problem) => !problem.deprecation);
  return {
    valid: errors.length === 0,
    errors: errors.map(asError),
    deprecations: problems.filter((problem) => problem.deprecation).map(asError),
  };
}
