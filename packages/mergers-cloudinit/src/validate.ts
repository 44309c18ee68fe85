import { existsSync, readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  getItem,
  isMapping,
  isPyFloat,
  MergeError,
  mappingKeys,
  numberValue,
  type PathKey,
  type SourcePosition,
  setKey,
} from "@merge/core";

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
 * Validates a configuration (exact or plain values) against cloud-init's JSON Schema with ajv's draft-04 validator,
 * as `cloud-init schema` validates with jsonschema's `Draft4Validator`: every problem is reported, sorted by key path,
 * binary values count as strings, the `date` and `uri` formats are checked, and the schema's `deprecated` marks give
 * deprecations, not errors. The schema is checked first: one that does not compile is `SCHEMA_LOAD`.
 */
export async function validateCloudConfig(
  value: unknown,
  options: ValidateOptions,
): Promise<ValidationResult> {
  const [{ default: Ajv04 }, { default: addFormats }] = await Promise.all([
    import("ajv-draft-04"),
    import("ajv-formats"),
  ]);
  // jsonschema checks `hostname` only with the `fqdn` package, which Debian does not ship; ajv must not log either.
  const ajv = new Ajv04({
    allErrors: true,
    strict: false,
    validateSchema: false,
    logger: false,
    formats: { hostname: true },
  });
  (addFormats as unknown as (a: unknown, f: string[]) => void)(ajv, ["date", "uri"]);
  const deprecated: { path: PathKey[]; message: string }[] = [];
  ajv.addKeyword({
    keyword: "deprecated",
    schemaType: "boolean",
    errors: false,
    validate(
      this: unknown,
      flag: boolean,
      _data: unknown,
      parent: unknown,
      context?: { instancePath?: string },
    ) {
      if (flag) {
        const description = (parent as { description?: unknown })?.description;
        deprecated.push({
          path: pointerPath(context?.instancePath ?? "", value),
          message:
            typeof description === "string" && description !== ""
              ? `DEPRECATED: ${description}`
              : "DEPRECATED.",
        });
      }
      return true;
    },
  });
  ajv.addKeyword({ keyword: "label", schemaType: "string" });
  let validate: ReturnType<typeof ajv.compile>;
  try {
    validate = ajv.compile(options.schema);
  } catch (cause) {
    throw new MergeError(
      "SCHEMA_LOAD",
      `the schema${options.schemaFile === undefined ? "" : ` ${options.schemaFile}`} does not compile: ${(cause as Error).message}`,
      { source: options.schemaFile === undefined ? undefined : { file: options.schemaFile }, cause },
    );
  }
  const instance = toJsonValue(value);
  const valid = validate(instance) as boolean;
  // jsonschema reports a failed oneOf/anyOf as one error (the branches' errors are its context), as cloud-init prints.
  const all = (validate.errors ?? []) as AjvError[];
  const branches = all.filter((e) => e.keyword === "oneOf" || e.keyword === "anyOf");
  const within = (error: AjvError, branch: AjvError) =>
    error !== branch &&
    (error.instancePath === branch.instancePath || error.instancePath.startsWith(`${branch.instancePath}/`));
  const problems = all
    .filter((error) => !branches.some((branch) => within(error, branch)))
    .map((error) => ({ path: pointerPath(error.instancePath, value), message: messageOf(error) }));
  // A deprecation seen in a branch that did not match is not one (cloud-init keeps those of the matching branch).
  const below = (path: readonly PathKey[], at: readonly PathKey[]) =>
    at.length <= path.length && at.every((key, i) => key === path[i]);
  const kept = (path: readonly PathKey[]) => !problems.some((problem) => below(path, problem.path));
  problems.sort((a, b) => comparePaths(a.path, b.path));
  const asError =
    (code: "SCHEMA_VALIDATION" | "SCHEMA_DEPRECATED") => (problem: { path: PathKey[]; message: string }) =>
      new MergeError(
        code,
        problem.path.length === 0 ? `the configuration ${problem.message}` : problem.message,
        {
          path: problem.path,
          source: options.locate?.(problem.path),
        },
      );
  return {
    valid,
    errors: problems.map(asError("SCHEMA_VALIDATION")),
    deprecations: dedupe(deprecated.filter((item) => kept(item.path))).map(asError("SCHEMA_DEPRECATED")),
  };
}

function dedupe(items: { path: PathKey[]; message: string }[]): { path: PathKey[]; message: string }[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = `${JSON.stringify(item.path)}\0${item.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

interface AjvError {
  readonly instancePath: string;
  readonly schemaPath: string;
  readonly keyword: string;
  readonly message?: string;
  readonly params: Record<string, unknown>;
}

/** A message in the words of Python's jsonschema where the two differ only in form. */
function messageOf(error: AjvError): string {
  const params = error.params;
  switch (error.keyword) {
    case "additionalProperties":
      return `Additional properties are not allowed (${JSON.stringify(params.additionalProperty)} was unexpected)`;
    case "required":
      return `${JSON.stringify(params.missingProperty)} is a required property`;
    case "type":
      return `is not of type ${JSON.stringify(params.type)}`;
    case "enum":
      return `is not one of ${JSON.stringify(params.allowedValues)}`;
    case "oneOf":
      return params.passingSchemas === null || params.passingSchemas === undefined
        ? "is not valid under any of the given schemas"
        : "is valid under more than one of the given schemas";
    case "anyOf":
      return "is not valid under any of the given schemas";
    default:
      return error.message ?? error.keyword;
  }
}

/**
 * `/a/0/b~1c` → `["a", 0, "b/c"]`, read against the configuration: a step into a list is an index, a step into a
 * mapping is the key of that name (which may be an int or other typed key of a `PyDict`).
 */
function pointerPath(pointer: string, root: unknown): PathKey[] {
  if (pointer === "") return [];
  const out: PathKey[] = [];
  let node = root;
  for (const raw of pointer.slice(1).split("/")) {
    const step = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (Array.isArray(node)) {
      out.push(Number(step));
      node = node[Number(step)];
    } else if (isMapping(node)) {
      const key = (mappingKeys(node) as PathKey[]).find((k) => String(k) === step) ?? step;
      out.push(key);
      node = getItem(node, key as string);
    } else {
      out.push(step);
      node = undefined;
    }
  }
  return out;
}

function comparePaths(a: readonly PathKey[], b: readonly PathKey[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = String(a[i]);
    const y = String(b[i]);
    if (x !== y) return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

/** The configuration as JSON Schema sees it: mappings as objects, whole floats as numbers, bytes as strings. */
function toJsonValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toJsonValue);
  if (isMapping(value)) {
    const out: Record<string, unknown> = {};
    for (const key of mappingKeys(value))
      setKey(out, String(key), toJsonValue(getItem(value, key as string)));
    return out;
  }
  if (isPyFloat(value)) return numberValue(value);
  if (typeof value === "bigint") return Number(value);
  if (value instanceof Uint8Array) return Buffer.from(value).toString("latin1");
  return value;
}
