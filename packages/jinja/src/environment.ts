// The nunjucks environment and template classes behind createRenderer: templates compiled by our compiler and run
// with our runtime, names resolved in the config's directory, imports rendered once per config run, YAML parsed
// through @merge/yaml and JSON through @merge/core's `parseJson` (both into the exact model), with a cache of parsed
// texts. Files are read through the renderer's `TemplateFileSystem` (files.ts).
import { isAbsolute, join, resolve, sep } from "node:path";
import { hasOwn, parseJson, PyDict } from "@merge/core";
import type { RenderAccount } from "./budget.js";
import { type CompileNames, compileTemplate } from "./compiler.js";
import { constEvaluator } from "./const-eval.js";
import { decodeBinary } from "./decode-bytes.js";
import { type LookupMiss, TemplateProblem } from "./errors.js";
import { jinjaSyntaxError } from "./jinja-syntax.js";
import { isInside, readTemplateText, type TemplateFileInfo, type TemplateFileSystem } from "./files.js";
import { NjEnvironment, type NjAny, NjTemplate } from "./nunjucks-internals.js";
import { pyStr } from "./pyvalues.js";
import { decodeErrorMessage, hasJinja } from "./redact.js";
import { pyRuntime } from "./runtime.js";
import { loadSaltYaml, saltYamlFilter } from "./yaml-bridge.js";

/** Jinja's lexer: newlines normalised to `\n`, and one trailing newline dropped (`keep_trailing_newline=False`). */
export function jinjaSource(text: string): string {
  const s = text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
  return s.endsWith("\n") ? s.slice(0, -1) : s;
}

const PARSE_CACHE_SIZE = 512;

/** A fresh copy of parsed data (dicts and lists; scalars and other objects are immutable here). */
function copyData(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyData);
  if (value instanceof PyDict) {
    const out = new PyDict();
    for (const [k, v] of value) out.set(k, copyData(v));
    return out;
  }
  return value;
}

/** Runs a compiled root or block function with our runtime, whatever runtime nunjucks passes. */
function wrapRender(fn: NjAny): NjAny {
  const wrapped = (env: NjAny, context: NjAny, frame: NjAny, _runtime: NjAny, cb: NjAny) =>
    fn(env, context, frame, pyRuntime, cb);
  Object.defineProperty(wrapped, "pyCompiled", { value: fn });
  return wrapped;
}

/**
 * A template that does not compile, as a `TEMPLATE_SYNTAX` problem worded and placed as Jinja words and places it
 * (jinja-syntax.ts reads the text again for that); nunjucks' own message and position stay for the rare template
 * that only nunjucks refuses.
 */
function syntaxProblem(e: unknown, file: string, src: string, names: CompileNames): TemplateProblem {
  if (e instanceof TemplateProblem) return e;
  const jinja = jinjaSyntaxError(src, names);
  if (jinja !== undefined) {
    return new TemplateProblem(jinja.message, {
      code: "TEMPLATE_SYNTAX",
      file,
      line: jinja.line,
      column: jinja.column,
      cause: e,
    });
  }
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

/**
 * Keeps the code templates compile to, so that another renderer (another process: the CLI keeps it on disk) skips
 * compiling a text it has seen. `get` returns what `set` was given for the same key, or undefined.
 *
 * A key holds everything the code depends on (the template's name and text, the filters and tests known, the
 * options that change the output) except the engine's own code: a store must not outlive the engine that filled it.
 * Code from a store is run as it is, so it must come from a place only its user can write to.
 */
export interface CompiledTemplateStore {
  get(key: string): string | undefined;
  set(key: string, code: string): void;
}

// Bumped when what a key covers, or the form of the code compiled for it, changes.
const KEY_FORMAT = "merge-jinja-9";

/**
 * The part of a stored template's key that is the same for every template of a renderer: the options that change the
 * code. The filters and tests a template may name come from the built-in tables, which `flavor` and `strictSalt`
 * choose (and the engine's own code, which a store must not outlive, fixes).
 */
export function compiledKeyPrefix(options: {
  readonly saltTags: boolean;
  readonly strictSalt: boolean;
  readonly trimBlocks: boolean;
  readonly undefinedText: boolean;
}): string {
  const { saltTags, strictSalt, trimBlocks, undefinedText } = options;
  return JSON.stringify([KEY_FORMAT, { saltTags, strictSalt, trimBlocks, undefinedText }]);
}

function compiledKey(prefix: string, name: string, text: string): string {
  return `${prefix}\n${JSON.stringify(name)}\n${text}`;
}

/** The template functions of stored code, or undefined when there is none or it does not run. */
function storedTemplate(store: CompiledTemplateStore, key: string): NjAny {
  const code = store.get(key);
  if (code === undefined) return undefined;
  try {
    const props = new Function(code)();
    return typeof props?.root === "function" ? props : undefined;
  } catch {
    // Not code this engine made (a store that outlived it): compiled afresh, and stored again.
    return undefined;
  }
}

/**
 * What one config run (one host, one config: PillarStack renders a config and its files in one Jinja environment)
 * keeps for the templates it renders.
 */
export class RenderSession {
  /** Template names resolved (`\0tpl\0name` → path) and the texts of files imported without context (path → text). */
  readonly texts = new Map<string, string>();
  /**
   * The modules of templates imported without context: Jinja makes a template's module once per `Template` and keeps
   * it (`_get_default_module`), so every import in the run gets the same values (a mapping one file changes in place
   * is changed for the next file that imports it).
   */
  readonly modules = new Map<object, unknown>();
  /** The run's `__stack__`, which a template may change (`update`) for this run only. */
  stackGlobal: Record<string, unknown> | undefined;
}

export class PyTemplate extends NjTemplate {
  constructor(...args: unknown[]) {
    super(...args);
  }

  /** An import's module: made once per run and template when imported without context (`RenderSession.modules`). */
  getExported(this: NjAny, ...args: unknown[]): unknown {
    const state = this.env.pyState as RenderState | undefined;
    const cb = args[0];
    if (args.length !== 1 || typeof cb !== "function" || state === undefined)
      return super.getExported(...args);
    state.session ??= this.env.pySessionFor(state.vars, state.cfgPath) as RenderSession;
    const modules = state.session.modules;
    if (modules.has(this)) return cb(null, modules.get(this));
    return super.getExported((err: unknown, exported: unknown) => {
      if (err === null || err === undefined) modules.set(this, exported);
      cb(err, exported);
    });
  }

  _compile(this: NjAny): void {
    this.env.pyCompiled++;
    const store = this.env.pyCodeStore as CompiledTemplateStore | undefined;
    const key = store === undefined ? "" : compiledKey(this.env.pyNamesKey, this.path, this.tmplStr);
    let props = store === undefined ? undefined : storedTemplate(store, key);
    if (props === undefined) {
      let code: string;
      try {
        code = compileTemplate(
          this.tmplStr,
          this.path,
          this.env.pyNames as CompileNames,
          constEvaluator(this.env),
        );
      } catch (e) {
        throw syntaxProblem(e, this.path, this.tmplStr, this.env.pyNames as CompileNames);
      }
      props = new Function(code)();
      store?.set(key, code);
    }
    const blocks: Record<string, unknown> = {};
    for (const k of Object.keys(props)) if (k.startsWith("b_")) blocks[k.slice(2)] = wrapRender(props[k]);
    this.blocks = blocks;
    this.rootRenderFunc = wrapRender(props.root);
    this.compiled = true;
  }
}

export interface FileEntry {
  /** The file's modification time and size when its file system tells them (see `TemplateFileInfo`). */
  readonly mtimeMs: number | undefined;
  readonly size: number | undefined;
  readonly template: NjAny;
}

export interface RenderState {
  cfgDir: string;
  cfgPath: string;
  file: string;
  vars: Record<string, unknown>;
  /** What this config run keeps; looked up only when a template imports something. */
  session: RenderSession | undefined;
  /** What this render has spent of its limits. */
  account: RenderAccount;
  /** The latest lookups that found nothing, for Jinja's message when their undefined value is used (errors.ts). */
  misses?: LookupMiss[];
}

export class PyEnvironment extends NjEnvironment {
  constructor(...args: unknown[]) {
    super(...args);
  }

  declare pyNames: CompileNames;
  declare pyState: RenderState | undefined;
  declare pyFiles: Map<string, FileEntry>;
  /** Where template files are read from. */
  declare pyFs: TemplateFileSystem;
  declare pyCompiled: number;
  /** Where compiled templates are kept between renderers, if anywhere; `pyNamesKey` starts their keys. */
  declare pyCodeStore: CompiledTemplateStore | undefined;
  declare pyNamesKey: string;
  declare pyParsed: Map<string, { value: unknown }>;
  declare pySessionFor: (vars: Record<string, unknown>, cfgPath: string) => RenderSession;
  /** No template loader: `include`, `import`, `from` and `extends` fail as in a Jinja environment without one. */
  declare pyNoLoader: boolean | undefined;
  /** What printing passes each value through when compiled with `undefinedText` (see `CompileNames`). */
  declare pyUndefinedText: ((value: unknown, name: string) => unknown) | undefined;

  /** A filter by name, for `map('name')` and the like: an unknown one is Jinja's runtime error. */
  getFilter(name: string): (...args: unknown[]) => unknown {
    const filters = (this as unknown as { filters: Record<string, (...args: unknown[]) => unknown> }).filters;
    if (!hasOwn(filters, name)) throw new TemplateProblem(`No filter named '${name}'.`);
    return filters[name] as (...args: unknown[]) => unknown;
  }

  /** A test by name, for `select('name')` and the like: an unknown one is Jinja's runtime error. */
  getTest(name: string): (...args: unknown[]) => unknown {
    const tests = (this as unknown as { tests: Record<string, (...args: unknown[]) => unknown> }).tests;
    if (!hasOwn(tests, name)) throw new TemplateProblem(`No test named '${name}'.`);
    return tests[name] as (...args: unknown[]) => unknown;
  }

  /** Resolves a template name as Jinja's FileSystemLoader would, inside the config's directory. */
  pyResolve(name: string): string | undefined {
    const state = this.pyState as RenderState;
    let rel = name;
    if (isAbsolute(name)) {
      const inside = resolve(name);
      if (isInside(inside, state.cfgDir, sep))
        rel = inside.slice(state.cfgDir.length + (state.cfgDir.endsWith(sep) ? 0 : 1));
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
    // Jinja's error for an environment without a loader (a TypeError in Python).
    if (this.pyNoLoader === true) throw new TemplateProblem("no loader for this environment specified");
    const state = this.pyState as RenderState;
    state.session ??= this.pySessionFor(state.vars, state.cfgPath);
    const key = `\0tpl\0${name}`;
    const seen = state.session.texts.get(key);
    if (seen !== undefined) {
      const entry = this.pyFiles.get(seen);
      if (entry !== undefined) return entry.template;
    }
    const template = this.pyLoadFromDisk(name);
    state.session.texts.set(key, template.path);
    return template;
  }

  pyLoadFromDisk(name: string): NjAny {
    const path = this.pyResolve(name);
    if (path === undefined)
      throw new TemplateProblem(`TemplateNotFound: ${name} (paths may not leave the config directory)`);
    const fs = this.pyFs;
    let st: TemplateFileInfo | undefined;
    try {
      st = fs.stat(path);
    } catch {
      st = undefined;
    }
    if (st === undefined) throw new TemplateProblem(`TemplateNotFound: ${name}`);
    if (!st.isFile()) throw new TemplateProblem(`TemplateNotFound: ${name} is not a file`);
    // Beyond Salt: a symlink inside the config directory may not lead out of it.
    const state = this.pyState as RenderState;
    const real = fs.realpath(path);
    const realDir = fs.realpath(state.cfgDir);
    if (real !== realDir && !isInside(real, realDir, sep)) {
      throw new TemplateProblem(`TemplateNotFound: ${name} (it resolves outside the config directory)`);
    }
    const cached = this.pyFiles.get(path);
    const { mtimeMs, size } = st;
    const dated = mtimeMs !== undefined && size !== undefined;
    if (dated && cached !== undefined && cached.mtimeMs === mtimeMs && cached.size === size)
      return cached.template;
    const text = jinjaSource(readTemplateText(fs, path));
    // A file system that tells no dates: the text read again decides whether the compiled template still fits.
    if (!dated && cached !== undefined && cached.template.tmplStr === text) return cached.template;
    const template = new PyTemplate(text, this, path, true);
    this.pyFiles.set(path, { mtimeMs, size, template });
    return template;
  }

  getTemplate(name: unknown, _eager: unknown, _parent: unknown, ignoreMissing: unknown, cb?: NjAny): NjAny {
    if (typeof cb !== "function" && typeof ignoreMissing === "function") cb = ignoreMissing;
    let template: NjAny;
    if (name instanceof NjTemplate) template = name;
    else if (Array.isArray(name)) {
      // A list of names (Jinja's select_template): the first that exists.
      for (const candidate of name) {
        try {
          template = this.getTemplate(candidate, _eager, _parent, false);
          break;
        } catch (e) {
          if (!(e instanceof TemplateProblem && e.message.startsWith("TemplateNotFound"))) throw e;
        }
      }
      if (template === undefined) {
        if (ignoreMissing !== true) {
          throw new TemplateProblem(
            `TemplatesNotFound: none of the templates given were found: ${name.map((n) => pyStr(n)).join(", ")}`,
          );
        }
        template = new PyTemplate("", this, "", true);
      }
    } else {
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
  pyImport(kind: string, name: string, context: NjAny, withContext: boolean, frame?: NjAny): unknown {
    const state = this.pyState as RenderState;
    const template = this.pyLoad(name);
    let text: string;
    if (withContext) text = template.render(context.getVariables(), frame);
    else {
      state.session ??= this.pySessionFor(state.vars, state.cfgPath);
      const cached = state.session.texts.get(template.path);
      if (cached !== undefined) text = cached;
      else {
        text = template.render({});
        state.session.texts.set(template.path, text);
      }
    }
    return this.pyParse(kind, text, template.path, !hasJinja(template.tmplStr));
  }

  pyParse(kind: string, text: string, file?: string, literal = false): unknown {
    if (kind === "text") return text;
    // Parsing is the costly part of an import; the same text parses to the same data, so keep the result and
    // hand out copies (a template may change what it imported).
    const key = `${kind}\0${text}`;
    const hit = this.pyParsed.get(key);
    if (hit !== undefined) return copyData(hit.value);
    const value = this.pyParseUncached(kind, text, file, literal);
    if (this.pyParsed.size >= PARSE_CACHE_SIZE) this.pyParsed.clear();
    this.pyParsed.set(key, { value });
    return copyData(value);
  }

  pyParseUncached(kind: string, text: string, file?: string, literal = false): unknown {
    const where = file ?? (this.pyState as RenderState).file;
    if (kind === "json") {
      try {
        return parseJson(text);
      } catch (e) {
        throw new TemplateProblem(decodeErrorMessage(kind, where, e, literal));
      }
    }
    let value: unknown;
    try {
      value = loadSaltYaml(text, where);
    } catch (e) {
      throw new TemplateProblem(decodeErrorMessage(kind, where, e, literal));
    }
    // Salt's load_yaml decodes what PyYAML read (`salt.utils.data.decode`): a `!!binary` value is text.
    return decodeBinary(value);
  }

  pyYaml(value: unknown, flowStyle: unknown): string {
    return saltYamlFilter(value, flowStyle);
  }
}
