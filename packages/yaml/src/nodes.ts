import type { Alias, Node, Pair, Scalar, YAMLMap, YAMLSeq } from "yaml";

/**
 * The syntax tree the constructor reads, without loading the `yaml` package. That package tells its node kinds
 * apart by registered symbols (shared by every copy of it), so the fast path can make light nodes the constructor
 * reads exactly like the package's own, and these guards recognise both. The full parser is loaded only for a text
 * the fast path gives up on (see syntax.ts).
 */
const NODE_TYPE = Symbol.for("yaml.node.type");
const ALIAS = Symbol.for("yaml.alias");
const MAP = Symbol.for("yaml.map");
const SCALAR = Symbol.for("yaml.scalar");
const SEQ = Symbol.for("yaml.seq");

function nodeType(node: unknown): unknown {
  return typeof node === "object" && node !== null ? (node as Record<symbol, unknown>)[NODE_TYPE] : undefined;
}

export function isAlias(node: unknown): node is Alias {
  return nodeType(node) === ALIAS;
}

export function isMap(node: unknown): node is YAMLMap {
  return nodeType(node) === MAP;
}

export function isScalar(node: unknown): node is Scalar {
  return nodeType(node) === SCALAR;
}

export function isSeq(node: unknown): node is YAMLSeq {
  return nodeType(node) === SEQ;
}

/**
 * Scalars and pairs are most of the nodes of a large document, and the `yaml` package's classes are costly to make
 * (each node defines a property); the constructor reads only `source`, `type`, `range`, `tag` and `anchor` of a
 * scalar and `key`/`value` of a pair, so lighter objects do.
 */
class LightScalar {
  declare readonly tag: undefined;
  declare readonly anchor: undefined;
  constructor(
    readonly source: string,
    readonly type: Scalar.Type,
    readonly start: number,
    readonly end: number,
  ) {}
  get range(): [number, number, number] {
    return [this.start, this.end, this.end];
  }
}
Object.defineProperty(LightScalar.prototype, NODE_TYPE, { value: SCALAR });

export function scalarNode(source: string, type: Scalar.Type, start: number, end: number): Scalar {
  return new LightScalar(source, type, start, end) as unknown as Scalar;
}

/** The null scalar that stands for a missing key or value: it has no place in the text. */
export const EMPTY_SCALAR: Scalar = Object.freeze(
  Object.defineProperty({ source: "", type: "PLAIN" }, NODE_TYPE, { value: SCALAR }),
) as unknown as Scalar;

export function pairOf(key: Node, value: Node): Pair {
  return { key, value } as unknown as Pair;
}

/** A block or flow collection: its items and where it starts (the constructor reads no more of it). */
class LightCollection {
  readonly items: unknown[] = [];
  declare readonly tag: undefined;
  declare readonly anchor: undefined;
  flow = false;
  range: [number, number, number];
  constructor(start: number) {
    this.range = [start, start, start];
  }
}
class LightMap extends LightCollection {}
class LightSeq extends LightCollection {}
Object.defineProperty(LightMap.prototype, NODE_TYPE, { value: MAP });
Object.defineProperty(LightSeq.prototype, NODE_TYPE, { value: SEQ });

export function mapNode(start: number): YAMLMap {
  return new LightMap(start) as unknown as YAMLMap;
}

export function seqNode(start: number): YAMLSeq {
  return new LightSeq(start) as unknown as YAMLSeq;
}

/**
 * Line starts of a text and the 1-based line and column of an offset, as the `yaml` package's `LineCounter`
 * reports them (line 0 for an offset before the first recorded line start); its parser can feed `addNewLine`.
 */
export class LineIndex {
  readonly lineStarts: number[] = [];
  readonly addNewLine = (offset: number): void => {
    this.lineStarts.push(offset);
  };

  linePos(offset: number): { line: number; col: number } {
    const starts = this.lineStarts;
    const low = firstStartAtOrAfter(starts, offset);
    if (starts[low] === offset) return { line: low + 1, col: 1 };
    if (low === 0) return { line: 0, col: offset };
    return { line: low, col: offset - starts[low - 1]! + 1 };
  }
}

/** The index of the first line start at or after `offset` in `starts` (ascending): a binary search, no allocation. */
export function firstStartAtOrAfter(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (starts[mid]! < offset) low = mid + 1;
    else high = mid;
  }
  return low;
}
