import {
  cloneTree,
  createRegistry,
  type Mapping,
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
  /** Makes `value` share nothing with documents merged `shared` (before a template may change it). */
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
 */
class SpecFold implements StackFold {
  value: Mapping = new PyDict();

  constructor(private readonly merger: Merger) {}

  // Every document is copied, shared or not: a merger may keep what it is given.
  merge(doc: Mapping): void {
    this.value = this.merger.merge(this.value, cloneTree(doc)) as Mapping;
  }

  own(): void {}
}

/** The in-place accumulator of `@merge/strategies-stack` (a class, for the reason given above). */
class AccumulatorFold implements StackFold {
  constructor(private readonly accumulator: StackAccumulator) {}

  get value(): Mapping {
    return this.accumulator.value;
  }

  merge(doc: Mapping, shared = false): void {
    this.accumulator.merge(doc, shared ? SHARED : undefined);
  }

  own(): void {
    this.accumulator.own();
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
