// JSON Schema draft 4 as `cloud-init schema` applies it: Python's jsonschema 4.10 with the validator cloud-init builds
// (draft 4's keywords, applied with `create`, so the keywords beside a `$ref` count too; bytes are strings;
// `deprecated` yields a deprecation; `oneOf` / `anyOf` take a branch whose only problems are deprecations as matching
// and report that branch's deprecations). Written here rather than left to ajv, which cannot give cloud-init's answers:
// which deprecations count depends on the branch jsonschema picks, the keywords beside `$ref` are ignored by ajv's
// draft 4, and errors come in jsonschema's order (keywords in the schema's order, then sorted by key path) with one
// error for all unexpected properties of a mapping.
//
// Messages are jsonschema's, without the value it puts first (`'x' is not of type 'integer'` is written
// `is not of type 'integer'`): user-data carries passwords and keys, and a problem names its key path instead.
import {
  getItem,
  hasItem,
  isMapping,
  type Mapping,
  isPyFloat,
  mappingKeys,
  numberValue,
  type PathKey,
} from "@merge/core";
import { isIsoDate } from "./iso-date.js";

export interface SchemaProblem {
  readonly path: PathKey[];
  readonly message: string;
  readonly deprecation: boolean;
}

type Schema = Record<string, unknown>;

export interface Draft4Options {
  /** Python's `repr` for the values of the schema a message quotes (type names, enums, keys). */
  readonly repr: (value: unknown) => string;
  /** The `uri` format check (RFC 3986/3987 `URI`); other formats than `date` and `uri` are not checked. */
  readonly isUri: (text: string) => boolean;
}

/** Every problem of `instance` under `root`, as cloud-init lists them: sorted by key path, deprecations among them. */
export function draft4Problems(root: Schema, instance: unknown, options: Draft4Options): SchemaProblem[] {
  const validator = new Draft4(root, options);
  const problems = [...validator.problems(root, instance, [])];
  // Python's sort is stable, and compares paths step by step (list indexes as numbers).
  return problems
    .map((problem, index) => ({ problem, index }))
    .sort((a, b) => comparePaths(a.problem.path, b.problem.path) || a.index - b.index)
    .map(({ problem }) => problem);
}

class Draft4 {
  private readonly patterns = new Map<string, RegExp>();

  constructor(
    private readonly root: Schema,
    private readonly o: Draft4Options,
  ) {}

  *problems(schema: unknown, instance: unknown, path: PathKey[]): Generator<SchemaProblem> {
    if (!isObject(schema)) return;
    // cloud-init builds its validator with jsonschema's `create`, which keeps the keywords beside a `$ref` (draft 4's
    // own validator would ignore them): every keyword is applied, `$ref` in its place among them.
    for (const [keyword, value] of Object.entries(schema)) {
      yield* this.keyword(keyword, value, schema, instance, path);
    }
  }

  /** cloud-init's `is_valid`: deprecations are not problems here. */
  isValid(schema: unknown, instance: unknown): boolean {
    for (const problem of this.problems(schema, instance, [])) if (!problem.deprecation) return false;
    return true;
  }

  private *keyword(
    keyword: string,
    value: unknown,
    schema: Schema,
    instance: unknown,
    path: PathKey[],
  ): Generator<SchemaProblem> {
    const error = (message: string) => ({ path, message, deprecation: false });
    const repr = this.o.repr;
    switch (keyword) {
      case "$ref":
        if (typeof value === "string") yield* this.problems(this.resolve(value), instance, path);
        return;
      case "deprecated":
        if (value === true)
          yield { path, message: deprecationMessage(schema.description), deprecation: true };
        return;
      case "type": {
        const types = Array.isArray(value) ? value : [value];
        if (!types.some((type) => isType(instance, type))) {
          yield error(
            `is not of type ${types.map((type) => repr(isObject(type) ? type.name : type)).join(", ")}`,
          );
        }
        return;
      }
      case "enum":
        if (Array.isArray(value) && !value.some((each) => pyEqual(instance, each)))
          yield error(`is not one of ${repr(value)}`);
        return;
      case "properties":
        if (!isMapping(instance) || !isObject(value)) return;
        for (const [name, subschema] of Object.entries(value)) {
          if (hasItem(instance, name))
            yield* this.problems(subschema, getItem(instance, name), [...path, name]);
        }
        return;
      case "patternProperties":
        if (!isMapping(instance) || !isObject(value)) return;
        for (const [pattern, subschema] of Object.entries(value)) {
          for (const key of mappingKeys(instance) as PathKey[]) {
            if (this.search(pattern, String(key)))
              yield* this.problems(subschema, getItem(instance, key), [...path, key]);
          }
        }
        return;
      case "additionalProperties": {
        if (!isMapping(instance)) return;
        const extras = this.additionalKeys(instance, schema);
        if (isObject(value)) {
          for (const key of extras) yield* this.problems(value, getItem(instance, key), [...path, key]);
        } else if (value === false && extras.length > 0) {
          // Sorted, as jsonschema sorts them (text keys by code point, numbers by value).
          const names = [...extras].sort(compareKeys).map((key) => repr(key));
          if (isObject(schema.patternProperties)) {
            const patterns = Object.keys(schema.patternProperties).sort().map(repr);
            yield error(
              `${names.join(", ")} ${names.length === 1 ? "does" : "do"} not match any of the regexes: ${patterns.join(", ")}`,
            );
          } else {
            yield error(
              `Additional properties are not allowed (${names.join(", ")} ${names.length === 1 ? "was" : "were"} unexpected)`,
            );
          }
        }
        return;
      }
      case "required":
        if (!isMapping(instance) || !Array.isArray(value)) return;
        for (const name of value)
          if (!hasItem(instance, name)) yield error(`${repr(name)} is a required property`);
        return;
      case "dependencies":
        if (!isMapping(instance) || !isObject(value)) return;
        for (const [name, dependency] of Object.entries(value)) {
          if (!hasItem(instance, name)) continue;
          if (Array.isArray(dependency)) {
            for (const each of dependency)
              if (!hasItem(instance, each)) yield error(`${repr(each)} is a dependency of ${repr(name)}`);
          } else yield* this.problems(dependency, instance, path);
        }
        return;
      case "minProperties":
        if (isMapping(instance) && mappingKeys(instance).length < Number(value))
          yield error("does not have enough properties");
        return;
      case "maxProperties":
        if (isMapping(instance) && mappingKeys(instance).length > Number(value))
          yield error("has too many properties");
        return;
      case "items":
        if (!Array.isArray(instance)) return;
        if (isObject(value)) {
          for (let i = 0; i < instance.length; i++) yield* this.problems(value, instance[i], [...path, i]);
        } else if (Array.isArray(value)) {
          for (let i = 0; i < Math.min(instance.length, value.length); i++)
            yield* this.problems(value[i], instance[i], [...path, i]);
        }
        return;
      case "additionalItems": {
        if (!Array.isArray(instance) || !Array.isArray(schema.items)) return;
        const from = schema.items.length;
        if (isObject(value)) {
          for (let i = from; i < instance.length; i++) yield* this.problems(value, instance[i], [...path, i]);
        } else if (value === false && instance.length > from) {
          const count = instance.length - from;
          yield error(
            `Additional items are not allowed (${count} ${count === 1 ? "was" : "were"} unexpected)`,
          );
        }
        return;
      }
      case "minItems":
        if (Array.isArray(instance) && instance.length < Number(value)) yield error("is too short");
        return;
      case "maxItems":
        if (Array.isArray(instance) && instance.length > Number(value)) yield error("is too long");
        return;
      case "uniqueItems":
        if (value === true && Array.isArray(instance) && !allUnique(instance))
          yield error("has non-unique elements");
        return;
      case "minLength":
        if (isType(instance, "string") && textLength(instance) < Number(value)) yield error("is too short");
        return;
      case "maxLength":
        if (isType(instance, "string") && textLength(instance) > Number(value)) yield error("is too long");
        return;
      case "pattern":
        if (typeof value === "string" && isType(instance, "string") && !this.search(value, textOf(instance)))
          yield error(`does not match ${repr(value)}`);
        return;
      case "format":
        if (typeof instance === "string" && !this.formatHolds(value, instance))
          yield error(`is not a ${repr(value)}`);
        return;
      case "minimum":
      case "maximum": {
        if (!isType(instance, "number") || typeof value !== "number") return;
        const n = numeric(instance);
        const exclusive = schema[keyword === "minimum" ? "exclusiveMinimum" : "exclusiveMaximum"] === true;
        const failed =
          keyword === "minimum" ? (exclusive ? n <= value : n < value) : exclusive ? n >= value : n > value;
        if (failed) {
          const side = keyword === "minimum" ? "less" : "greater";
          yield error(`is ${side} than${exclusive ? " or equal to" : ""} the ${keyword} of ${repr(value)}`);
        }
        return;
      }
      case "multipleOf":
        if (isType(instance, "number") && typeof value === "number") {
          const quotient = numeric(instance) / value;
          if (!Number.isInteger(quotient)) yield error(`is not a multiple of ${repr(value)}`);
        }
        return;
      case "allOf":
        if (Array.isArray(value))
          for (const subschema of value) yield* this.problems(subschema, instance, path);
        return;
      case "anyOf":
      case "oneOf":
        if (Array.isArray(value)) yield* this.branches(keyword, value, instance, path);
        return;
      case "not":
        if (this.isValid(value, instance)) yield error(`should not be valid under ${repr(value)}`);
        return;
      default:
        return;
    }
  }

  /**
   * cloud-init's `anyOf` / `oneOf`: the first branch whose only problems are deprecations matches, and its
   * deprecations are reported. For `oneOf`, a later branch that matches too makes the error "valid under each of",
   * with the later branches first and the matching one last, as cloud-init writes it.
   */
  private *branches(
    keyword: "anyOf" | "oneOf",
    subschemas: readonly unknown[],
    instance: unknown,
    path: PathKey[],
  ): Generator<SchemaProblem> {
    let matched = -1;
    let deprecations: SchemaProblem[] = [];
    for (let i = 0; i < subschemas.length; i++) {
      const found = [...this.problems(subschemas[i], instance, path)];
      if (found.every((problem) => problem.deprecation)) {
        matched = i;
        deprecations = found;
        break;
      }
    }
    if (matched < 0) {
      yield { path, message: "is not valid under any of the given schemas", deprecation: false };
      return;
    }
    if (keyword === "oneOf") {
      const more = subschemas.slice(matched + 1).filter((subschema) => this.isValid(subschema, instance));
      if (more.length > 0) {
        const reprs = [...more, subschemas[matched]].map((subschema) => this.o.repr(subschema));
        yield { path, message: `is valid under each of ${reprs.join(", ")}`, deprecation: false };
        return;
      }
    }
    yield* deprecations;
  }

  /** `re.search` of a schema's pattern, each compiled once per validation. */
  private search(pattern: string, text: string): boolean {
    let compiled = this.patterns.get(pattern);
    if (compiled === undefined) {
      compiled = compilePattern(pattern);
      this.patterns.set(pattern, compiled);
    }
    return compiled.test(text);
  }

  /** The keys neither `properties` nor a `patternProperties` pattern names, in the mapping's order. */
  private additionalKeys(instance: Mapping, schema: Schema): PathKey[] {
    const properties = isObject(schema.properties) ? schema.properties : {};
    const patterns = isObject(schema.patternProperties) ? Object.keys(schema.patternProperties) : [];
    return (mappingKeys(instance) as PathKey[]).filter(
      (key) =>
        !(typeof key === "string" && Object.hasOwn(properties, key)) &&
        !(patterns.length > 0 && this.search(patterns.join("|"), String(key))),
    );
  }

  private formatHolds(format: unknown, text: string): boolean {
    if (format === "date") return isIsoDate(text);
    if (format === "uri") return this.o.isUri(text);
    return true;
  }

  private resolve(ref: string): unknown {
    if (!ref.startsWith("#")) return undefined;
    let node: unknown = this.root;
    for (const raw of ref.slice(1).split("/").slice(1)) {
      const step = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
      node = isObject(node) ? node[step] : Array.isArray(node) ? node[Number(step)] : undefined;
    }
    return node;
  }
}

function deprecationMessage(description: unknown): string {
  return typeof description === "string" && description !== "" ? `DEPRECATED: ${description}` : "DEPRECATED.";
}

function isObject(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Draft 4's types as jsonschema checks them, with cloud-init's bytes-as-string: 1.0 is a number, not an integer. */
function isType(instance: unknown, type: unknown): boolean {
  switch (type) {
    case "string":
      return typeof instance === "string" || instance instanceof Uint8Array;
    case "object":
      return isMapping(instance);
    case "array":
      return Array.isArray(instance);
    case "boolean":
      return typeof instance === "boolean";
    case "null":
      return instance === null;
    case "number":
      return typeof instance === "number" || typeof instance === "bigint" || isPyFloat(instance);
    case "integer":
      return (typeof instance === "number" && Number.isInteger(instance)) || typeof instance === "bigint";
    default:
      return false;
  }
}

function numeric(value: unknown): number {
  return Number(numberValue(value) ?? Number.NaN);
}

function textOf(value: unknown): string {
  return value instanceof Uint8Array ? Buffer.from(value).toString("latin1") : String(value);
}

function textLength(value: unknown): number {
  return value instanceof Uint8Array ? value.length : [...(value as string)].length;
}

// `re.search`: the pattern anywhere in the text.
function compilePattern(pattern: string): RegExp {
  try {
    return new RegExp(pattern, "u");
  } catch {
    return new RegExp(pattern);
  }
}

/**
 * Python's `==` with jsonschema's `unbool`: `True` is not `1` (nor `False` `0`) at any depth, `1 == 1.0`, strings
 * are not bytes, mappings and lists compare item by item.
 */
export function pyEqual(a: unknown, b: unknown): boolean {
  if (typeof a === "boolean" || typeof b === "boolean") return a === b;
  if (isType(a, "number") && isType(b, "number")) return numeric(a) === numeric(b);
  if (typeof a === "string" || typeof b === "string") return a === b;
  if (a instanceof Uint8Array && b instanceof Uint8Array)
    return a.length === b.length && a.every((byte, i) => byte === b[i]);
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => pyEqual(x, b[i]));
  if (isMapping(a) && isMapping(b)) {
    const keys = mappingKeys(a) as PathKey[];
    if (keys.length !== mappingKeys(b).length) return false;
    return keys.every((key) => hasItem(b, key) && pyEqual(getItem(a, key), getItem(b, key)));
  }
  return a === b;
}

function allUnique(items: readonly unknown[]): boolean {
  for (let i = 0; i < items.length; i++)
    for (let j = 0; j < i; j++) if (pyEqual(items[i], items[j])) return false;
  return true;
}

function compareKeys(x: PathKey, y: PathKey): number {
  if (typeof x === "number" && typeof y === "number") return x - y;
  const sx = String(x);
  const sy = String(y);
  return sx === sy ? 0 : sx < sy ? -1 : 1;
}

function comparePaths(a: readonly PathKey[], b: readonly PathKey[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const order = compareKeys(a[i]!, b[i]!);
    if (order !== 0) return order;
  }
  return a.length - b.length;
}
