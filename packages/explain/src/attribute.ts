import {
  getItem,
  hasItem,
  isMapping,
  type Mapping,
  mappingKeys,
  type PathKey,
  PyFloat,
  pyEquals,
  type TraceEvent,
} from "@merge/core";
import type {
  ExplainDecision,
  ExplainDocument,
  ExplainEntry,
  ExplainLoss,
  ExplainOrigin,
  ExplainRemoval,
  Explanation,
} from "./model.js";

interface Place {
  readonly document: number;
  /**
   * The path in that document; undefined when it is the result path being visited, which holds for most values
   * (an input's value at the same path): no array of its own for them, the entry's path serves.
   */
  readonly path: readonly PathKey[] | undefined;
}

/** The trace events recorded at one path, and the paths below it by their last step. */
interface EventNode {
  events: TraceEvent[] | undefined;
  /** The events' decisions, made on first use: every value one event decided shares its decision. */
  decisions: ExplainDecision[] | undefined;
  /** The same for the values below that inherit them. */
  inherited: ExplainDecision[] | undefined;
  /** Steps that are strings, numbers, booleans, null: keys a Map tells apart as `stepKey` does. */
  steps: Map<unknown, EventNode> | undefined;
  /** Steps that are objects (a float key, a date), by `stepKey`. */
  objects: Map<string, EventNode> | undefined;
}

/** Shared by every entry with nothing in it: most values have no history, lost nothing, and so on. */
const NONE: readonly never[] = Object.freeze([]);

interface Source extends Place {
  readonly node: unknown;
}

/**
 * Works out, for every value of a merge result, which input supplied it and which merger decided it.
 *
 * Two sources of truth are combined. Trace events (recorded by the engine and the mergers) say which merger did
 * what at which path while merging which document. Values say where they came from: a mapping or list taken whole
 * from an input is the very same object (merges share untouched subtrees), and a scalar is matched against the
 * inputs at the same path — the latest input holding that value at a mapping key, the first unused equal item for
 * list items (so appended and prepended items each find their own input). What neither settles (a concatenated
 * string) is attributed to the document the last event at that path was merging.
 */
export function explainResult(
  result: unknown,
  documents: readonly ExplainDocument[],
  events: readonly TraceEvent[],
): Explanation {
  const walk = createWalk(result, documents, events);
  walk.all();
  return { ...walk.summary(), entries: walk.entries };
}

/** `explainInOrder`'s answer: the entries one at a time, then what the explanation says beside them. */
export interface ExplanationCursor {
  /**
   * The next entry, in the order of `Explanation.entries` but for the root's (which comes from `finish`); undefined
   * after the last. Entries are made as they are asked for, a top-level key (or item) of the result at a time, and
   * the cursor keeps none it has given out.
   */
  next(): ExplainEntry | undefined;
  /** Once `next` has given undefined: the root's entry, the inputs and the removals, as `explainResult` gives them. */
  finish(): Omit<Explanation, "entries"> & { readonly root: ExplainEntry };
}

/**
 * `explainResult` for a reader that takes the entries once, in order (`merge --explain` writing YAML in the result's
 * own key order): the same entries, made a top-level key at a time and let go once read, so that a large result's
 * explanation is never held whole.
 */
export function explainInOrder(
  result: unknown,
  documents: readonly ExplainDocument[],
  events: readonly TraceEvent[],
  options: ExplainInOrderOptions = {},
): ExplanationCursor {
  const walk = createWalk(result, documents, events, options.keyOrder);
  let started = false;
  let done = false;
  let queue: ExplainEntry[] = [];
  let at = 0;
  return {
    next() {
      while (at >= queue.length) {
        if (done) return undefined;
        if (!started) {
          started = true;
          walk.begin();
        } else if (!walk.step()) done = true;
        // Everything after the root's entry (index 0, filled once the last step is done) is finished here.
        queue = walk.entries.splice(1);
        at = 0;
      }
      return queue[at++];
    },
    finish() {
      if (!done) throw new Error("explainInOrder: finish() before the last entry");
      return { ...walk.summary(), root: walk.entries[0]! };
    },
  };
}

export interface ExplainInOrderOptions {
  /**
   * The order a mapping's keys are read in (the order a YAML writer with sorted keys writes them, say); by default
   * the mapping's own. The entries come in this order; each says the same whatever the order.
   */
  readonly keyOrder?: (keys: readonly PathKey[]) => readonly PathKey[];
}

/** One container being visited: what its children need and what its entry is made of once they are done. */
interface Frame {
  readonly value: unknown;
  readonly isList: boolean;
  /** The keys of a mapping, in order. */
  readonly keys: readonly PathKey[] | undefined;
  /** The next child to visit. */
  index: number;
  readonly path: PathKey[];
  readonly here: readonly PathKey[];
  readonly node: EventNode | undefined;
  readonly whole: Place | undefined;
  readonly matched: { place: Place | undefined; sources: Source[] }[] | undefined;
  readonly sources: readonly Source[];
  readonly inList: boolean;
  readonly into: Inputs;
  /** The inputs something inside came from. */
  readonly contributors: Inputs;
  readonly slot: number;
  readonly own: readonly TraceEvent[] | undefined;
  readonly history: readonly ExplainDecision[];
}

/** The state of one explanation being worked out: the whole of it at once (`all`) or a top-level child at a time. */
function createWalk(
  result: unknown,
  documents: readonly ExplainDocument[],
  events: readonly TraceEvent[],
  keyOrder?: ExplainInOrderOptions["keyOrder"],
) {
  const tree: EventNode = emptyNode();
  const removals: TraceEvent[] = [];
  // Inputs a merger decided something for while merging them (kept out, removed, replaced...).
  const decided = new Set<number>();
  for (const event of events) {
    if (event.document !== undefined) decided.add(event.document);
    if (event.action === "removed") {
      removals.push(event);
      continue;
    }
    const node = eventNodeAt(tree, event.path);
    if (node.events === undefined) node.events = [event];
    else node.events.push(event);
  }

  // Every mapping and list of every input, by identity, with where it sits.
  const places = new Map<object, PlaceLink>();
  documents.forEach((doc, document) => {
    if (typeof doc.value === "object" && doc.value !== null) {
      indexContainers(doc.value, { document, parent: undefined, key: "" }, places);
    }
  });

  const entries: ExplainEntry[] = [];

  /** Where a container first occurs in the inputs (in input order), if it is one of theirs. */
  function placeOf(container: object): Place | undefined {
    const link = places.get(container);
    return link === undefined ? undefined : { document: link.document, path: linkPath(link) };
  }

  function positionIn(document: number, path: readonly PathKey[]) {
    return documents[document]?.positionOf?.(path);
  }

  // The place of an input's value at the same path as the result's (`Place.path` undefined), one per input.
  const samePlace: Place[] = documents.map((_, document) => ({ document, path: undefined }));

  /** Where item or key `step` of a container at `place` is. */
  function placeIn(place: Place, step: PathKey): Place {
    return place.path === undefined
      ? samePlace[place.document]!
      : { document: place.document, path: [...place.path, step] };
  }

  // Single-input contributor lists, shared by every value from that input.
  const single: (readonly number[])[] = documents.map((_, document) => Object.freeze([document]));

  function originAt(document: number, path: readonly PathKey[]): ExplainOrigin {
    const at = positionIn(document, path);
    const origin = { document, name: documents[document]!.name, path, line: at?.line, column: at?.column };
    const detail = documents[document]!.detailOf?.(path);
    return detail === undefined ? origin : { ...origin, detail };
  }

  /** The decisions of the events recorded at a node's path, in merge order (one per event, shared). */
  function historyOf(node: EventNode | undefined): readonly ExplainDecision[] {
    if (node?.events === undefined) return NONE;
    node.decisions ??= node.events.map((event) => newDecision(event, false));
    return node.decisions;
  }

  function newDecision(event: TraceEvent, inherited: boolean): ExplainDecision {
    const at = event.document === undefined ? undefined : positionIn(event.document, event.path);
    return {
      action: event.action,
      merger: event.merger,
      document: event.document,
      name: event.document === undefined ? undefined : documents[event.document]?.name,
      line: at?.line,
      column: at?.column,
      detail: event.detail,
      inherited,
    };
  }

  // Where the current result path is in each input that has it: the node there and its path in that input. Mostly
  // the same path; list items that moved (appended, prepended, matched by a key) are followed to their own index.
  type Sources = readonly Source[];

  function scalarOrigin(
    value: unknown,
    sources: Sources,
    here: readonly PathKey[],
  ): ExplainOrigin | undefined {
    for (let i = sources.length - 1; i >= 0; i--) {
      const source = sources[i]!;
      if (sameValue(source.node, value)) return originAt(source.document, source.path ?? here);
    }
    return undefined;
  }

  function childSources(sources: Sources, key: PathKey): Sources {
    let out: Source[] | undefined;
    for (const source of sources) {
      const node = source.node;
      if (isMapping(node) && hasItem(node, key)) {
        const path = source.path === undefined ? undefined : [...source.path, key];
        out ??= [];
        out.push({ document: source.document, node: getItem(node, key), path });
      }
    }
    return out ?? NONE;
  }

  // For the items of a list that is not one input's list: which input (and index there) each item came from, and
  // where each item's contents sit in every input.
  function listItems(
    list: readonly unknown[],
    sources: Sources,
    listPath: readonly PathKey[],
  ): { place: Place | undefined; sources: Source[] }[] {
    const candidates: ListCandidate[] = [];
    for (const source of sources) {
      if (!Array.isArray(source.node)) continue;
      const items = source.node as unknown[];
      candidates.push({
        document: source.document,
        path: source.path,
        items,
        unused: items.length > SHORT_LIST ? scalarQueues(items) : undefined,
        usedMask: 0,
      });
    }
    return list.map((item, index) => {
      let place: Place | undefined;
      const container = isContainer(item);
      if (container) place = placeOf(item as object);
      else {
        // Each input's equal items are used once, in order: linear in the list, whatever its length.
        for (const candidate of candidates) {
          const at = takeEqual(candidate, item);
          if (at !== undefined) {
            place =
              candidate.path === undefined && at === index
                ? samePlace[candidate.document]!
                : { document: candidate.document, path: [...(candidate.path ?? listPath), at] };
            break;
          }
        }
      }
      const inner: Source[] = [];
      if (container) {
        for (const candidate of candidates) {
          const at = isMapping(item) ? matchItem(item, candidate.items, index) : index;
          if (at >= 0 && at < candidate.items.length) {
            inner.push({
              document: candidate.document,
              node: candidate.items[at],
              path:
                candidate.path === undefined && at === index
                  ? undefined
                  : [...(candidate.path ?? listPath), at],
            });
          }
        }
      }
      return { place, sources: inner };
    });
  }

  // The event nodes of the enclosing paths, nearest last: a value without events of its own was decided when one
  // of its ancestors was (added whole, appended with its list).
  const ancestors: (EventNode | undefined)[] = [];

  /** The nearest enclosing decision made while merging `document` (any document when undefined), as inherited. */
  function inheritedFor(document: number | undefined): ExplainDecision | undefined {
    for (let level = ancestors.length - 1; level >= 0; level--) {
      const node = ancestors[level];
      const list = node?.events;
      if (list === undefined) continue;
      for (let i = list.length - 1; i >= 0; i--) {
        if (document === undefined || list[i]!.document === document) {
          node!.inherited ??= list.map((event) => newDecision(event, true));
          return node!.inherited[i];
        }
      }
    }
    return undefined;
  }

  // Where an input's value for the result path `here` (a copy) was: its own path there, or `here` when it had none.
  function pathIn(document: number, sources: Sources, here: readonly PathKey[]): readonly PathKey[] {
    return sources.find((candidate) => candidate.document === document)?.path ?? here;
  }

  // Inputs something of the result was traced to.
  const used: Inputs = { low: 0, high: undefined };
  const inputLists = new Map<number, readonly number[]>();

  // What the other inputs had at this mapping key and the result does not hold. A container taken whole from one
  // input (`whole`) means every other input's container there was left out; containers merged from several inputs
  // lost nothing as such (their values say what lost).
  function losses(
    value: unknown,
    sources: Sources,
    winner: number | undefined,
    here: readonly PathKey[],
  ): readonly ExplainLoss[] {
    if (sources.length === 0) return NONE;
    const container = Array.isArray(value) || isMapping(value);
    let out: ExplainLoss[] | undefined;
    for (const source of sources) {
      // What the input had there before its own last value lost first, the winning input's included.
      out = ownLosses(source.document, source.path ?? here, out);
      if (source.document === winner) continue;
      const node = source.node;
      const isList = Array.isArray(node);
      const isDict = !isList && isMapping(node);
      if (isList || isDict) {
        if (node === value) continue;
        if (container && (winner === undefined || isEmpty(node) || pyEquals(node, value))) continue;
        out ??= [];
        out.push({ origin: originAt(source.document, source.path ?? here), kind: isList ? "list" : "dict" });
      } else if (!sameValue(node, value)) {
        out ??= [];
        out.push({ origin: originAt(source.document, source.path ?? here), kind: "value", value: node });
      }
    }
    return out ?? NONE;
  }

  // The values an input replaced itself at a path (its `lostOf`), as losses with their own detail, added to `out`
  // (made when there is a first one).
  function ownLosses(
    document: number,
    path: readonly PathKey[],
    out: ExplainLoss[] | undefined,
  ): ExplainLoss[] | undefined {
    const earlier = documents[document]!.lostOf?.(path);
    if (earlier === undefined || earlier.length === 0) return out;
    const { detail: _, ...place } = originAt(document, path);
    const list = out ?? [];
    for (const loser of earlier) {
      const origin = loser.detail === undefined ? place : { ...place, detail: loser.detail };
      const node = loser.value;
      if (Array.isArray(node)) list.push({ origin, kind: "list" });
      else if (isMapping(node)) list.push({ origin, kind: "dict" });
      else list.push({ origin, kind: "value", value: node });
    }
    return list;
  }

  const ordered = keyOrder ?? ((keys: readonly PathKey[]) => keys);

  function open(
    value: unknown,
    isList: boolean,
    path: PathKey[],
    here: readonly PathKey[],
    node: EventNode | undefined,
    whole: Place | undefined,
    sources: Sources,
    inList: boolean,
    into: Inputs,
    own: readonly TraceEvent[] | undefined,
    history: readonly ExplainDecision[],
  ): Frame {
    // Reserve the container's place so entries come out in document order, parents first.
    const slot = entries.length;
    entries.push(undefined as unknown as ExplainEntry);
    ancestors.push(node);
    return {
      value,
      isList,
      keys: isList ? undefined : ordered(mappingKeys(value as Mapping)),
      index: 0,
      path,
      here,
      node,
      whole,
      matched: isList && whole === undefined ? listItems(value as unknown[], sources, here) : undefined,
      sources,
      inList,
      into,
      contributors: { low: 0, high: undefined },
      slot,
      own,
      history,
    };
  }

  /** Visits the next child of a container; false when there is none left. */
  function visitChild(frame: Frame): boolean {
    const { path, whole, matched } = frame;
    const index = frame.index++;
    if (frame.isList) {
      const items = frame.value as unknown[];
      if (index >= items.length) return false;
      const place = whole === undefined ? matched![index]!.place : placeIn(whole, index);
      path.push(index);
      const inner = matched?.[index]?.sources ?? NONE;
      visit(items[index], path, childNode(frame.node, index), place, inner, true, frame.contributors);
      path.pop();
      return true;
    }
    const keys = frame.keys!;
    if (index >= keys.length) return false;
    const key = keys[index]!;
    const place = whole === undefined ? undefined : placeIn(whole, key);
    path.push(key);
    const child = getItem(frame.value as Mapping, key);
    const inner = childSources(frame.sources, key);
    visit(child, path, childNode(frame.node, key), place, inner, false, frame.contributors);
    path.pop();
    return true;
  }

  /** Fills in a container's entry once its children are done. */
  function close(frame: Frame): void {
    const { whole, contributors, own, here, history } = frame;
    const last = own?.[own.length - 1];
    ancestors.pop();
    if (whole !== undefined) addInput(contributors, whole.document);
    const decision = last === undefined ? inheritedFor(whole?.document) : history[history.length - 1];
    entries[frame.slot] = {
      path: here,
      kind: frame.isList ? "list" : "dict",
      origin: whole === undefined ? undefined : originAt(whole.document, whole.path ?? here),
      contributors: inputList(contributors, inputLists),
      decision,
      history,
      // A container replaced whole at this path (`__: overwrite`) lost every other input's container there.
      lost: frame.inList
        ? NONE
        : losses(
            frame.value,
            frame.sources,
            whole?.document ?? (last?.action === "replaced" ? last.document : undefined),
            here,
          ),
    };
    addInputs(used, contributors);
    addInputs(frame.into, contributors);
  }

  // A container a merger replaced whole with an input's own (the last decision at its path) that is a copy of it, not
  // the object itself (a fold that copies what it merges into): taken whole from that input all the same, so its
  // items are not matched against other inputs' equal items, whose containers lost.
  function replacedBy(value: unknown, last: TraceEvent | undefined, sources: Sources): Place | undefined {
    if (last?.action !== "replaced" || last.document === undefined) return undefined;
    const source = sources.find((candidate) => candidate.document === last.document);
    if (source === undefined || !pyEquals(source.node, value)) return undefined;
    return source.path === undefined ? samePlace[source.document] : source;
  }

  // `inList`: the last step of `path` is a list index (a number may also be an int key of a mapping). `node` holds
  // the events recorded at `path`, found a step at a time by the callers. The inputs the value came from are added
  // to `into` (its parent's contributors): no set of its own for each scalar.
  function visit(
    value: unknown,
    path: PathKey[],
    node: EventNode | undefined,
    taken: Place | undefined,
    sources: Sources,
    inList: boolean,
    into: Inputs,
  ): void {
    const own = node?.events;
    const last = own?.[own.length - 1];
    const history = historyOf(node);
    const isList = Array.isArray(value);
    const isDict = !isList && isMapping(value);
    // The entry's path, and the path of every input's value that sits at the same place.
    const here = path.slice();

    let whole = taken;
    if (whole === undefined && (isList || isDict)) {
      whole = placeOf(value as object) ?? replacedBy(value, last, sources);
      // Taken whole from the same path of an input (the usual case): its values need no paths of their own.
      if (whole?.path !== undefined && sameSteps(whole.path, here)) whole = samePlace[whole.document];
    }
    if (isList || isDict) {
      const frame = open(value, isList, path, here, node, whole, sources, inList, into, own, history);
      while (visitChild(frame));
      close(frame);
      return;
    }

    let origin: ExplainOrigin | undefined;
    if (taken !== undefined) origin = originAt(taken.document, taken.path ?? here);
    else if (!inList) origin = scalarOrigin(value, sources, here);
    // An input without a value here is named at the result's path (`here`, a copy: the walk's `path` changes on).
    if (origin === undefined && last?.document !== undefined) {
      origin = originAt(last.document, pathIn(last.document, sources, here));
    }
    const decision = last === undefined ? inheritedFor(origin?.document) : history[history.length - 1];
    if (origin === undefined && decision?.document !== undefined) {
      origin = originAt(decision.document, pathIn(decision.document, sources, here));
    }
    if (origin !== undefined) {
      addInput(into, origin.document);
      addInput(used, origin.document);
    }
    entries.push({
      path: here,
      kind: "value",
      value,
      origin,
      contributors: origin === undefined ? NONE : single[origin.document]!,
      decision,
      history,
      // An item of a list has no rival in other inputs, but the input it came from may have replaced its own value.
      lost: inList
        ? origin === undefined
          ? NONE
          : (ownLosses(origin.document, origin.path, undefined) ?? NONE)
        : losses(value, sources, origin?.document, here),
    });
  }

  const rootPath: PathKey[] = [];
  const rootSources = documents.map((doc, document) => ({ document, node: doc.value, path: undefined }));
  const rootInto: Inputs = { low: 0, high: undefined };
  // The root while it is visited a child at a time (`begin`, `step`).
  let root: Frame | undefined;

  return {
    entries,
    /** Visits the whole result. */
    all(): void {
      visit(result, rootPath, tree, undefined, rootSources, false, rootInto);
    },
    /** Starts a visit a child at a time: a scalar result is done at once. */
    begin(): void {
      const isList = Array.isArray(result);
      if (!isList && !isMapping(result)) {
        visit(result, rootPath, tree, undefined, rootSources, false, rootInto);
        return;
      }
      // What visit does for a container, up to its first child.
      const own = tree.events;
      const history = historyOf(tree);
      let whole = placeOf(result as object);
      if (whole?.path !== undefined && whole.path.length === 0) whole = samePlace[whole.document];
      root = open(result, isList, rootPath, [], tree, whole, rootSources, false, rootInto, own, history);
    },
    /** Visits the root's next child; false (with the root's entry made) when there is none left. */
    step(): boolean {
      if (root === undefined) return false;
      if (visitChild(root)) return true;
      close(root);
      root = undefined;
      return false;
    },
    /** Once the visit is done: the inputs and the removals. */
    summary(): Omit<Explanation, "entries"> {
      const removed: ExplainRemoval[] = removals.map((event) => {
        const decision = newDecision(event, false);
        const items = removedItems(result, event, documents);
        return items === undefined ? { path: event.path, decision } : { path: event.path, decision, items };
      });
      return {
        documents: documents.map((doc, index) => {
          const contributed = hasInput(used, index) || decided.has(index);
          return doc.note === undefined
            ? { index, name: doc.name, contributed }
            : { index, name: doc.name, note: doc.note, contributed };
        }),
        removed,
      };
    },
  };
}

/**
 * For a removal at a path that still holds a list in the result, the items were removed, not the key: the items the
 * removing input listed there (PillarStack's `__: remove` list, its directive item left out). Undefined otherwise.
 */
function removedItems(
  result: unknown,
  event: TraceEvent,
  documents: readonly ExplainDocument[],
): unknown[] | undefined {
  if (!Array.isArray(valueAt(result, event.path))) return undefined;
  const source = event.document === undefined ? undefined : documents[event.document];
  const listed = source === undefined ? undefined : valueAt(source.value, event.path);
  if (!Array.isArray(listed)) return [];
  return listed.filter((item) => !isDirective(item));
}

/** `{__: remove}` and the like: a mapping whose only key is `__`. */
function isDirective(item: unknown): boolean {
  if (!isMapping(item)) return false;
  const keys = mappingKeys(item);
  return keys.length === 1 && keys[0] === "__";
}

function valueAt(root: unknown, path: readonly PathKey[]): unknown {
  let node = root;
  for (const step of path) {
    if (Array.isArray(node) && typeof step === "number") node = node[step];
    else if (isMapping(node) && hasItem(node, step)) node = getItem(node, step);
    else return undefined;
  }
  return node;
}

function isEmpty(node: unknown): boolean {
  return Array.isArray(node) ? node.length === 0 : isMapping(node) && mappingKeys(node).length === 0;
}

/**
 * Where a container of an input is: its parent's link and its key there. Made for every container of every input,
 * so no path of its own until one is asked for (`placeOf`).
 */
interface PlaceLink {
  readonly document: number;
  readonly parent: PlaceLink | undefined;
  readonly key: PathKey;
}

function indexContainers(value: unknown, link: PlaceLink, places: Map<object, PlaceLink>): void {
  if (Array.isArray(value)) {
    if (!places.has(value)) places.set(value, link);
    value.forEach((item, index) => {
      if (typeof item === "object" && item !== null) {
        indexContainers(item, { document: link.document, parent: link, key: index }, places);
      }
    });
  } else if (isMapping(value)) {
    if (!places.has(value)) places.set(value, link);
    for (const key of mappingKeys(value)) {
      const item = getItem(value, key);
      if (typeof item === "object" && item !== null) {
        indexContainers(item, { document: link.document, parent: link, key }, places);
      }
    }
  }
}

/** The path a link stands for. */
function linkPath(link: PlaceLink): PathKey[] {
  const path: PathKey[] = [];
  for (let at: PlaceLink | undefined = link; at?.parent !== undefined; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * A set of input indexes without a Set for each container: one bit each for the first 30 inputs (what nearly every
 * merge has), a Set for the rest.
 */
interface Inputs {
  low: number;
  high: Set<number> | undefined;
}

const LOW_INPUTS = 30;

function addInput(inputs: Inputs, document: number): void {
  if (document < LOW_INPUTS) inputs.low |= 1 << document;
  else {
    inputs.high ??= new Set();
    inputs.high.add(document);
  }
}

function addInputs(into: Inputs, from: Inputs): void {
  into.low |= from.low;
  if (from.high !== undefined) for (const document of from.high) addInput(into, document);
}

function hasInput(inputs: Inputs, document: number): boolean {
  return document < LOW_INPUTS ? (inputs.low & (1 << document)) !== 0 : inputs.high?.has(document) === true;
}

/**
 * The indexes in ascending order. `lists` keeps the lists of the first inputs by their bits: one list for every
 * container with the same contributors.
 */
function inputList(inputs: Inputs, lists: Map<number, readonly number[]>): readonly number[] {
  if (inputs.high === undefined) {
    let list = lists.get(inputs.low);
    if (list === undefined) {
      const made: number[] = [];
      for (let document = 0; document < LOW_INPUTS; document++) {
        if ((inputs.low & (1 << document)) !== 0) made.push(document);
      }
      list = Object.freeze(made);
      lists.set(inputs.low, list);
    }
    return list;
  }
  const made: number[] = [];
  for (let document = 0; document < LOW_INPUTS; document++) {
    if ((inputs.low & (1 << document)) !== 0) made.push(document);
  }
  return made.concat([...inputs.high].sort((a, b) => a - b));
}

/** An input's list that items of a result list may have come from. */
interface ListCandidate {
  readonly document: number;
  readonly path: readonly PathKey[] | undefined;
  readonly items: readonly unknown[];
  /** For a long list, its scalar items' indexes by value, each taken once (`scalarQueues`). */
  readonly unused: Map<unknown, number[]> | undefined;
  /** For a short list, the indexes already taken, one bit each. */
  usedMask: number;
}

// Lists up to this long are searched item by item (a bit per item says it was taken): no map of their values.
const SHORT_LIST = 16;

/** The first index of an item of the candidate's list equal to `item` and not taken yet, which it takes. */
function takeEqual(candidate: ListCandidate, item: unknown): number | undefined {
  const key = scalarKey(item);
  if (candidate.unused !== undefined) return candidate.unused.get(key)?.shift();
  const items = candidate.items;
  for (let at = 0; at < items.length; at++) {
    if ((candidate.usedMask & (1 << at)) !== 0 || isContainer(items[at])) continue;
    const other = scalarKey(items[at]);
    // As a Map compares keys (SameValueZero): NaN finds NaN.
    if (other === key || (Number.isNaN(other) && Number.isNaN(key))) {
      candidate.usedMask |= 1 << at;
      return at;
    }
  }
  return undefined;
}

/** Indexes of the scalar items of a list by value (a Date by its time), in order. */
function scalarQueues(items: readonly unknown[]): Map<unknown, number[]> {
  const queues = new Map<unknown, number[]>();
  items.forEach((item, index) => {
    if (isContainer(item)) return;
    const key = scalarKey(item);
    const queue = queues.get(key);
    if (queue === undefined) queues.set(key, [index]);
    else queue.push(index);
  });
  return queues;
}

/** Lists and mappings; dates and whole floats are scalars although they are objects. */
function isContainer(value: unknown): boolean {
  return (
    typeof value === "object" && value !== null && !(value instanceof Date) && !(value instanceof PyFloat)
  );
}

function scalarKey(value: unknown): unknown {
  if (value instanceof Date) return `date:${value.getTime()}`;
  return value instanceof PyFloat ? `float:${value.value}` : value;
}

// Beyond this many items, mappings in a list are followed by index only: the scan would be quadratic.
const MATCH_SCAN_LIMIT = 200;

/** The item of an input's list that a mapping of the result corresponds to (see `bestMatch`). */
function matchItem(item: Mapping, items: readonly unknown[], index: number): number {
  if (items.length > MATCH_SCAN_LIMIT) return index < items.length ? index : -1;
  return bestMatch(item, items);
}

/**
 * The mapping of `items` most like `item`: the one sharing the most equal scalar fields, so an item merged by a key
 * (`name: web`) is followed to its own place in each input. A key both hold a mapping (or both a list) at counts
 * less than an equal field, so items made only of mappings (a database level made a list) are followed too. -1 when
 * none shares anything.
 */
function bestMatch(item: Mapping, items: readonly unknown[]): number {
  let best = -1;
  let bestScore = 0;
  items.forEach((other, index) => {
    if (!isMapping(other)) return;
    let score = 0;
    for (const key of mappingKeys(other)) {
      if (!hasItem(item, key)) continue;
      const value = getItem(other, key);
      const mine = getItem(item, key);
      if (!isContainer(value)) {
        if (sameValue(mine, value)) score += 2;
      } else if (Array.isArray(value) ? Array.isArray(mine) : isMapping(value) && isMapping(mine)) {
        score += 1;
      }
    }
    if (score > bestScore) {
      best = index;
      bestScore = score;
    }
  });
  return best;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  return a instanceof PyFloat && b instanceof PyFloat && Object.is(a.value, b.value);
}

/** Whether two paths are the very same keys (a float key read twice is two objects: not the same here). */
function sameSteps(a: readonly PathKey[], b: readonly PathKey[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The node for `path`, made with every node above it where missing. */
function eventNodeAt(root: EventNode, path: readonly PathKey[]): EventNode {
  let node = root;
  for (const step of path) {
    let next: EventNode | undefined;
    if (typeof step === "object" && step !== null) {
      const id = stepKey(step);
      node.objects ??= new Map();
      next = node.objects.get(id);
      if (next === undefined) {
        next = emptyNode();
        node.objects.set(id, next);
      }
    } else {
      node.steps ??= new Map();
      next = node.steps.get(step);
      if (next === undefined) {
        next = emptyNode();
        node.steps.set(step, next);
      }
    }
    node = next;
  }
  return node;
}

function emptyNode(): EventNode {
  return {
    events: undefined,
    decisions: undefined,
    inherited: undefined,
    steps: undefined,
    objects: undefined,
  };
}

/**
 * The node one step below `node`. Steps are told apart as `stepKey` tells them (`8080` and `"8080"`, a list index
 * and an int key alike): a Map keeps primitives apart the same way, and objects go by their `stepKey`.
 */
function childNode(node: EventNode | undefined, step: PathKey): EventNode | undefined {
  if (node === undefined) return undefined;
  if (typeof step === "object" && step !== null) return node.objects?.get(stepKey(step));
  return node.steps?.get(step);
}

/** An object step as a map key: its type and text (`1.0` as a float key). */
function stepKey(step: PathKey): string {
  return `${typeof step}:${String(step)}`;
}
