import { keyIdentity, PyDict, PyFloat, setKey } from "@merge/core";
import { isAlias, isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from "yaml";
import { yamlError } from "./errors.js";
import type { YamlWithPositions } from "./load.js";

/** Options of `loadYaml12`. */
export interface LoadYaml12Options {
  /** File name put in error positions. */
  readonly filename?: string;
  /** `plain` (default): objects and numbers; `exact`: `PyDict` mappings with typed keys and `PyFloat` whole floats. */
  readonly values?: "plain" | "exact";
  /** Deepest collection nesting accepted (default 500); deeper is a `DEPTH_LIMIT` error. */
  readonly maxDepth?: number;
}

interface Place {
  readonly line: number;
  readonly column: number;
  readonly keys?: Map<unknown, Place>;
  readonly items?: Place[];
}

// YAML 1.2 core schema floats, and the special values.
const FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const SPECIAL_FLOAT = /^([-+]?\.(inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;

/**
 * Reads one YAML document with the YAML 1.2 core schema, as the `yaml` package reads it: only `true`/`false` are
 * booleans (`on`, `yes` stay text), `0755` is the int 755 (`0o755` is octal), `12:30` is text, there are no `<<`
 * merge keys, and a key written twice is an error. Positions as `loadYamlWithPositions` gives them; errors are
 * `YAML_PARSE` (or `YAML_KEY` for a collection used as a key) with the line and column.
 */
export function loadYaml12(text: string, options: LoadYaml12Options = {}): YamlWithPositions {
  const file = options.filename;
  const lines = new LineCounter();
  const doc = parseDocument(text, {
    version: "1.2",
    schema: "core",
    lineCounter: lines,
    uniqueKeys: true,
    merge: false,
    intAsBigInt: true,
    prettyErrors: false,
  });
  const problem = doc.errors[0];
  if (problem !== undefined) {
    const at = lines.linePos(problem.pos[0]);
    throw yamlError("YAML_PARSE", problem.message.split("\n")[0]!, file, { line: at.line, column: at.col });
  }
  const exact = options.values === "exact";
  const maxDepth = options.maxDepth ?? 500;
  const place = (node: Node | null | undefined): { line: number; column: number } => {
    const at = lines.linePos(node?.range?.[0] ?? 0);
    return { line: at.line, column: at.col };
  };

  const build = (node: unknown, depth: number): { value: unknown; place?: Place } => {
    if (depth > maxDepth) {
      throw yamlError(
        "DEPTH_LIMIT",
        `the document nests deeper than ${maxDepth} levels`,
        file,
        place(node as Node),
      );
    }
    if (node === null || node === undefined) return { value: null };
    if (isAlias(node)) return build(node.resolve(doc), depth);
    if (isScalar(node)) return { value: scalar(node.value, node.source, node.tag, exact) };
    if (isSeq(node)) {
      const value: unknown[] = [];
      const items: Place[] = [];
      for (const item of node.items) {
        const built = build(item, depth + 1);
        value.push(built.value);
        items.push({ ...place(item as Node), ...built.place });
      }
      return { value, place: { ...place(node), items } };
    }
    if (isMap(node)) {
      const keys = new Map<unknown, Place>();
      const dict = exact ? new PyDict() : undefined;
      const object: Record<string, unknown> = {};
      for (const pair of node.items) {
        const keyNode = pair.key as Node | null;
        if (keyNode !== null && (isMap(keyNode) || isSeq(keyNode))) {
          throw yamlError(
            "YAML_KEY",
            "a mapping or sequence cannot be a mapping key here",
            file,
            place(keyNode),
          );
        }
        const key = keyNode === null ? null : build(keyNode, depth + 1).value;
        const built = build(pair.value, depth + 1);
        const at: Place = { ...place(keyNode ?? (pair.value as Node)), ...built.place };
        if (dict !== undefined) {
          dict.set(key as never, built.value);
          keys.set(keyIdentity(key as never), at);
        } else {
          const name = key === null ? "null" : String(key);
          setKey(object, name, built.value);
          keys.set(keyIdentity(name), at);
        }
      }
      return { value: dict ?? object, place: { ...place(node), keys } };
    }
    return { value: null };
  };

  const root = build(doc.contents, 0);
  return {
    value: root.value,
    positionOf(path) {
      let at: Place | undefined = path.length === 0 ? { line: 1, column: 1, ...root.place } : root.place;
      for (const step of path) {
        if (at === undefined) return undefined;
        at = at.items !== undefined ? at.items[step as number] : at.keys?.get(keyIdentity(step as never));
      }
      return at === undefined ? undefined : { line: at.line, column: at.column };
    },
  };
}

function scalar(
  value: unknown,
  source: string | undefined,
  tag: string | undefined,
  exact: boolean,
): unknown {
  if (typeof value === "bigint") {
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(value)
      : value;
  }
  if (typeof value === "number" && exact && Number.isInteger(value)) {
    const float =
      tag === "tag:yaml.org,2002:float" ||
      (source !== undefined && (SPECIAL_FLOAT.test(source) || (FLOAT.test(source) && /[.eE]/.test(source))));
    if (float) return new PyFloat(value);
  }
  return value;
}
