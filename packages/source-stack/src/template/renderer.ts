// createRenderer: one nunjucks environment with the Jinja/Salt compatibility of this folder, compiling each
// template once and rendering it for many hosts. Templates resolve `import`/`include`/`import_yaml` names
// relative to the directory of the config file being processed, like Salt's FileSystemLoader(basedir).
import { readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve, sep } from "node:path";
import { isMergeError, MergeError, setKey } from "@merge/core";
import { type CompileNames, compileTemplate } from "./compiler.js";
import { TemplateProblem } from "./errors.js";
import { jinjaFilters, jinjaTests, saltFilters } from "./filters.js";
import { NjEnvironment, type NjAny, NjTemplate } from "./nunjucks-internals.js";
import { isDict, pyStr } from "./pyvalues.js";
import { Namespace, pyRuntime } from "./runtime.js";
import { saltBuiltins, traverse } from "./salt.js";
import { loadSaltYaml, saltYamlFilter } from "./yaml-bridge.js";

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
}

export interface Renderer {
  /**
   * Renders template text `source` read from `file` with `vars` (`stack`, `pillar`, `minion_id`, `__opts__`,
   * `__grains__`, ...). `cfgPath` is the config file whose directory template names are relative to.
   * Throws a `MergeError` (`TEMPLATE_SYNTAX`, `TEMPLATE_RENDER`) with the file, line and column.
   */
  render(source: string, file: string, vars: Record<string, unknown>, cfgPath: string): string;
  /** How many template texts this renderer has compiled (each file once while its text stays the same). */
  readonly compiledCount: number;
}

/** Jinja's lexer: newlines normalised to `\n`, and one trailing newline dropped (`keep_trailing_newline=False`). */
export function jinjaSource(text: string): string {
  const s = text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
  return s.endsWith("\n") ? s.slice(0, -1) : s;
}

const PER_RENDER = new Set(["stack", "ymlpath"]);
const PARSE_CACHE_SIZE = 512;

/** A fresh copy of parsed data (dicts and lists; scalars and other objects are immutable here). */
function copyData(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyData);
  if (isDict(value)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value)) setKey(out, k, copyData(value[k]));
    return out;
  }
  return value;
}

function wrapRender(fn: NjAny): NjAny {
  return (env: NjAny, context: NjAny, frame: NjAny, _runtime: NjAny, cb: NjAny) =>
    fn(env, context, frame, pyRuntime, cb);
}

function syntaxProblem(e: unknown, file: string): TemplateProblem {
  if (e instanceof TemplateProblem) return e;
  const err = e as { message?: string; lineno?: number; colno?: number };
  const message = String(err?.message ?? e).replace(/^\(unknown path\)\s*(\[Line \d+, Column \d+\])?\s*/, "");
  return new TemplateProblem(message, {
    code: "TEMPLATE_SYNTAX",
    file,
    line: err?.lineno,
    column: err?.colno,
    cause: e,
  });
}

class PyTemplate extends NjTemplate {
  constructor(...args: unknown[]) {
    super(...args);
  }

  _compile(this: NjAny): void {
    this.env.pyCompiled++;
    let code: string;
    try {
      code = compileTemplate(this.tmplStr, this.path, this.env.pyNames as CompileNames);
    } catch (e) {
      throw syntaxProblem(e, this.path);
    }
    const props = new Function(code)();
    const blocks: Record<string, unknown> = {};
    for (const k of Object.keys(props)) if (k.startsWith("b_")) blocks[k.slice(2)] = wrapRender(props[k]);
    this.blocks = blocks;
    this.rootRenderFunc = wrapRender(props.root);
    this.compiled = true;
  }
}

interface FileEntry {
  readonly mtimeMs: number;
  readonly size: number;
  readonly template: NjAny;
}

interface RenderState {
  cfgDir: string;
  cfgPath: string;
  file: string;
  vars: Record<string, unknown>;
  /** Rendered import texts of this config run; looked up only when a template imports something. */
  session: Map<string, string> | undefined;
}

class PyEnvironment extends NjEnvironment {
  constructor(...args: unknown[]) {
    super(...args);
  }

  declare pyNames: CompileNames;
  declare pyState: RenderState | undefined;
  declare pyFiles: Map<string, FileEntry>;
  declare pyCompiled: number;
  declare pyParsed: Map<string, { value: unknown }>;
  declare pySessionFor: (vars: Record<string, unknown>, cfgPath: string) => Map<string, string>;

  /** Resolves a template name as Jinja's FileSystemLoader would, inside the config's directory. */
  pyResolve(name: string): string | undefined {
    const state = this.pyState as RenderState;
    let rel = name;
    if (isAbsolute(name)) {
      const inside = resolve(name);
      if (inside.startsWith(state.cfgDir + sep)) rel = inside.slice(state.cfgDir.length + 1);
    }
    const pieces: string[] = [];
    for (const piece of rel.split("/")) {
      if (piece === "..") return undefined;
      if (piece !== "" && piece !== ".") pieces.push(piece);
    }
    if (pieces.length === 0) return undefined;
    return join(state.cfgDir, ...pieces);
  }

  /**
   * The template `name` refers to. Within one config run (host and config) a name is resolved and checked on disk
   * once; the next run checks again (by size and mtime) and recompiles a file that changed.
   */
  pyLoad(name: string): NjAny {
    const state = this.pyState as RenderState;
    state.session ??= this.pySessionFor(state.vars, state.cfgPath);
    const key = `\0tpl\0${name}`;
    const seen = state.session.get(key);
    if (seen !== undefined) {
      const entry = this.pyFiles.get(seen);
      if (entry !== undefined) return entry.template;
    }
    const template = this.pyLoadFromDisk(name);
    state.session.set(key, template.path);
    return template;
  }

  pyLoadFromDisk(name: string): NjAny {
    const path = this.pyResolve(name);
    if (path === undefined)
      throw new TemplateProblem(`TemplateNotFound: ${name} (paths may not leave the config directory)`);
    let st: { mtimeMs: number; size: number; isFile(): boolean };
    try {
      st = statSync(path);
    } catch {
      throw new TemplateProblem(`TemplateNotFound: ${name}`);
    }
    if (!st.isFile()) throw new TemplateProblem(`TemplateNotFound: ${name} is not a file`);
    // Beyond Salt: a symlink inside the config directory may not lead out of it.
    const state = this.pyState as RenderState;
    const real = realpathSync(path);
    const realDir = realpathSync(state.cfgDir);
    if (real !== realDir && !real.startsWith(realDir + sep)) {
      throw new TemplateProblem(`TemplateNotFound: ${name} (it resolves outside the config directory)`);
    }
    const cached = this.pyFiles.get(path);
    if (cached !== undefined && cached.mtimeMs === st.mtimeMs && cached.size === st.size)
      return cached.template;
    const text = jinjaSource(readFileSync(path, "utf8"));
    const template = new PyTemplate(text, this, path, true);
    this.pyFiles.set(path, { mtimeMs: st.mtimeMs, size: st.size, template });
    return template;
  }

  getTemplate(name: unknown, _eager: unknown, _parent: unknown, ignoreMissing: unknown, cb?: NjAny): NjAny {
    if (typeof cb !== "function" && typeof ignoreMissing === "function") cb = ignoreMissing;
    let template: NjAny;
    if (name instanceof NjTemplate) template = name;
    else {
      if (typeof name !== "string")
        throw new TemplateProblem(`template name must be a string, not ${pyStr(name)}`);
      try {
        template = this.pyLoad(name);
      } catch (e) {
        if (
          ignoreMissing === true &&
          e instanceof TemplateProblem &&
          e.message.startsWith("TemplateNotFound")
        ) {
          template = new PyTemplate("", this, name, true);
        } else throw e;
      }
    }
    if (typeof cb === "function") {
      cb(null, template);
      return undefined;
    }
    return template;
  }

  /** `import_yaml`/`import_json`/`import_text`: render the file (once per session without context), then parse. */
  pyImport(kind: string, name: string, context: NjAny, withContext: boolean): unknown {
    const state = this.pyState as RenderState;
    const template = this.pyLoad(name);
    let text: string;
    if (withContext) text = template.render(context.getVariables());
    else {
      state.session ??= this.pySessionFor(state.vars, state.cfgPath);
      const cached = state.session.get(template.path);
      if (cached !== undefined) text = cached;
      else {
        text = template.render({});
        state.session.set(template.path, text);
      }
    }
    return this.pyParse(kind, text, template.path);
  }

  pyParse(kind: string, text: string, file?: string): unknown {
    if (kind === "text") return text;
    // Parsing is the costly part of an import; the same text parses to the same data, so keep the result and
    // hand out copies (a template may change what it imported).
    const key = `${kind}\0${text}`;
    const hit = this.pyParsed.get(key);
    if (hit !== undefined) return copyData(hit.value);
    const value = this.pyParseUncached(kind, text, file);
    if (this.pyParsed.size >= PARSE_CACHE_SIZE) this.pyParsed.clear();
    this.pyParsed.set(key, { value });
    return copyData(value);
  }

  pyParseUncached(kind: string, text: string, file?: string): unknown {
    const where = file ?? (this.pyState as RenderState).file;
    if (kind === "json") {
      try {
        return JSON.parse(text.replace(/\bNaN\b|-?\bInfinity\b/g, "null"));
      } catch (e) {
        throw new TemplateProblem(`Unable to load json from ${where}: ${(e as Error).message}`, { cause: e });
      }
    }
    try {
      return loadSaltYaml(text, where);
    } catch (e) {
      const msg = isMergeError(e) ? e.message : String((e as Error)?.message ?? e);
      throw new TemplateProblem(`Encountered error loading yaml from ${where}: ${msg}`, { cause: e });
    }
  }

  pyYaml(value: unknown, flowStyle: unknown): string {
    return saltYamlFilter(value, flowStyle);
  }
}

/** Jinja's `cycler(...)`: `next()` returns the items in turn, `current` the one `next()` will return. */
class Cycler {
  private index = 0;
  constructor(private readonly items: readonly unknown[]) {}
  get current(): unknown {
    return this.items[this.index];
  }
  next(): unknown {
    const value = this.items[this.index];
    this.index = (this.index + 1) % Math.max(1, this.items.length);
    return value;
  }
  reset(): null {
    this.index = 0;
    return null;
  }
}

function baseGlobals(): Record<string, unknown> {
  return {
    range: (start: number, stop?: number, step = 1) => {
      const [a, b] = stop === undefined ? [0, start] : [start, stop];
      const out: number[] = [];
      if (step > 0) for (let i = a; i < b; i += step) out.push(i);
      else if (step < 0) for (let i = a; i > b; i += step) out.push(i);
      return out;
    },
    dict: (...args: unknown[]) => {
      const out: Record<string, unknown> = {};
      for (const a of args)
        if (isDict(a)) for (const k of Object.keys(a)) if (k !== "__keywords") out[k] = a[k];
      return out;
    },
    cycler: (...items: unknown[]) => new Cycler(items),
    joiner: (sep: unknown = ", ") => {
      let first = true;
      return () => {
        if (first) {
          first = false;
          return "";
        }
        return sep;
      };
    },
    namespace: (...args: unknown[]) => {
      const init: Record<string, unknown> = {};
      for (const a of args)
        if (isDict(a)) for (const k of Object.keys(a)) if (k !== "__keywords") init[k] = a[k];
      return new Namespace(init);
    },
  };
}

/** Creates a renderer; keep one per loader so every template compiles once for all hosts. */
export function createRenderer(options: RendererOptions = {}): Renderer {
  const env = new PyEnvironment([], { autoescape: false, dev: true, throwOnUndefined: false }) as NjAny;
  const filters = { ...jinjaFilters(), ...saltFilters(options.strictSalt === true) };
  const tests = jinjaTests();
  env.filters = Object.create(null);
  env.tests = Object.create(null);
  for (const [k, f] of Object.entries(filters)) env.addFilter(k, f);
  for (const [k, t] of Object.entries(tests)) env.addTest(k, t);
  env.pyNames = {
    filters: new Set(Object.keys(filters)),
    tests: new Set(Object.keys(tests)),
  } satisfies CompileNames;
  env.pyFiles = new Map<string, FileEntry>();
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
    }),
    ...(options.salt ?? {}),
  };
  const stackObjects = new Map<string, Record<string, unknown>>();
  const topLevel = new Map<string, { source: string; template: NjAny }>();
  const sessions = new WeakMap<object, Map<string, Map<string, string>>>();

  const sessionFor = (vars: Record<string, unknown>, cfgPath: string): Map<string, string> => {
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
      session = new Map();
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

  const render = (source: string, file: string, vars: Record<string, unknown>, cfgPath: string): string => {
    let entry = topLevel.get(file);
    if (entry === undefined || entry.source !== source) {
      const previous = env.pyState;
      env.pyState = { cfgDir: cfgDirOf(cfgPath), cfgPath, file, vars, session: new Map() };
      try {
        entry = { source, template: new PyTemplate(jinjaSource(source), env, file, true) };
      } catch (e) {
        throw toMergeError(e, file);
      } finally {
        env.pyState = previous;
      }
      topLevel.set(file, entry);
    }
    const globals = Object.create(env.globals);
    const ctx: Record<string, unknown> = {};
    for (const k of Object.keys(vars)) {
      if (PER_RENDER.has(k)) ctx[k] = vars[k];
      else globals[k] = vars[k];
    }
    // Salt passes `ymlpath` to the stack's YAML files, not to the config template itself.
    if (!("ymlpath" in ctx) && file !== cfgPath && resolve(file) !== resolve(cfgPath)) ctx.ymlpath = file;
    globals.__salt__ = salt;
    let stackObj = stackObjects.get(cfgPath);
    if (stackObj === undefined) {
      stackObj = { traverse, cfg_path: cfgPath };
      stackObjects.set(cfgPath, stackObj);
    }
    globals.__stack__ = stackObj;
    const previous = { state: env.pyState, globals: env.globals };
    env.pyState = { cfgDir: cfgDirOf(cfgPath), cfgPath, file, vars, session: undefined };
    env.globals = globals;
    try {
      return entry.template.render(ctx) as string;
    } catch (e) {
      throw toMergeError(e, file);
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
