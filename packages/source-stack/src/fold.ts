import {
  cloneTree,
  createRegistry,
  getItem,
  isMapping,
  type Mapping,
  mappingKeys,
  type Merger,
  normalizeSpec,
  PyDict,
  type Registry,
  type SpecInput,
} from "@merge/core";
import {
  createStackAccumulator,
  isStackStrategy,
  type StackAccumulator,
  type StackStrategy,
  stackMerger,
} from "@merge/strategies-stack";

/** How the loader folds parsed YAML mappings into the data merged so far. */
export interface StackFold {
  /** The data merged so far; templates see it as `stack` and may change it. */
  readonly value: Mapping;
  /**
   * Merges a document. `shared`: the document holds no container twice and nobody changes it (the loader's cache);
   * the fold may then keep its values uncopied until `own()`.
   */
  merge(doc: Mapping, shared?: boolean): void;
  /**
   * Called before a template that may change `stack` renders, so that what it does to `stack` and the merges after
   * it act as in Salt: the accumulator copies what `value` still shares with documents merged `shared` (the
   * cache's); a spec fold, which keeps documents' containers by identity for `--explain`, looks at its next merge for
   * those the template put in a second place and changes them in place from then on.
   */
  own(): void;
}

/**
 * Picks the fold for a spec. Without a spec, or with a lone `stack(...)` and no custom registry, the in-place
 * accumulator of `@merge/strategies-stack` runs (Salt's semantics, linear in the input). Any other spec is resolved
 * through the registry and applied to a copy of each document, so the result never shares a node with the parse
 * cache (templates may change `stack`). The fold starts from an empty `PyDict`: the stack is computed in the exact
 * model.
 */
export function createFoldFactory(
  spec: SpecInput | undefined,
  registry: Registry | undefined,
  maxDepth: number | undefined,
): () => StackFold {
  const strategy = spec === undefined ? "merge-last" : loneStackStrategy(spec, registry);
  if (strategy !== undefined) {
    // inPlace: what a template put in `stack` is this host's own, and Salt changes it in place (a mapping a template
    // put under two keys shows a merge into either under both).
    return () =>
      new AccumulatorFold(createStackAccumulator({ strategy, maxDepth, exact: true, inPlace: true }));
  }
  // Without a registry of the caller's, only the stack merger is known, so `stack(bogus)` fails as it should.
  const merger = (registry ?? createRegistry([stackMerger()])).resolve(
    spec!,
    maxDepth === undefined ? {} : { maxDepth },
  );
  return () => new SpecFold(merger);
}

/**
 * A fold through a resolved merger. `value` is a plain property: a getter written in an object literal made per host
 * would give each fold a hidden class of its own, holding the getter's closure and through it the host's stack past
 * the young-generation collections (see the `Accumulator` class of @merge/strategies-stack).
 *
 * It folds in place, as the accumulator does and as Salt does: a mapping the merge made or a template put in `stack`
 * is changed where it is, so a mapping the stack holds under two keys shows a merge into either under both. A
 * document's containers join the stack as they are, so that `--explain` can tell a container taken whole from a file
 * by its identity, and are copied before their first change; except those the stack holds twice (a template put one
 * under a second key, or a YAML alias did), which are the stack's own from then on, as in Salt.
 */
class SpecFold implements StackFold {
  value: Mapping = new PyDict();
  private readonly fromDocuments = new WeakSet<object>();
  private readonly owned: Set<object>;
  // Whether the stack may hold a document's container twice: a template that may reach `stack` rendered, or a
  // document held one twice, since the last look.
  private mayShare = false;

  constructor(private readonly merger: Merger) {
    this.owned = new StackOwned(this.fromDocuments);
    this.owned.add(this.value);
  }

  // Every document is copied, shared or not: a template may change `stack`, and with it what the merge took.
  merge(doc: Mapping): void {
    if (this.mayShare) this.ownSharedContainers();
    const copy = cloneTree(doc);
    // A document holding a container twice (a YAML alias) may leave it in the stack twice.
    eachContainerOnce(copy, this.fromDocuments, () => {
      this.mayShare = true;
    });
    this.value = this.merger.mergeInto(this.value, copy, this.owned) as Mapping;
  }

  own(): void {
    this.mayShare = true;
  }

  /** Makes the documents' containers the stack reaches more than once the stack's own (changed in place). */
  private ownSharedContainers(): void {
    this.mayShare = false;
    eachContainerOnce(this.value, new Set(), (container) => this.fromDocuments.delete(container));
  }
}

/**
 * The containers a fold may change in place: the mappings it made (added as the engine copies), and any other mapping
 * that is not a document's and not frozen, i.e. one a template put in `stack`. Never a list: Salt makes a new list at
 * every list merge (`stack + obj`), so a list a template put under a second key keeps what it held.
 */
class StackOwned extends Set<object> {
  constructor(private readonly fromDocuments: WeakSet<object>) {
    super();
  }

  override has(value: object): boolean {
    if (Array.isArray(value)) return false;
    if (super.has(value)) return true;
    if (this.fromDocuments.has(value)) return false;
    return !(value instanceof PyDict ? value.isFrozen : Object.isFrozen(value));
  }
}

/**
 * Walks the mappings and lists of `root` without recursion (a document nests up to YAML's limit), adding each to
 * `seen`; one already there is not walked again and is handed to `repeated`.
 */
function eachContainerOnce(
  root: unknown,
  seen: Set<object> | WeakSet<object>,
  repeated: (container: object) => void,
): void {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value !== "object" || value === null) continue;
    if (seen.has(value)) {
      repeated(value);
      continue;
    }
    if (Array.isArray(value)) {
      seen.add(value);
      for (const item of value) pending.push(item);
    } else if (isMapping(value)) {
      seen.add(value);
      for (const key of mappingKeys(value)) pending.push(getItem(value, key));
    }
  }
}

/** The in-place accumulator of `@merge/strategies-stack` (a class, for the reason given above). */
class AccumulatorFold implements StackFold {
  constructor(private readonly accumulator: StackAccumulator) {}

  get value(): Mapping {
    return this.accumulator.value;
  }

  // Whether a document was merged `shared` since the last `own()`: only then can `value` share anything.
  private sharing = false;

  merge(doc: Mapping, shared = false): void {
    this.accumulator.merge(doc, shared ? SHARED : undefined);
    if (shared) this.sharing = true;
  }

  own(): void {
    if (!this.sharing) return;
    this.accumulator.own();
    this.sharing = false;
  }
}

const SHARED = { shared: true } as const;

function loneStackStrategy(spec: SpecInput, registry: Registry | undefined): StackStrategy | undefined {
  if (registry !== undefined) return undefined;
  const parsed = normalizeSpec(spec);
  if (parsed.length !== 1 || parsed[0]!.name !== "stack") return undefined;
  const options = parsed[0]!.options.map((option) => option.replaceAll("_", "-"));
  if (options.length === 0) return "merge-last";
  if (options.length === 1 && isStackStrategy(options[0])) return options[0];
  return undefined;
}
