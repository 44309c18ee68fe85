import { isMergeError, keyIdentity, PyDict, setKey } from "@merge/core";
import type { Alias, Node, Scalar, YAMLMap, YAMLSeq } from "yaml";
import { type YamlMark, yamlError, type YamlErrorCode } from "./errors.js";
import { YamlFloat } from "./float.js";
import { foldPlain, foldQuoted, readBlockScalar } from "./fold.js";
import { keyEquality, keyText } from "./keys.js";
import {
  EMPTY_SCALAR,
  firstStartAtOrAfter,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  type LineIndex,
} from "./nodes.js";
import { resolvePlain, TAG } from "./resolver.js";
import {
  ConstructError,
  constructBinary,
  constructBool,
  constructFloat,
  constructInt,
  constructTimestamp,
  type YamlFlavor,
} from "./scalars.js";

/** Position of a constructed node, with those of its entries, for `loadYamlWithPositions`. */
export interface BuiltPosition {
  readonly line: number;
  readonly column: number;
  /** Entries by key identity (`@merge/core`'s `keyIdentity`: a string key is itself). */
  keys?: Map<unknown, BuiltPosition>;
  items?: BuiltPosition[];
}

export interface ConstructorOptions {
  readonly flavor: YamlFlavor;
  readonly file: string | undefined;
  readonly maxNodes: number;
  /** `object`: plain objects; `exact`: `PyDict`s with typed keys (float keys stay floats). */
  readonly mappings: "object" | "exact";
  /** Return whole-number floats as `PyFloat`. */
  readonly keepFloats: boolean;
  readonly lines: LineIndex;
  readonly track: boolean;
  readonly hasAnchors: boolean;
  /** False when the text holds neither `<<` nor a tag, so no mapping can have a merge key. */
  readonly mayMerge: boolean;
  /** Length of the text when it does not end with a line break (a block scalar reaching it gets no final "\n"). */
  readonly openEnd: number | undefined;
  /** The text being read (to place error marks). */
  readonly text: string;
  /** Scalars whose value is read again from the original text, or undefined when there are none. */
  readonly reread: Reread | undefined;
  /** Where PyYAML's node starts (`node.start_mark`), for an error about it; undefined when not known. */
  readonly markOf?: (node: object, emptyValue: boolean) => YamlMark | undefined;
  /**
   * Build collections in PyYAML's order (see `firstErrorAsPyyaml`): only to find which error PyYAML meets first;
   * the values built this way are not complete.
   */
  readonly pyyamlOrder?: boolean;
}

/**
 * How a scalar is read again: flow scalars that span lines by their kind, block scalars holding LS or PS breaks
 * with the indentation of the block collection around them.
 */
export type RereadKind =
  | "scalar"
  | "single-quoted-scalar"
  | "double-quoted-scalar"
  | { readonly block: number };

/** Scalars (by start offset) that the loader reads again from the original text with PyYAML's rules. */
export interface Reread {
  /** The decoded text before LS, PS and NEL were turned into "\n" for the parser. */
  readonly original: string;
  readonly kinds: Map<number, RereadKind>;
}

type AnyNode = Node | null | undefined;
interface PairRef {
  readonly key: AnyNode;
  readonly value: AnyNode;
}
interface Built {
  readonly value: unknown;
  readonly size: number;
  readonly pos: BuiltPosition | undefined;
}

const EMPTY = EMPTY_SCALAR;
/** The tags PyYAML builds a collection for in two steps (the others refuse a collection at once). */
const COLLECTION_TAGS: ReadonlySet<string> = new Set([TAG.map, TAG.set, TAG.omap, TAG.pairs, TAG.seq]);
/** Salt builds this tag with a function that returns the node's value: the text, or for a collection its nodes. */
const PYTHON_UNICODE = "tag:yaml.org,2002:python/unicode";

function kindName(node: AnyNode): string {
  return isMap(node) ? "mapping" : isSeq(node) ? "sequence" : "scalar";
}

/**
 * Builds JavaScript values from the `yaml` package's syntax tree with PyYAML's rules: implicit YAML 1.1 types,
 * SafeLoader's tags, `<<` merge keys, aliases shared (not copied) and counted against the node budget.
 */
export class YamlConstructor {
  private readonly o: ConstructorOptions;
  private count = 0;
  /** True while a mapping key is built (keys stay plain numbers). */
  private atKey = false;
  private lastPos: BuiltPosition | undefined;
  /**
   * The scalar node whose position `lastPos` stands for, not made yet (`lastPosition` makes it): a mapping only
   * needs the positions inside its values, and most values are scalars.
   */
  private pendingScalar: AnyNode | undefined;
  /** Collections and anchored nodes already built: PyYAML builds each node once and shares the result. */
  private readonly built = new Map<Node, Built>();
  private readonly aliasTargets = new Map<Alias, Node>();
  /**
   * A mapping's entries as merging has left them so far (PyYAML's `node.value`, which `flatten_mapping` changes in
   * place): what a mapping that merges it, or merges itself while it is being merged, takes at that moment.
   */
  private readonly entries = new Map<YAMLMap, PairRef[]>();
  /**
   * Once a mapping merges itself (`resolveAnchors`): the collections being built, with their list or mapping as soon
   * as it is made (undefined before). PyYAML makes each collection empty before it fills it, so a value reached
   * again while it is built is that unfinished collection, not an error: merged entries may lead back to it, and
   * their value may yet be replaced by a later key of the same name.
   */
  private building: Map<Node, unknown> | undefined;
  /** The first collection tagged `!!python/unicode` in the `salt` flavour (see `nodesAsValue`). */
  private nodesInstead: Node | undefined;
  /** Unfinished collections handed out (see `building`), with the alias or node that reached each. */
  private readonly reachedEarly = new Map<unknown, Node>();
  /**
   * In PyYAML's order: the collections met whose contents are built later, in this order (and the scalars tagged
   * as collections, refused then).
   */
  private readonly deferred: Node[] | undefined;

  constructor(options: ConstructorOptions) {
    this.o = options;
    this.deferred = options.pyyamlOrder === true ? [] : undefined;
  }

  document(root: AnyNode): { value: unknown; pos: BuiltPosition | undefined } {
    if (this.o.hasAnchors || root !== null) this.resolveAnchors(root);
    if (this.deferred !== undefined) {
      const value = this.node(root ?? EMPTY);
      for (let i = 0; i < this.deferred.length; i++) {
        const node = this.deferred[i]!;
        if (isScalar(node)) this.scalar(node as Scalar);
        else this.collection(node);
      }
      return { value, pos: undefined };
    }
    try {
      const value = this.node(root ?? EMPTY);
      if (this.reachedEarly.size > 0) this.refuseCycles(value);
      if (this.nodesInstead !== undefined) {
        const node = this.nodesInstead;
        this.fail(
          "YAML_TAG",
          `!!python/unicode on a ${kindName(node)} gives Salt's loader the parser's nodes, not a value`,
          node,
        );
      }
      return { value, pos: this.lastPosition() };
    } catch (error) {
      if (isMergeError(error) && error.code !== "SIZE_LIMIT") this.firstErrorAsPyyaml(root);
      throw error;
    }
  }

  /**
   * PyYAML builds a collection in two steps: the empty list or dict is made where the collection is met, and its
   * contents later, after everything already waiting (a breadth-first walk: the root's scalars, then each nested
   * collection's, level by level). Scalars, keys and unknown tags are built or refused where they are met. So when
   * a document holds several errors PyYAML reports a shallow one before a deeper one written earlier (an unknown
   * tag on line 220 before one on line 177 of a real Google Cloud SDK file). This constructor builds depth first,
   * which is faster; only once it has failed is the document walked again in PyYAML's order, to throw the error
   * PyYAML meets first.
   */
  private firstErrorAsPyyaml(root: AnyNode): void {
    new YamlConstructor({ ...this.o, track: false, pyyamlOrder: true }).document(root);
  }

  /**
   * Salt's `!!python/unicode` on a sequence or mapping: its constructor returns the parser's nodes (a list of them),
   * not a value, and builds nothing inside. Salt goes on without an error, so this one is raised only once the whole
   * document is built: any other error, wherever it is, is the one Salt reports.
   */
  private nodesAsValue(node: Node): null {
    this.nodesInstead ??= node;
    return null;
  }

  /** The position of the node built last (made now for a scalar). */
  private lastPosition(): BuiltPosition | undefined {
    if (this.pendingScalar !== undefined) {
      this.lastPos = this.position(this.pendingScalar);
      this.pendingScalar = undefined;
    }
    return this.lastPos;
  }

  private setLastPos(pos: BuiltPosition | undefined): void {
    this.lastPos = pos;
    this.pendingScalar = undefined;
  }

  /** `emptyValueOf`: the error is about that pair's missing value (PyYAML's empty scalar), `node` only a fallback. */
  private fail(
    code: YamlErrorCode,
    message: string,
    node: AnyNode,
    cause?: unknown,
    emptyValueOf?: object,
  ): never {
    // PyYAML marks a construction error at the start of the node it names, properties included.
    const start =
      emptyValueOf !== undefined
        ? this.o.markOf?.(emptyValueOf, true)
        : node === null || node === undefined
          ? undefined
          : this.o.markOf?.(node, false);
    if (start !== undefined) throw yamlError(code, message, this.o.file, start, cause);
    let offset = node?.range?.[0];
    // PyYAML marks a tag problem at the node's start, which is its tag: look back on the line for it.
    if (code === "YAML_TAG" && offset !== undefined && node?.tag !== undefined)
      offset = this.tagStart(offset);
    const at = offset === undefined ? undefined : this.o.lines.linePos(offset);
    throw yamlError(
      code,
      message,
      this.o.file,
      at === undefined ? undefined : { line: at.line, column: at.col, offset: offset! },
      cause,
    );
  }

  /**
   * Where PyYAML's node starts, for a node written at `offset` after its properties: the first of the anchor and
   * tag written right before it, on its line or ending an earlier one with only white space between
   * (`k: &a !ref\n  x: 1` is marked at `&a`); `offset` itself when no tag is found there.
   */
  private tagStart(offset: number): number {
    const text = this.o.text;
    let found = offset;
    let sawTag = false;
    let end = offset;
    for (let words = 0; words < 2; words++) {
      // The node may start on a line after its properties, but they share one line.
      while (end > 0 && (words === 0 ? " \t\n\r" : " \t").includes(text[end - 1]!)) end--;
      let start = end;
      while (start > 0 && !" \t\n\r".includes(text[start - 1]!)) start--;
      // A property may follow a flow indicator in the same word (`[&a`, `{!t`).
      let at = start;
      while (at < end && "[{,".includes(text[at]!)) at++;
      if (text[at] !== "!" && text[at] !== "&") break;
      if (text[at] === "!") sawTag = true;
      found = at;
      if (at > start) break;
      end = start;
    }
    return sawTag ? found : offset;
  }

  /**
   * Where a node starts, with the positions inside it (`keys`, `items`) when given: one object per node, made
   * here (what `LineIndex.linePos` gives, without its own object: positions are made for every node of a large
   * document).
   */
  private position(
    node: AnyNode,
    keys?: Map<unknown, BuiltPosition>,
    items?: BuiltPosition[],
  ): BuiltPosition {
    const offset = node?.range?.[0] ?? 0;
    const starts = this.o.lines.lineStarts;
    // linePos's rule, without the object it returns.
    const low = firstStartAtOrAfter(starts, offset);
    let line: number;
    let column: number;
    if (starts[low] === offset) {
      line = low + 1;
      column = 1;
    } else if (low === 0) {
      line = 0;
      column = offset;
    } else {
      line = low;
      column = offset - starts[low - 1]! + 1;
    }
    return keys === undefined && items === undefined ? { line, column } : { line, column, keys, items };
  }

  /**
   * PyYAML's composer: anchors in document order, an alias to an unknown anchor or a second anchor of the same name
   * is an error. Recursive aliases (to a node that contains the alias) cannot become JSON-like data: refused, except
   * where the alias is merged (`<<: *self` or an item of `<<: [...]` inside the anchored mapping), which PyYAML
   * reads without a cycle: merging takes the mapping's entries, not the mapping. Should such a merge still make a
   * value hold itself, building it refuses it (`node`).
   */
  private resolveAnchors(root: AnyNode): void {
    if (!this.o.hasAnchors) return;
    const anchors = new Map<string, Node>();
    const open = new Set<Node>();
    const visit = (node: AnyNode, merged: boolean): void => {
      if (node === null || node === undefined) return;
      if (isAlias(node)) {
        const target = anchors.get(node.source);
        if (target === undefined) this.fail("YAML_PARSE", `found undefined alias '${node.source}'`, node);
        if (open.has(target)) {
          if (!merged) this.fail("YAML_PARSE", `found recursive alias '${node.source}'`, node);
          this.building = new Map();
        }
        this.aliasTargets.set(node, target);
        return;
      }
      const anchor = (node as { anchor?: string }).anchor;
      if (anchor !== undefined) {
        if (anchors.has(anchor)) this.fail("YAML_PARSE", `found duplicate anchor '${anchor}'`, node);
        anchors.set(anchor, node);
      }
      if (isMap(node)) {
        open.add(node);
        for (const pair of node.items) {
          visit(pair.key as AnyNode, false);
          visit(pair.value as AnyNode, this.o.mayMerge && this.isMergeKey(this.deref(pair.key as AnyNode)));
        }
        open.delete(node);
      } else if (isSeq(node)) {
        open.add(node);
        // The items of a merged sequence are merged too.
        for (const item of node.items) visit(item as AnyNode, merged);
        open.delete(node);
      }
    };
    visit(root, false);
  }

  private deref(node: AnyNode): AnyNode {
    if (isAlias(node)) {
      const target = this.aliasTargets.get(node);
      if (target === undefined) this.fail("YAML_PARSE", `found undefined alias '${node.source}'`, node);
      return target;
    }
    return node;
  }

  private spend(n: number, node: AnyNode): void {
    this.count += n;
    if (this.count > this.o.maxNodes) {
      this.fail(
        "SIZE_LIMIT",
        `document expands to more than ${this.o.maxNodes} nodes (aliases counted each time they are used)`,
        node,
      );
    }
  }

  private node(node: AnyNode): unknown {
    if (node === null || node === undefined) node = EMPTY;
    const alias = isAlias(node) ? node : undefined;
    if (alias !== undefined) node = this.deref(alias)!;
    // Without an anchor in the text no node can be reached twice, so the cache would only cost time and memory.
    const anchors = this.o.hasAnchors;
    const cached = anchors ? this.built.get(node) : undefined;
    if (cached !== undefined) {
      this.spend(cached.size, node);
      this.lastPos = cached.pos;
      this.pendingScalar = undefined;
      return cached.value;
    }
    const before = this.count;
    let value: unknown;
    if (isScalar(node)) {
      this.spend(1, node);
      if (this.o.reread !== undefined) this.reread(node as Scalar, this.o.reread);
      // A collection's tag on a scalar fails where the collection would be filled (`!!seq x`), later.
      if (this.deferred !== undefined && COLLECTION_TAGS.has(this.tagOf(node) ?? "")) {
        this.deferred.push(node);
        return null;
      }
      value = this.scalar(node as Scalar);
      if (this.o.track) {
        this.lastPos = undefined;
        this.pendingScalar = node;
      }
      if ((node as Scalar).anchor === undefined) return value;
    } else {
      this.spend(1, node);
      if (this.deferred === undefined) {
        const building = this.building;
        if (building === undefined) value = this.collection(node);
        else if (building.has(node)) return this.unfinished(node, alias, building.get(node));
        else {
          building.set(node, undefined);
          value = this.collection(node);
          building.delete(node);
        }
      } else {
        // A tag with no constructor for collections fails at once; the others build their contents later.
        const tag = this.tagOf(node);
        if (tag === PYTHON_UNICODE && this.o.flavor === "salt") return this.nodesAsValue(node);
        if (tag !== undefined && !COLLECTION_TAGS.has(tag)) this.tagError(node, tag);
        value = isMap(node) ? new PyDict() : [];
        this.deferred.push(node);
      }
    }
    if (anchors) this.built.set(node, { value, size: this.count - before, pos: this.lastPosition() });
    return value;
  }

  /** A collection reached again while it is built (see `building`): its unfinished list or mapping. */
  private unfinished(node: Node, alias: Alias | undefined, value: unknown): unknown {
    // Not made yet: reached again from its own tag or key (a collection key is refused anyway).
    if (value === undefined) this.recursive(alias ?? node, alias);
    this.spend(1, node);
    this.setLastPos(undefined);
    if (!this.reachedEarly.has(value)) this.reachedEarly.set(value, alias ?? node);
    return value;
  }

  /** Makes a collection's list or mapping the one a value reached again while it is built gets. */
  private opened(node: Node, value: unknown): void {
    if (this.building?.has(node) === true) this.building.set(node, value);
  }

  /**
   * A self-merge can make a value hold itself (`l: &l {m: {<<: *l}}`: `m` holds `m`). PyYAML builds such a cycle;
   * like any recursive alias, it is refused here, at the alias that reached the unfinished collection. The
   * collections such aliases reached but that the document no longer holds (their key was replaced) do not matter.
   */
  private refuseCycles(root: unknown): void {
    const done = new Set<unknown>();
    const path: unknown[] = [];
    const onPath = new Set<unknown>();
    const visit = (value: unknown): void => {
      if (typeof value !== "object" || value === null || done.has(value)) return;
      if (onPath.has(value)) {
        const cycle = path.slice(path.lastIndexOf(value));
        const early = cycle.find((entry) => this.reachedEarly.has(entry)) ?? value;
        const at = this.reachedEarly.get(early);
        this.recursive(at, at !== undefined && isAlias(at) ? at : undefined);
      }
      let inner: Iterable<unknown>;
      if (value instanceof PyDict) inner = value.values();
      else if (Array.isArray(value)) inner = value;
      else if (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null)
        inner = Object.values(value);
      else return;
      path.push(value);
      onPath.add(value);
      for (const item of inner) visit(item);
      path.pop();
      onPath.delete(value);
      done.add(value);
    };
    visit(root);
  }

  private recursive(node: AnyNode, alias: Alias | undefined): never {
    this.fail(
      "YAML_PARSE",
      alias !== undefined
        ? `found recursive alias '${alias.source}'`
        : "found recursive alias: a merge key makes a mapping hold itself",
      node,
    );
  }

  /** Gives a scalar the value PyYAML reads from its source (see fold.ts); each node once. */
  private reread(node: Scalar, reread: Reread): void {
    const range = node.range;
    if (range === undefined || range === null) return;
    const kind = reread.kinds.get(range[0]);
    if (kind === undefined) return;
    reread.kinds.delete(range[0]);
    const raw = reread.original.slice(range[0], range[1]);
    if (typeof kind === "object") node.source = readBlockScalar(raw, kind.block);
    else if (kind === "scalar") node.source = foldPlain(raw);
    else node.source = foldQuoted(raw, kind === "double-quoted-scalar");
  }

  private tagOf(node: Node): string | undefined {
    const tag = node.tag;
    return tag === undefined || tag === "!" ? undefined : tag;
  }

  private collection(node: Node): unknown {
    const tag = this.tagOf(node);
    if (tag === PYTHON_UNICODE && this.o.flavor === "salt") return this.nodesAsValue(node);
    if (isMap(node)) {
      switch (tag) {
        case undefined:
        case TAG.map:
          return this.mapping(node, this.o.mappings === "exact");
        case TAG.set: {
          // Made before its contents, as PyYAML makes it: a value inside may reach it (see `building`).
          const set = new Set<unknown>();
          this.opened(node, set);
          for (const key of (this.mapping(node, true, true) as PyDict).keyList()) set.add(key);
          return set;
        }
        case TAG.omap:
        case TAG.pairs:
          this.fail("YAML_TAG", `expected a sequence for ${tag}, but found mapping`, node);
          break;
        default:
          this.tagError(node, tag);
      }
    }
    if (isSeq(node)) {
      switch (tag) {
        case undefined:
        case TAG.seq:
          return this.sequence(node);
        case TAG.omap:
        case TAG.pairs:
          return this.pairs(node);
        default:
          this.tagError(node, tag);
      }
    }
    return this.fail("YAML_PARSE", "unexpected node", node);
  }

  private tagError(node: Node, tag: string): never {
    const known = [TAG.str, TAG.int, TAG.float, TAG.bool, TAG.null, TAG.timestamp, TAG.binary] as string[];
    if (known.includes(tag))
      this.fail("YAML_TAG", `expected a scalar node for ${tag}, but found ${kindName(node)}`, node);
    if (tag === TAG.map || tag === TAG.set)
      this.fail("YAML_TAG", `expected a mapping node, but found ${kindName(node)}`, node);
    if (tag === TAG.seq || tag === TAG.omap || tag === TAG.pairs) {
      this.fail("YAML_TAG", `expected a sequence node, but found ${kindName(node)}`, node);
    }
    this.fail("YAML_TAG", `could not determine a constructor for the tag '${tag}'`, node);
  }

  private sequence(node: YAMLSeq): unknown[] {
    const out: unknown[] = [];
    this.opened(node, out);
    const positions: BuiltPosition[] | undefined = this.o.track ? [] : undefined;
    for (const item of node.items) {
      out.push(this.node(item as AnyNode));
      if (positions !== undefined) positions.push(this.lastPosition() ?? this.position(item as AnyNode));
    }
    if (positions !== undefined) this.setLastPos(this.position(node, undefined, positions));
    return out;
  }

  /** `!!omap` / `!!pairs`: a sequence of one-pair mappings, built as `[key, value]` arrays (Python's tuples). */
  private pairs(node: YAMLSeq): [unknown, unknown][] {
    const out: [unknown, unknown][] = [];
    this.opened(node, out);
    for (const raw of node.items) {
      const item = this.deref(raw as AnyNode);
      if (!isMap(item))
        this.fail("YAML_TAG", `expected a mapping of length 1, but found ${kindName(item)}`, item);
      if (item.items.length !== 1) {
        this.fail("YAML_TAG", `expected a single mapping item, but found ${item.items.length} items`, item);
      }
      const pair = item.items[0]!;
      out.push([this.node(pair.key as AnyNode), this.node(pair.value as AnyNode)]);
    }
    this.setLastPos(this.o.track ? this.position(node) : undefined);
    return out;
  }

  private isMergeKey(node: AnyNode): boolean {
    if (!isScalar(node)) return false;
    const tag = this.tagOf(node);
    if (tag === TAG.merge) return true;
    return tag === undefined && (node.type === "PLAIN" || node.tag === "!") && node.source === "<<";
  }

  /** The entries of a mapping as they stand (see `entries`). */
  private entriesOf(node: YAMLMap): PairRef[] {
    let list = this.entries.get(node);
    if (list === undefined) {
      list = (node.items as unknown as PairRef[]).slice();
      this.entries.set(node, list);
    }
    return list;
  }

  /**
   * PyYAML's `flatten_mapping` (Salt's variant for the salt flavour): each `<<` entry is taken out of the mapping's
   * entries where it stands, the mappings it names are flattened first, and their entries go before the mapping's
   * own, explicit keys winning. The steps are PyYAML's, in its order, on entries that change as it goes, because a
   * mapping may merge itself: `l: &l {a: 1, <<: *l, b: 2}` takes `a` and `b` (what `l` holds once its `<<` is out),
   * and a self-merge in a list (`<<: [*l]`) takes what `l` holds when that list is read.
   */
  private flatten(node: YAMLMap): PairRef[] {
    const merged: PairRef[] = [];
    let index = 0;
    for (let own = this.entriesOf(node); index < own.length; own = this.entriesOf(node)) {
      const pair = own[index]!;
      const key = this.deref(pair.key);
      if (!this.isMergeKey(key)) {
        index++;
        continue;
      }
      own.splice(index, 1);
      const value = this.deref(pair.value);
      if (isMap(value)) {
        this.flatten(value);
        this.append(merged, this.entriesOf(value), node);
      } else if (isSeq(value)) {
        // Each mapping's entries as they stand once it is flattened (the list itself: a later item's merging may
        // still change it), applied last first, so that earlier mappings of the list win.
        const groups: PairRef[][] = [];
        for (const raw of value.items) {
          const sub = this.deref(raw as AnyNode);
          if (!isMap(sub)) {
            this.fail(
              "YAML_PARSE",
              `expected a mapping for merging, but found ${kindName(sub)}`,
              sub ?? value,
            );
          }
          this.flatten(sub);
          groups.push(this.entriesOf(sub));
        }
        for (let i = groups.length - 1; i >= 0; i--) this.append(merged, groups[i]!, node);
      } else {
        this.fail(
          "YAML_PARSE",
          `expected a mapping or list of mappings for merging, but found ${kindName(value)}`,
          value ?? key,
          undefined,
          pair.value === null || pair.value === undefined ? pair : undefined,
        );
      }
    }
    const explicit = this.entriesOf(node);
    if (merged.length === 0) return explicit;
    let result: PairRef[];
    if (this.o.flavor === "salt") {
      // Salt drops merged entries whose key is written explicitly (compared as written text).
      const written = new Set<string>();
      for (const pair of explicit) {
        const key = this.deref(pair.key);
        if (isScalar(key)) written.add(String(key.source ?? ""));
        else if (key === null || key === undefined) written.add("");
      }
      result = merged.filter((pair) => {
        const key = this.deref(pair.key);
        const text = isScalar(key)
          ? String(key.source ?? "")
          : key === null || key === undefined
            ? ""
            : undefined;
        return text === undefined || !written.has(text);
      });
      for (const pair of explicit) result.push(pair);
    } else {
      result = merged;
      for (const pair of explicit) result.push(pair);
    }
    this.entries.set(node, result);
    return result;
  }

  /** Appends merged pairs one by one (no spread: lists can be long), charging them to the node budget first. */
  private append(target: PairRef[], pairs: readonly PairRef[], node: AnyNode): void {
    this.spend(pairs.length, node);
    for (const pair of pairs) target.push(pair);
  }

  private hasMerge(node: YAMLMap): boolean {
    if (!this.o.mayMerge) return false;
    for (const pair of node.items) if (this.isMergeKey(this.deref(pair.key as AnyNode))) return true;
    return false;
  }

  /** `keysOnly`: the keys of a `!!set`, whose mapping is not the value built. */
  private mapping(node: YAMLMap, exact: boolean, keysOnly = false): unknown {
    const pairs: readonly PairRef[] = this.hasMerge(node)
      ? this.flatten(node)
      : (node.items as unknown as PairRef[]);
    const salt = this.o.flavor === "salt";
    const track = this.o.track;
    const positions = track ? new Map<unknown, BuiltPosition>() : undefined;
    // A PyDict compares keys as Python does by itself; a plain object needs the names json.dumps gives keys, and
    // the Python-equality classes seen so far, kept only once a non-string key shows up.
    const dict: PyDict | undefined = exact ? new PyDict() : undefined;
    const obj: Record<string, unknown> | undefined = exact ? undefined : {};
    if (!keysOnly) this.opened(node, dict ?? obj);
    let classes: Map<string, unknown> | undefined;
    for (const pair of pairs) {
      const keyNode = this.deref(pair.key) ?? EMPTY;
      if (!isScalar(keyNode)) {
        this.fail(
          "YAML_KEY",
          salt ? `found unacceptable key ${kindName(keyNode)}` : "found unhashable key",
          keyNode,
        );
      }
      // flatten_mapping turns a `=` key (the YAML 1.1 value key) into a plain string.
      this.atKey = true;
      // Only a `=` or a tagged key can be the value key: resolving every key twice would cost time on large mappings.
      const valueKey =
        (keyNode.source === "=" || keyNode.tag !== undefined) && this.scalarTag(keyNode) === TAG.value;
      let key = valueKey ? this.valueKey(keyNode) : this.node(keyNode);
      this.atKey = false;
      if (!exact && key instanceof YamlFloat) key = key.value;
      if (
        typeof key === "object" &&
        key !== null &&
        !(key instanceof Date) &&
        !(key instanceof Uint8Array) &&
        !(key instanceof YamlFloat)
      ) {
        this.fail("YAML_KEY", "found unhashable key", keyNode);
      }
      // A key's position is where its key (or, for an empty key, its value) was written.
      const keyAt = pair.key ?? pair.value;
      let duplicate: boolean;
      let name: unknown = key;
      if (dict !== undefined) {
        duplicate = dict.has(key);
      } else if (classes === undefined && typeof key === "string") {
        // Only Salt refuses a repeated string key; otherwise writing it again already keeps the first position.
        duplicate = salt && Object.hasOwn(obj!, key);
      } else {
        const isFloat = typeof key === "number" && this.scalarTag(keyNode) === TAG.float;
        if (classes === undefined) {
          classes = new Map();
          for (const k of Object.keys(obj!)) classes.set(`s${k}`, k);
        }
        const eq = keyEquality(key, isFloat);
        duplicate = classes.has(eq);
        if (duplicate) name = classes.get(eq);
        else {
          name = keyText(key, isFloat);
          if (name === undefined)
            this.fail(
              "YAML_KEY",
              "a binary key cannot name an object property (load with values: 'exact')",
              keyNode,
            );
          classes.set(eq, name);
        }
      }
      // Salt builds the value before it checks the key is new.
      const value = this.node(pair.value);
      const valuePos = this.lastPos;
      if (duplicate && salt) {
        const isFloat =
          key instanceof YamlFloat || (typeof key === "number" && this.scalarTag(keyNode) === TAG.float);
        const plainKey = key instanceof YamlFloat ? key.value : key;
        this.fail(
          "YAML_DUPLICATE_KEY",
          `found conflicting ID '${keyText(plainKey, isFloat) ?? String(plainKey)}'`,
          keyNode,
        );
      }
      if (dict !== undefined) dict.set(key as never, value);
      else setKey(obj!, name as string, value);
      if (positions !== undefined) {
        const entry = this.position(keyAt, valuePos?.keys, valuePos?.items);
        // A repeated key is found where its (last, winning) value was written.
        positions.set(keyIdentity(name), entry);
      }
    }
    if (positions !== undefined) this.setLastPos(this.position(node, positions));
    return dict ?? obj;
  }

  private scalarTag(node: Scalar): string {
    const tag = node.tag;
    if (tag === undefined)
      return node.type === "PLAIN" || node.type === undefined
        ? resolvePlain(String(node.source ?? ""))
        : TAG.str;
    // PyYAML resolves a scalar tagged with the non-specific `!` as if it were plain, quoted or not; libyaml (Salt)
    // does so too, except for an empty node, which stays a string.
    if (tag === "!") {
      const text = String(node.source ?? "");
      if (this.o.flavor === "salt" && text === "" && node.type === "PLAIN") return TAG.str;
      return resolvePlain(text);
    }
    return tag;
  }

  /** A value key (`=`, `!!value x`): flatten_mapping retags it as a string, so it is its text (`x`). */
  private valueKey(node: Scalar): string {
    this.spend(1, node);
    if (this.o.reread !== undefined) this.reread(node, this.o.reread);
    return this.scalarText(node);
  }

  /** A scalar's text as PyYAML's scanner gives it. */
  private scalarText(node: Scalar): string {
    const text = String(node.source ?? "");
    // PyYAML keeps a block scalar's final line break only when the input has one: `|\n  t` at the very end is "t".
    if (
      (node.type === "BLOCK_LITERAL" || node.type === "BLOCK_FOLDED") &&
      this.o.openEnd !== undefined &&
      (node.range?.[1] ?? 0) >= this.o.openEnd &&
      text.endsWith("\n")
    ) {
      return text.slice(0, -1);
    }
    return text;
  }

  private scalar(node: Scalar): unknown {
    const text = this.scalarText(node);
    const tag = this.scalarTag(node);
    try {
      switch (tag) {
        case TAG.str:
          return text;
        case TAG.null:
          return null;
        case TAG.bool:
          return constructBool(text);
        case TAG.int:
          return constructInt(text, this.o.flavor);
        case TAG.float: {
          const value = constructFloat(text);
          // Plain mappings need float keys as numbers (named `1.0` by keyText); exact ones keep them floats.
          return this.o.keepFloats && Number.isInteger(value) && (!this.atKey || this.o.mappings === "exact")
            ? new YamlFloat(value)
            : value;
        }
        case TAG.timestamp:
          return constructTimestamp(text, this.o.flavor);
        case TAG.binary:
          return constructBinary(text);
        case PYTHON_UNICODE:
          if (this.o.flavor === "salt") return text;
          break;
        case TAG.map:
        case TAG.set:
          return this.fail("YAML_TAG", "expected a mapping node, but found scalar", node);
        case TAG.seq:
        case TAG.omap:
        case TAG.pairs:
          return this.fail("YAML_TAG", "expected a sequence node, but found scalar", node);
        default:
          break;
      }
    } catch (error) {
      if (error instanceof ConstructError)
        this.fail("YAML_TAG", `cannot construct ${tag}: ${error.message}`, node, error);
      throw error;
    }
    return this.fail("YAML_TAG", `could not determine a constructor for the tag '${tag}'`, node);
  }
}
