// checkPlugin: the static checks, then each property driven by fast-check with a fixed seed. The first failure is
// shrunk to a small case and thrown as a PluginCheckError that prints the spec, the inputs and how to replay it.
import {
  createRegistry,
  isMergeError,
  type MergeHandlers,
  type Merger,
  type MergerPlugin,
  type Registry,
  type TraceSink,
} from "@merge/core";
import fc from "fast-check";
import { PluginCheckError } from "./failure.js";
import {
  checkInPlace,
  checkMerge,
  checkRenamed,
  checkTrace,
  PROPERTY_NAMES,
  type PropertyName,
  renameClashes,
  type Subject,
  Violation,
} from "./properties.js";
import { hostileValues, SAMPLE_STRINGS, sampleExactValues, sampleValues } from "./samples.js";
import { handlerProblems, shapeProblems } from "./shape.js";
import { HOSTILE_KEYS } from "./hostile.js";

/** The seed used unless one is given: every run of the suite checks the same cases. */
export const DEFAULT_SEED = 1515;
/** Cases per property unless `numRuns` says otherwise. */
export const DEFAULT_RUNS = 200;
/** Free option values tried for a plugin with `freeOptions`, unless `freeValues` says otherwise. */
export const DEFAULT_FREE_VALUES: readonly string[] = Object.freeze([
  "name",
  "a",
  "constructor",
  "__proto__",
]);

/** A pair of values merged with a given option set before the generated cases. */
export interface CheckExample {
  readonly options?: readonly string[];
  readonly base: unknown;
  readonly incoming: unknown;
}

export interface CheckPluginOptions {
  /**
   * The option sets to test, each as written between the parentheses of a spec (`["name", "replace"]`). Default:
   * random subsets of the listed options (plus, with `freeOptions`, one of `freeValues`); a random set the plugin
   * refuses with a MergeError when the merger is created is skipped.
   */
  readonly options?: readonly (readonly string[])[];
  /** Free option values to try (default `DEFAULT_FREE_VALUES`); only for plugins with `freeOptions`. */
  readonly freeValues?: readonly string[];
  /** Plugins the spec needs next to this one (a mapping merger for a list plugin); registered after it. */
  readonly companions?: readonly MergerPlugin[];
  /** What follows the plugin's entry in every spec; default each companion without options (`dict()+str()`). */
  readonly companionSpec?: string;
  /**
   * Values shaped for this plugin (lists of mappings with a key field, values with directives), merged alongside
   * the kit's own samples: an arbitrary from the `fc` this package exports, or a list of values.
   */
  readonly samples?: fc.Arbitrary<unknown> | readonly unknown[];
  /** Cases always checked first. */
  readonly examples?: readonly CheckExample[];
  /** The plugin builds strings from the characters of input strings (concatenation, iterating a string). */
  readonly derivedStrings?: boolean;
  /** Cases per property (default `DEFAULT_RUNS`). */
  readonly numRuns?: number;
  /** fast-check seed (default `DEFAULT_SEED`). */
  readonly seed?: number;
  /** Replays one failing case: the `path` printed by a failure (`merge:4:1:0`); only that check then runs. */
  readonly path?: string;
  /** Run only these properties. */
  readonly only?: readonly PropertyName[];
  /** Leave these properties out (say why in your test). */
  readonly skip?: readonly PropertyName[];
}

export interface CheckReport {
  readonly plugin: string;
  /** The properties that were checked (not skipped, and applicable: in-place-equals-pure needs inPlace handlers). */
  readonly checked: readonly PropertyName[];
  /** Generated cases run, over all checks. */
  readonly cases: number;
}

/** The checks that drive generated cases, each with the properties it tests. */
const CHECKS = {
  merge: ["inputs-unchanged", "merge-errors-only", "hostile-keys-as-data", "input-values-only"],
  renamed: ["hostile-keys-as-data"],
  "in-place": ["in-place-equals-pure", "inputs-unchanged"],
  trace: ["trace-paths"],
} as const satisfies Record<string, readonly PropertyName[]>;
type CheckName = keyof typeof CHECKS;

/** A spec the plugin refused when the merger was created (a random option set it does not accept). */
class Refused extends Error {}

/**
 * Runs the conformance suite on a merger plugin and throws a `PluginCheckError` describing the first property that
 * does not hold; returns what was checked otherwise. Synchronous and runner-agnostic: call it inside a test of
 * vitest, node:test, jest or anything else.
 */
export function checkPlugin(plugin: MergerPlugin, options: CheckPluginOptions = {}): CheckReport {
  const name = typeof plugin?.name === "string" ? plugin.name : String(plugin?.name);
  const enabled = new Set<PropertyName>(options.only ?? PROPERTY_NAMES);
  for (const property of options.skip ?? []) enabled.delete(property);
  for (const property of enabled) {
    if (!PROPERTY_NAMES.includes(property)) {
      throw new TypeError(
        `checkPlugin: unknown property "${property}"; properties: ${PROPERTY_NAMES.join(", ")}`,
      );
    }
  }
  const fail = (property: PropertyName, problems: readonly string[], spec?: string): never => {
    throw new PluginCheckError({
      plugin: name,
      property,
      problem: problems.length === 1 ? problems[0]! : `${problems.length} problems`,
      spec,
      details: problems.length === 1 ? [] : problems.map((problem) => `- ${problem}`),
    });
  };

  const shape = shapeProblems(plugin);
  if (shape.length > 0 && (enabled.has("options-described") || !registrable(plugin))) {
    fail("options-described", shape);
  }
  const checked: PropertyName[] = enabled.has("options-described") ? ["options-described"] : [];

  // Every plugin is wrapped so the handlers its create() returns can be looked at.
  let created: { plugin: MergerPlugin; handlers: MergeHandlers }[] = [];
  const observe = (original: MergerPlugin): MergerPlugin => ({
    ...original,
    create(createOptions, context) {
      const handlers = original.create(createOptions, context);
      created.push({ plugin: original, handlers });
      return handlers;
    },
  });
  const companions = options.companions ?? [];
  let registry: Registry;
  try {
    registry = createRegistry([observe(plugin), ...companions.map(observe)]);
  } catch (error) {
    throw new TypeError(`checkPlugin: the companions cannot be registered with ${name}: ${String(error)}`);
  }
  const tail = options.companionSpec ?? companions.map((companion) => `${companion.name}()`).join("+");
  const specFor = (set: readonly string[]) => `${name}(${set.join(",")})${tail === "" ? "" : `+${tail}`}`;

  const mergers = new Map<string, Merger>();
  const inPlace = new Map<string, boolean>();
  const resolve = (spec: string, trace?: TraceSink): Merger => {
    if (trace === undefined) {
      const known = mergers.get(spec);
      if (known !== undefined) return known;
    }
    created = [];
    let merger: Merger;
    try {
      merger = registry.resolve(spec, { trace });
    } catch (error) {
      if (isMergeError(error) && error.code === "INVALID_PLUGIN" && enabled.has("kinds-handled")) {
        throw new Violation("kinds-handled", error.message, spec, []);
      }
      throw new Refused(isMergeError(error) ? `${error.code}: ${error.message}` : String(error));
    }
    if (!inPlace.has(spec)) {
      const own = created.find((entry) => entry.plugin === plugin);
      const problems = own === undefined ? [] : handlerProblems(plugin, own.handlers);
      if (problems.length > 0 && enabled.has("kinds-handled")) {
        throw new Violation("kinds-handled", problems.join("; "), spec, []);
      }
      const hasInPlace = created.some((entry) =>
        Object.values(entry.handlers.inPlace ?? {}).some((handler) => typeof handler === "function"),
      );
      inPlace.set(spec, hasInPlace);
    }
    if (trace === undefined) mergers.set(spec, merger);
    return merger;
  };
  const subject: Subject = {
    registry,
    resolve,
    hasInPlace: (spec) => {
      resolve(spec);
      return inPlace.get(spec) === true;
    },
    derivedStrings: options.derivedStrings === true,
    enabled,
  };

  // The fixed specs must resolve before anything is generated.
  const fixed = options.options ?? [[]];
  for (const set of fixed) {
    const spec = specFor(set);
    try {
      resolve(spec);
    } catch (error) {
      if (error instanceof Violation) fail(error.property, [error.problem], spec);
      const hint =
        options.options === undefined ? "; give the option sets to test with { options: [...] }" : "";
      fail("options-described", [`the spec ${spec} does not resolve (${(error as Error).message})${hint}`]);
    }
  }
  if (enabled.has("kinds-handled")) checked.push("kinds-handled");

  const specs: fc.Arbitrary<string> =
    options.options !== undefined
      ? fc.constantFrom(...options.options).map(specFor)
      : fc
          .tuple(
            fc.subarray(Object.keys(plugin.options)),
            plugin.freeOptions === undefined
              ? fc.constant(undefined)
              : fc.option(fc.constantFrom(...(options.freeValues ?? DEFAULT_FREE_VALUES)), {
                  nil: undefined,
                }),
          )
          .map(([set, free]) => specFor(free === undefined ? set : [free, ...set]));
  const own = ownSamples(options.samples);
  // A case merges values of one model: plain objects (the kit's samples, the hostile payloads, the author's own
  // samples) or the exact one (PyDicts and PyFloats), as a real pipeline never mixes the two.
  const plainValues = fc.oneof(
    { arbitrary: sampleValues(), weight: 3 },
    { arbitrary: hostileValues(), weight: 1 },
    ...(own === undefined ? [] : [{ arbitrary: own, weight: 3 }]),
  );
  const exactValues = sampleExactValues();
  const pairs = fc.oneof(
    { arbitrary: fc.tuple(specs, plainValues, plainValues), weight: 3 },
    { arbitrary: fc.tuple(specs, exactValues, exactValues), weight: 2 },
  );
  const safeStrings = SAMPLE_STRINGS.filter((text) => !HOSTILE_KEYS.includes(text));
  const renameValues = fc.oneof(
    { arbitrary: sampleValues({ keys: ["a", "name", ...HOSTILE_KEYS], strings: safeStrings }), weight: 3 },
    ...(own === undefined ? [] : [{ arbitrary: own, weight: 1 }]),
  );
  const examples = (options.examples ?? []).map(
    (example) =>
      [specFor(example.options ?? fixed[0]!), example.base, example.incoming] as [string, unknown, unknown],
  );

  const seed = options.seed ?? DEFAULT_SEED;
  const numRuns = options.numRuns ?? DEFAULT_RUNS;
  const replay = parseReplay(options.path);
  let cases = 0;
  const run = <T extends unknown[]>(
    check: CheckName,
    arbitrary: fc.Arbitrary<T>,
    body: (...args: T) => void,
    caseExamples: T[] = [],
  ): void => {
    if (replay !== undefined && replay.check !== check) return;
    const property = fc.property(arbitrary, (args) => {
      try {
        body(...args);
      } catch (error) {
        if (error instanceof Refused) fc.pre(false);
        throw error;
      }
    });
    const details = fc.check(property, {
      seed,
      numRuns,
      path: replay?.path,
      examples: caseExamples.map((example) => [example] as [T]),
    });
    cases += details.numRuns;
    if (!details.failed) return;
    const error = details.errorInstance;
    const path = details.counterexamplePath === null ? undefined : `${check}:${details.counterexamplePath}`;
    if (error instanceof Violation) {
      throw new PluginCheckError(
        {
          plugin: name,
          property: error.property,
          problem: error.problem,
          spec: error.spec,
          inputs: error.inputs,
          details: error.details,
          seed: details.seed,
          path,
        },
        { cause: error },
      );
    }
    const reason = error instanceof Error ? error.message : `${details.numSkips} cases skipped, none run`;
    throw new PluginCheckError(
      {
        plugin: name,
        property: CHECKS[check][0],
        problem: `the check could not run: ${reason}`,
        seed: details.seed,
        path,
      },
      { cause: error },
    );
  };

  const active = (check: CheckName) => CHECKS[check].some((property) => enabled.has(property));
  if (active("merge")) {
    run("merge", pairs, (spec, base, incoming) => checkMerge(subject, spec, base, incoming), examples);
    for (const property of CHECKS.merge)
      if (enabled.has(property) && !checked.includes(property)) checked.push(property);
  }
  if (enabled.has("hostile-keys-as-data")) {
    const usable = examples.filter(([spec, base, incoming]) => !renameClashes(spec, [base, incoming]));
    run(
      "renamed",
      fc.tuple(specs, renameValues, renameValues),
      (spec, base, incoming) => {
        if (renameClashes(spec, [base, incoming])) return;
        checkRenamed(subject, spec, base, incoming);
      },
      usable,
    );
  }
  if (enabled.has("in-place-equals-pure") && [...fixed].some((set) => subject.hasInPlace(specFor(set)))) {
    const fold = (values: fc.Arbitrary<unknown>, exact: boolean) =>
      fc.tuple(
        specs,
        fc.option(values, { nil: undefined }),
        fc.array(values, { minLength: 1, maxLength: 3 }),
        fc.constant(exact),
      );
    const folds = fc.oneof(
      { arbitrary: fold(plainValues, false), weight: 3 },
      { arbitrary: fold(exactValues, true), weight: 2 },
    );
    run("in-place", folds, (spec, initial, list, exact) => {
      if (subject.hasInPlace(spec)) checkInPlace(subject, spec, initial, list, exact);
    });
    checked.push("in-place-equals-pure");
  }
  if (enabled.has("trace-paths")) {
    run("trace", pairs, (spec, base, incoming) => checkTrace(subject, spec, base, incoming), examples);
    checked.push("trace-paths");
  }
  return { plugin: name, checked, cases };
}

function registrable(plugin: MergerPlugin): boolean {
  try {
    createRegistry([plugin]);
    return true;
  } catch {
    return false;
  }
}

function ownSamples(samples: CheckPluginOptions["samples"]): fc.Arbitrary<unknown> | undefined {
  if (samples === undefined) return undefined;
  if (Array.isArray(samples)) return samples.length === 0 ? undefined : fc.constantFrom(...samples);
  return samples as fc.Arbitrary<unknown>;
}

function parseReplay(path: string | undefined): { check: CheckName; path: string } | undefined {
  if (path === undefined) return undefined;
  const colon = path.indexOf(":");
  const check = path.slice(0, colon);
  if (colon < 0 || !Object.hasOwn(CHECKS, check)) {
    throw new TypeError(
      `checkPlugin: path ${JSON.stringify(path)} is not one printed by a failure (${Object.keys(CHECKS).join(", ")}:...)`,
    );
  }
  return { check: check as CheckName, path: path.slice(colon + 1) };
}
