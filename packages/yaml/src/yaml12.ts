import { keyIdentity, PyDict, PyFloat, setKey } from "@merge/core";
import type { Alias, Node, Scalar } from "yaml";
import { yamlLibrary } from "#yaml-library";
import { yamlError } from "./errors.js";
import { checkLexicalDepth, DEFAULT_MAX_DEPTH, DEFAULT_MAX_NODES, type YamlWithPositions } from "./load.js";

/** Options of `loadYaml12`. */
export interface LoadYaml12Options {
  /** File name put in error positions. */
  readonly filename?: string;
  /** `plain` (default): objects and numbers; `exact`: `PyDict` mappings with typed keys and `PyFloat` whole floats. */
  readonly values?: "plain" | "exact";
  /** Deepest collection nesting accepted (default 500); deeper is a `DEPTH_LIMIT` error. */
  readonly maxDepth?: number;
  /** Budget of nodes after alias expansion (default 10,000,000); exceeding it is a `SIZE_LIMIT` error. */
  readonly maxNodes?: number;
}

interface Place {
  readonly line: number;
  readonly column: number;
  readonly keys?: Map<unknown, Place>;
  readonly items?: Place[];
}

const NO_KEY = Symbol("no key");
const NO_KEY_VALUE = Symbol("null key");

/**
 * What makes two keys of one mapping the same key, as the yaml package's `uniqueKeys` decides it: the same node, or
 * two scalars whose values are `===` (so `1` and `"1"` differ, and `.nan` never repeats). Undefined: never a repeat.
 */
function keyNodeIdentity(keyNode: Node | null, isScalar: (node: unknown) => node is Scalar): unknown {
  if (keyNode === null) return NO_KEY;
  if (!isScalar(keyNode)) return keyNode;
  const value = keyNode.value;
  if (typeof value === "number" && Number.isNaN(value)) return undefined;
  // -0 === 0, as a Set sees them too.
  return value === null ? NO_KEY_VALUE : typeof value === "object" ? keyNode : value;
}

// YAML 1.2 core schema floats, and the special values.
const FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const SPECIAL_FLOAT = /^([-+]?\.(inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;

/**
 * Reads one YAML document with the YAML 1.2 core schema, as the `yaml` package reads it: only `true`/`false` are
 * booleans (`on`, `yes` stay text), `0755` is the int 755 (`0o755` is octal), `12:30` is text, there are no `<<`
 * merge keys, and a key written twice is an error. Positions as `loadYamlWithPositions` gives them; errors are
 * `YAML_PARSE` (or `YAML_KEY` for a collection used as a key, `YAML_TAG` for a tag the core schema does not know)
 * with the line and column. The same budgets as `loadYaml`: nesting (`DEPTH_LIMIT`, measured before the parser
 * sees the text) and nodes after alias expansion (`SIZE_LIMIT`).
 */
export function loadYaml12(text: string, options: LoadYaml12Options = {}): YamlWithPositions {
  const file = options.filename;
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const maxNodes = options.maxNodes ?? DEFAULT_MAX_NODES;
  checkLexicalDepth(text, maxDepth, file);
  // The `yaml` package is loaded on first use (see yaml-library.ts): a program that reads no YAML 1.2 never loads it.
  const { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, visit } = yamlLibrary();
  const lines = new LineCounter();
  const doc = parseDocument(text, {
    version: "1.2",
    schema: "core",
    lineCounter: lines,
    // The yaml package compares each key with every key before it (quadratic: 20,000 keys took seconds); `build`
    // below refuses a key written twice itself, with one lookup per key, by the same rule.
    uniqueKeys: false,
    merge: false,
    intAsBigInt: true,
    prettyErrors: false,
  });
  const problem = doc.errors[0];
  if (problem !== undefined) {
    const at = lines.linePos(problem.pos[0]);
    const code = problem.code === "RESOURCE_EXHAUSTION" ? "DEPTH_LIMIT" : "YAML_PARSE";
    throw yamlError(code, problem.message.split("\n")[0]!, file, { line: at.line, column: at.col });
  }
  // An unknown tag (`!!python/object`, `!foo`, `!!binary`) is only a warning for the yaml package.
  const unknownTag = doc.warnings.find((warning) => warning.code === "TAG_RESOLVE_FAILED");
  if (unknownTag !== undefined) {
    const at = lines.linePos(unknownTag.pos[0]);
    throw yamlError("YAML_TAG", unknownTag.message.split("\n")[0]!, file, { line: at.line, column: at.col });
  }
  // Each alias's node, found in one pass in document order (an alias names the last anchor of that name before
  // it); the yaml package's own resolve() searches the whole document for every alias.
  const anchored = new Map<string, Node>();
  const targets = new Map<Alias, Node | undefined>();
  visit(doc, {
    Alias(_, alias) {
      targets.set(alias, anchored.get(alias.source));
    },
    Node(_, node) {
      if (!isAlias(node) && node.anchor !== undefined) anchored.set(node.anchor, node);
    },
  });
  const exact = options.values === "exact";
  let nodes = 0;
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
    if (++nodes > maxNodes) {
      throw yamlError(
        "SIZE_LIMIT",
        `the document expands to more than ${maxNodes} nodes (aliases included)`,
        file,
        place(node as Node),
      );
    }
    if (node === null || node === undefined) return { value: null };
    if (isAlias(node)) {
      return build(targets.get(node) ?? null, depth);
    }
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
      const written = new Set<unknown>();
      for (const pair of node.items) {
        const keyNode = pair.key as Node | null;
        const identity = keyNodeIdentity(keyNode, isScalar);
        if (identity !== undefined) {
          if (written.has(identity))
            throw yamlError(
              "YAML_PARSE",
              "Map keys must be unique",
              file,
              place(keyNode ?? (pair.value as Node)),
            );
          written.add(identity);
        }
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
        const at: Place = { ...built.place, ...place(keyNode ?? (pair.value as Node)) };
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

  // The size after alias expansion, measured on the distinct nodes before anything is built, so an alias bomb is
  // refused at once; an alias inside the node it names is refused too (it has no finite value).
  const sizes = new Map<unknown, number>();
  const sizeOf = (node: unknown): number => {
    if (node === null || node === undefined) return 1;
    const known = sizes.get(node);
    if (known !== undefined) {
      if (known < 0) {
        throw yamlError("YAML_PARSE", "an alias refers to the node that holds it", file, place(node as Node));
      }
      return known;
    }
    sizes.set(node, -1);
    let size = 1;
    if (isAlias(node)) {
      try {
        size = sizeOf(targets.get(node) ?? null);
      } catch (error) {
        if ((error as { code?: string }).code === "YAML_PARSE") {
          throw yamlError("YAML_PARSE", "an alias refers to the node that holds it", file, place(node));
        }
        throw error;
      }
    } else if (isSeq(node)) {
      for (const item of node.items) size = Math.min(size + sizeOf(item), maxNodes + 1);
    } else if (isMap(node)) {
      for (const pair of node.items)
        size = Math.min(size + sizeOf(pair.key) + sizeOf(pair.value), maxNodes + 1);
    }
    sizes.set(node, size);
    return size;
  };
  let total: number;
  try {
    total = sizeOf(doc.contents);
  } catch (error) {
    // Aliases chained thousands deep: the value would nest past any depth limit.
    if (!(error instanceof RangeError)) throw error;
    throw yamlError("DEPTH_LIMIT", `the document nests deeper than ${maxDepth} levels`, file, {
      line: 1,
      column: 1,
    });
  }
  if (total > maxNodes) {
    throw yamlError(
      "SIZE_LIMIT",
      `the document expands to more than ${maxNodes} nodes (aliases included)`,
      file,
      place(doc.contents as Node),
    );
  }
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
