// createRenderer: one environment with the Jinja/Salt compatibility of this folder, compiling each template once and
// rendering it for many hosts, with Salt's globals (`__salt__`, `__stack__`, `ymlpath`) added to the caller's.
import { dirname, resolve } from "node:path";
import { isMergeError, MergeError } from "@merge/core";
import type { CompileNames } from "./compiler.js";
import {
  type CompiledTemplateStore,
  compiledKeyPrefix,
  type FileEntry,
  jinjaSource,
  PyEnvironment,
  PyTemplate,
  RenderSession,
  type RenderState,
} from "./environment.js";
import { TemplateProblem } from "./errors.js";
import { nodeTemplateFiles, type TemplateFileSystem } from "./files.js";
import { RenderAccount, resolveLimits, type TemplateLimits } from "./budget.js";
import { chargedFilter, jinjaFilters, jinjaTests, saltFilters } from "./filters.js";
import { baseGlobals } from "./globals.js";
import type { NjAny } from "./nunjucks-internals.js";
import { opaqueFilter, opaqueTest } from "./opaque-filters.js";
import { plainOpaque, withOpaqueText } from "./opaque.js";
import { saltBuiltins, stackTraverse } from "./salt.js";

/** A warning from a template (`__salt__['log.warning'](...)` and friends). */
export interface TemplateWarning {
  readonly message: string;
  readonly file?: string;
  readonly line?: number;
}

export interface RendererOptions {
  /** The caller's `__salt__` functions, keyed `module.function`; they override the built-ins of the same name. */
  readonly salt?: Record<string, unknown>;
  /** Receives warnings; without it they are dropped. */
  readonly onWarning?: (warning: TemplateWarning) => void;
  /**
   * Exactly the filters real PillarStack templates have: Salt's `yaml_dquote`, `yaml_squote`, `yaml_encode` and
   * `traverse` filters are then unknown (a template using them fails to compile), as under Salt.
   */
  readonly strictSalt?: boolean;
  /**
   * The variables only bbinet's upstream `pillarstack` module defines: `__stack__.cfg_path` (the config file's path)
   * and, in stack YAML files, `ymlpath` (the file's path). Salt's bundled `stack.py` has neither. Default: on,
   * unless `strictSalt` is set.
   */
  readonly upstreamPillarStack?: boolean;
  /**
   * The resources one render may use (characters written, items built, loop iterations and macro calls, nesting);
   * past one of them the render stops with a `TEMPLATE_LIMIT` error. Defaults in `DEFAULT_LIMITS`.
   */
  readonly limits?: TemplateLimits;
  /**
   * `salt` (default): Jinja as Salt runs it, with Salt's filters, its serializer tags (`import_yaml`, `load_json`,
   * ...), `__salt__`, `__stack__` and template files read from the config's directory. `jinja`: a plain Jinja2
   * `Template` with the `do` extension, as cloud-init renders `## template: jinja` parts — only Jinja's own filters,
   * tests and globals, Salt's tags unknown, and no loader (`include`, `import`, `from` and `extends` fail with
   * "no loader for this environment specified", a `TypeError` in Jinja).
   */
  readonly flavor?: "salt" | "jinja";
  /** Jinja's `trim_blocks`: the first newline after a block tag (`%}`) or a comment (`#}`) is dropped. Default off. */
  readonly trimBlocks?: boolean;
  /**
   * What printing an undefined value (`{{ x }}`, `{{ a.b }}`, `{{ a['b'] }}`) writes, given the name looked up last
   * (`x`, `b`); default: nothing, as Jinja's `Undefined` prints. cloud-init's `UndefinedJinjaVariable` prints
   * `CI_MISSING_JINJA_VAR/<name>`. Only printing is affected: an undefined value in an expression (`~`, filters)
   * behaves as without the option.
   */
  readonly undefinedText?: (name: string) => string;
  /**
   * The file system template files are read from: `include`, `import`, `from`, `extends`, `import_yaml`,
   * `import_json` and `import_text`, and what `__salt__['file.file_exists']` and `file.directory_exists` ask.
   * Default: the local one (`nodeTemplateFiles`). `@merge/source-stack`'s `createMemoryFileSystem` gives an
   * in-memory tree. The same checks hold on any file system: names stay inside the config's directory, and a file
   * whose `realpath` leads out of it is refused.
   */
  readonly files?: TemplateFileSystem;
  /**
   * Where compiled templates are kept between renderers (see `CompiledTemplateStore`): a template whose code is there
   * is not compiled again. Default: none, every renderer compiles the texts it renders once.
   */
  readonly compiledTemplates?: CompiledTemplateStore;
}

/** Options of one render. */
export interface RenderOptions {
  /**
   * Read opaque text (values marked with `markOpaque`) as the characters it stands for: comparisons, lookups,
   * conversions and string methods see the plain text, and the pieces string operations return keep their marks.
   * Default false: marks are ordinary private-use characters. See docs/templates.md, "Opaque text".
   */
  readonly opaqueText?: boolean;
}

export interface Renderer {
  /**
   * Renders template text `source` read from `file` with `vars` (`stack`, `pillar`, `minion_id`, `__opts__`,
   * `__grains__`, ...). `cfgPath` is the config file whose directory template names are relative to.
   * Throws a `MergeError` (`TEMPLATE_SYNTAX`, `TEMPLATE_RENDER`) with the file, line and column.
   */
  render(
    source: string,
    file: string,
    vars: Record<string, unknown>,
    cfgPath: string,
    options?: RenderOptions,
  ): string;
  /**
   * How many template texts this renderer has compiled (each file once while its text stays the same and it is among
   * the last 1,000 files rendered).
   */
  readonly compiledCount: number;
}

const PER_RENDER = new Set(["stack", "ymlpath"]);

/**
 * How many top-level templates a renderer keeps compiled, by file; past that, the one rendered longest ago goes. A
 * batch whose every host has a templated file of its own would otherwise keep a compiled template (about 5 KB) per
 * host, for templates that never run again. One dropped and rendered again is compiled again (from
 * `compiledTemplates` when given).
 */
const TOP_LEVEL_KEPT = 1000;

/** Creates a renderer; keep one per loader so every template compiles once for all hosts. */
export function createRenderer(options: RendererOptions = {}): Renderer {
  const env = new PyEnvironment([], { autoescape: false, dev: true, throwOnUndefined: false }) as NjAny;
  const saltOn = options.flavor !== "jinja";
  const filters = saltOn
    ? { ...jinjaFilters(), ...saltFilters(options.strictSalt === true) }
    : jinjaFilters();
  const upstream = options.upstreamPillarStack ?? options.strictSalt !== true;
  const limits = resolveLimits(options.limits);
  const tests = jinjaTests();
  env.filters = Object.create(null);
  env.tests = Object.create(null);
  // Opaque text outside (filters see plain text where they compare), the budget inside (it charges the result).
  for (const [k, f] of Object.entries(filters)) env.addFilter(k, opaqueFilter(k, chargedFilter(k, f)));
  for (const [k, t] of Object.entries(tests)) env.addTest(k, opaqueTest(k, t));
  const undefinedText = options.undefinedText;
  env.pyNames = {
    filters: new Set(Object.keys(filters)),
    tests: new Set(Object.keys(tests)),
    saltTags: saltOn,
    trimBlocks: options.trimBlocks === true,
    undefinedText: undefinedText !== undefined,
  } satisfies CompileNames;
  env.pyCodeStore = options.compiledTemplates;
  if (options.compiledTemplates !== undefined) {
    env.pyNamesKey = compiledKeyPrefix({
      saltTags: saltOn,
      strictSalt: saltOn && options.strictSalt === true,
      trimBlocks: options.trimBlocks === true,
      undefinedText: undefinedText !== undefined,
    });
  }
  env.pyNoLoader = !saltOn;
  if (undefinedText !== undefined) {
    env.pyUndefinedText = (value: unknown, name: string): unknown =>
      value === undefined ? undefinedText(name) : value;
  }
  env.pyFiles = new Map<string, FileEntry>();
  const files = options.files ?? nodeTemplateFiles;
  env.pyFs = files;
  env.pyCompiled = 0;
  env.pyParsed = new Map();
  const base = baseGlobals();
  env.globals = Object.assign(Object.create(null), base);

  const warn = (message: string) => {
    const state = env.pyState as RenderState | undefined;
    options.onWarning?.({ message, file: state?.file });
  };
  const current = () => (env.pyState as RenderState | undefined)?.vars ?? {};
  const salt: Record<string, unknown> = {
    ...saltBuiltins({
      pillar: () => current().pillar,
      grains: () => current().__grains__,
      opts: () => current().__opts__,
      warn,
      files,
    }),
    ...(options.salt ?? {}),
  };
  const topLevel = new Map<string, { source: string; template: NjAny }>();
  const sessions = new WeakMap<object, Map<string, RenderSession>>();

  const sessionFor = (vars: Record<string, unknown>, cfgPath: string): RenderSession => {
    // Salt renders an imported file once per config run; the globals identify the run (host and config).
    const owner = (typeof vars.pillar === "object" && vars.pillar !== null ? vars.pillar : vars) as object;
    let byKey = sessions.get(owner);
    if (byKey === undefined) {
      byKey = new Map();
      sessions.set(owner, byKey);
    }
    const key = `${String(vars.minion_id)}\0${cfgPath}`;
    let session = byKey.get(key);
    if (session === undefined) {
      session = new RenderSession();
      byKey.set(key, session);
    }
    return session;
  };

  env.pySessionFor = sessionFor;
  const cfgDirs = new Map<string, string>();
  const cfgDirOf = (cfgPath: string): string => {
    let d = cfgDirs.get(cfgPath);
    if (d === undefined) {
      d = dirname(resolve(cfgPath));
      cfgDirs.set(cfgPath, d);
    }
    return d;
  };

  const render = (
    source: string,
    file: string,
    vars: Record<string, unknown>,
    cfgPath: string,
    renderOptions?: RenderOptions,
  ): string => {
    let entry = topLevel.get(file);
    if (entry === undefined || entry.source !== source) {
      const previous = env.pyState;
      env.pyState = {
        cfgDir: cfgDirOf(cfgPath),
        cfgPath,
        file,
        vars,
        session: new RenderSession(),
        account: new RenderAccount(limits),
      };
      try {
        entry = { source, template: new PyTemplate(jinjaSource(source), env, file, true) };
      } catch (e) {
        throw toMergeError(e, file);
      } finally {
        env.pyState = previous;
      }
    }
    // Most recently rendered last, so that the first one is the one to drop.
    topLevel.delete(file);
    topLevel.set(file, entry);
    if (topLevel.size > TOP_LEVEL_KEPT) topLevel.delete(topLevel.keys().next().value!);
    const globals = Object.create(env.globals);
    const ctx: Record<string, unknown> = {};
    for (const k of Object.keys(vars)) {
      if (PER_RENDER.has(k)) ctx[k] = vars[k];
      else globals[k] = vars[k];
    }
    if (saltOn) {
      // Upstream PillarStack passes `ymlpath` to the stack's YAML files, not to the config template itself.
      if (upstream && !("ymlpath" in ctx) && file !== cfgPath && resolve(file) !== resolve(cfgPath))
        ctx.ymlpath = file;
      globals.__salt__ = salt;
      // One `__stack__` per config run, as PillarStack makes one for each: a template may change it (`update`), and
      // the next host must not see that.
      const session = sessionFor(vars, cfgPath);
      session.stackGlobal ??= upstream
        ? { traverse: stackTraverse, cfg_path: cfgPath }
        : { traverse: stackTraverse };
      globals.__stack__ = session.stackGlobal;
    }
    const previous = { state: env.pyState, globals: env.globals };
    env.pyState = {
      cfgDir: cfgDirOf(cfgPath),
      cfgPath,
      file,
      vars,
      session: undefined,
      account: new RenderAccount(limits),
    };
    env.globals = globals;
    try {
      const template = entry.template;
      return withOpaqueText(renderOptions?.opaqueText === true, () => template.render(ctx) as string);
    } catch (e) {
      const error = toMergeError(e, file);
      // An error raised on marked text names it as the characters it stands for.
      if (renderOptions?.opaqueText !== true || plainOpaque(error.message) === error.message) throw error;
      throw new MergeError(error.code, plainOpaque(error.message), {
        source: error.source,
        cause: error.cause,
      });
    } finally {
      env.pyState = previous.state;
      env.globals = previous.globals;
    }
  };
  return {
    render,
    get compiledCount(): number {
      return env.pyCompiled as number;
    },
  };
}

function toMergeError(e: unknown, file: string): MergeError {
  if (isMergeError(e)) return e;
  const p =
    e instanceof TemplateProblem ? e : new TemplateProblem(String((e as Error)?.message ?? e), { cause: e });
  return new MergeError(p.code, p.message, {
    source: { file: p.file ?? file, line: p.line, column: p.column },
    cause: p.cause ?? e,
  });
}
