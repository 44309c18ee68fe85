import { isAbsolute, relative, resolve } from "node:path";
import {
  checkTree,
  cloneTree,
  compareCodePoints,
  DEFAULT_MAX_DEPTH,
  type Dict,
  isMapping,
  isMergeError,
  type Mapping,
  MergeError,
  type PyDict,
  type Registry,
  type SpecInput,
  toExact,
  toPlain,
} from "@merge/core";
import {
  decodeYamlValue,
  encodeYamlValue,
  loadYaml,
  loadYamlWithPositions,
  STORED_VALUE_FORMAT,
  YAML_READING_RULES,
} from "@merge/yaml";
import { type StackConfig, configPaths } from "./config.js";
import { nodeFileSystem, StackFiles, type StackFileSystem } from "./files.js";
import { createFoldFactory, type StackFold } from "./fold.js";
import { joinPath, pyGlob, splitPath } from "./glob.js";
import { type StackWarning, stackError } from "./problems.js";
import { isBlank, splitLines } from "./pytext.js";
import type { StackRenderer } from "./renderer.js";
import { findCycle } from "./cycle.js";
import { freezeDocument } from "./freeze.js";
import { renderedYamlError, withTemplateLine } from "./redact.js";
import { type PieceValue, piecesOfDocument, readByPieces } from "./top-level-pieces.js";
import { itemPattern, markHostValues, showItem } from "./taint.js";
import {
  type CompiledTemplateStore,
  createRenderer,
  jinjaSource,
  plainOpaque,
  type TemplateFileSystem,
} from "@merge/jinja";

/** A function callable from templates as `__salt__['mod.fn'](...)`. */
// biome-ignore lint/suspicious/noExplicitAny: Salt functions take and return anything
export type SaltFunction = (...args: any[]) => unknown;

export interface StackLoaderOptions {
  /** The config file(s): a path, a list of paths, or a map of matchers (see `StackConfig`). */
  readonly config: StackConfig;
  /** Directory relative config paths are resolved against. Default `process.cwd()`. */
  readonly cwd?: string;
  /** `__opts__` for every host (a host's own `opts` wins). Default `{}`. */
  readonly opts?: Dict;
  /** Functions templates reach through `__salt__` (keys like `"mine.get"`), next to the built-in pure ones. */
  readonly functions?: Readonly<Record<string, SaltFunction>>;
  /** How YAML mappings are merged. Default `stack()` (PillarStack); any spec of `registry` may be used. */
  readonly spec?: SpecInput;
  /** The registry `spec` is resolved in. Default: one holding only the `stack` merger. */
  readonly registry?: Registry;
  /**
   * Read grains and the minion id in config templates as Salt does: their glob characters are wildcards, their line
   * breaks end config lines, YAML reads their quotes and escapes, and their `/` and `..` are path structure. Unsafe:
   * a minion can then select other hosts' files. Default false: they are opaque text (see docs/security.md), which
   * matches only itself, stays on its line and inside its path segment.
   */
  readonly saltGlobs?: boolean;
  /**
   * The file system the config and YAML files are read from (absolute paths). Default: the local one. Give a tree
   * kept in memory (`createMemoryFileSystem`) or any other source. The renderer this loader makes reads templates' own
   * imports (`import_yaml`, `include`, ...) and answers `file.file_exists` from it too (a `renderer` given here
   * reads what it was made to read).
   */
  readonly files?: StackFileSystem;
  /** Reuse file texts, directory listings and parsed YAML across hosts (default true). */
  readonly cache?: boolean;
  /** Receives each warning as it happens (they are also returned by `load`). */
  readonly onWarning?: (warning: StackWarning) => void;
  /**
   * Told of each file a load depends on, as it goes and for every host, so that it is known even when the load then
   * fails (a watcher must see the file that broke it): each config file and YAML file it reads, and each file the
   * built-in renderer looks at and finds (a template included or imported, by a literal or a computed name; a file
   * `file.file_exists` asked about). Named as `files` names them (a template inside `cwd` relative to it when its
   * config's path is relative). With another `renderer`, templates are not told.
   */
  readonly onFile?: (file: string) => void;
  /** Told of each lookup as it is made (see `StackResult.searched`), even when the load then fails. */
  readonly onLookup?: (lookup: StackLookup) => void;
  /** The template engine. Default: the Jinja-compatible renderer of this package. */
  readonly renderer?: StackRenderer;
  /**
   * Where the built-in renderer keeps compiled templates between loaders (see `CompiledTemplateStore` of
   * `@merge/jinja`; the CLI keeps them on disk). Default: none, each loader compiles every template it renders once.
   */
  readonly compiledTemplates?: CompiledTemplateStore;
  /**
   * Where parsed YAML files are kept between loaders (the CLI keeps them on disk): files of 8 KB or more whose
   * rendered text is their own (plain YAML, or a template that changed nothing). What a template made is never
   * stored, as it may hold the host's pillar values; smaller files parse faster than they are read back. Default:
   * none, each loader parses what it reads.
   */
  readonly parsedDocuments?: ParsedDocumentStore;
  /**
   * Templates get exactly what Salt's bundled PillarStack gives them: Salt filters beyond the serializer
   * extension are unknown, and `__stack__.cfg_path` and `ymlpath` are undefined (see `upstreamPillarStack`).
   */
  readonly strictSalt?: boolean;
  /**
   * Define `__stack__.cfg_path` and `ymlpath`, which only bbinet's upstream `pillarstack` module sets. Default: on,
   * unless `strictSalt` is set.
   */
  readonly upstreamPillarStack?: boolean;
  /** Deepest nesting merged (default 1000). */
  readonly maxDepth?: number;
  /**
   * What `data` is. The stack is always computed in `@merge/core`'s exact model, as Salt computes it: YAML read as
   * PyYAML reads it (`PyDict` mappings with typed keys in document order, `PyFloat` whole floats), the fold starting
   * from an empty `PyDict`, templates given `stack`, `pillar`, `__grains__` and `__opts__` as `PyDict`s. `"plain"`
   * (default): `data` is that result as plain objects and numbers (`toPlain`: keys as text, `9.0` as `9`; lossy where
   * an int and a str key are equal as text). `"exact"`: `data` is the `PyDict` itself.
   */
  readonly values?: "plain" | "exact";
  /**
   * Let `data` share values with the loader's cache of parsed files (default false). A batch of hosts then copies
   * into each host's stack only what the merge changes, instead of every document it reads. The caller must then
   * treat `data` as read-only: a change to it would reach every later host that reads the same file. It applies to
   * the PillarStack fold with the built-in renderer; a document whose text holds `*` (a YAML alias may share a value
   * between two keys, which Salt's in-place merge changes together) is copied as before, and a template that may
   * reach `stack` (its text names it, or includes, imports or extends another template) gets a stack of its own.
   */
  readonly sharedValues?: boolean;
}

/** One host to render the stack for. */
export interface StackHost {
  readonly minionId: string;
  readonly pillar?: Dict;
  readonly grains?: Dict;
  /** Overrides the loader's `opts` for this host. */
  readonly opts?: Dict;
}

export interface StackResult<D extends Mapping = Dict> {
  /** The merged data (the `PyDict` with `values: "exact"`). It belongs to the caller: nothing else holds it. */
  readonly data: D;
  /** The YAML files merged, in order, named as Salt's glob names them (config directory joined with the line). */
  readonly files: readonly string[];
  readonly warnings: readonly StackWarning[];
  /**
   * Everything the load looked for, found or not, in order: each config file, each config line as the glob pattern
   * it was read as, and each template file a render looked for and did not find. A file created later that one of
   * them names (`minions/web9.yml`, a new `common/x.yml`) changes the result, which `files` alone cannot tell: a
   * watcher watches for these.
   */
  readonly searched: readonly StackLookup[];
}

/** One config file, config line or missing template file the load looked for (see `StackResult.searched`). */
export interface StackLookup {
  /**
   * `config`: a config file, `pattern` a literal path; `line`: a config line, `pattern` a glob as `pyGlob` reads it;
   * `template`: a file a render looked for and did not find (an `include` or `import_yaml` of a missing file, a
   * `file.file_exists` that said no), `pattern` a literal path and `matched` 0.
   */
  readonly kind: "config" | "line" | "template";
  /**
   * Named as `files` are: relative paths are relative to the loader's `cwd`. A line is the config's directory joined
   * with the line (`common/*.yml`); text a minion controls is escaped in it (`[*]`), so it matches only itself.
   */
  readonly pattern: string;
  /** The config file the line is in, or whose render looked for the template (for a config file, itself). */
  readonly config: string;
  /** How many paths it matched this time: 0 when the file is missing or the glob matched nothing. */
  readonly matched: number;
}

export interface StackLoader<D extends Mapping = Dict> {
  /** Renders and merges the stack for one host. */
  load(host: StackHost): StackResult<D>;
  /** Forgets cached files, listings and parsed YAML (compiled templates are rebuilt when a text changes). */
  clear(): void;
}

/**
 * Parsed texts kept per file. Past that many renders, a file whose renders found their text in under a quarter of the
 * cases (a template that writes the host's id, say) keeps only its latest: parses kept for hosts that never come
 * again would outlive the young-generation collections and cost a full one later; the latest still serves a
 * re-render of the same host (`--watch`).
 */
const PARSE_CACHE_PER_FILE = 8;

/**
 * How many files' parses a loader keeps; past that, those of the file parsed longest ago go. A batch whose every host
 * has a file of its own would otherwise keep a parse per host for files no other host reads.
 */
const PARSED_FILES_KEPT = 1000;

/**
 * A file's parsed texts (latest last), how often a render of it found its text there, and the top-level pieces of
 * the latest text read, which the next different text reuses where it is the same (see top-level-pieces.ts).
 */
interface ParsedTexts {
  readonly docs: Map<string, unknown>;
  hits: number;
  misses: number;
  pieces: ReadonlyMap<string, PieceValue> | undefined;
  /** The latest text read whole and its document, cut into `pieces` only when a different text comes. */
  latest: { readonly text: string; readonly doc: unknown } | undefined;
}

/**
 * A store of texts by key, such as a directory of files: `parsedDocuments` keeps parsed YAML files in it, encoded by
 * `@merge/yaml`'s `encodeYamlValue`. A value read back that does not decode is parsed again and stored again.
 */
export interface ParsedDocumentStore {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
}

/**
 * The shortest text kept in `parsedDocuments`. Reading an entry back costs about as much as parsing 2 KB of YAML
 * while the parser is cold (measured on the CLI's store: ~0.13 ms a file, decoding ~0.05 ms a KB, parsing ~0.13 ms a
 * KB); from 8 KB on it clearly pays (a 750 KB file: 140 ms to parse, 21 ms to read back).
 */
const STORED_DOCUMENT_MIN = 8192;

/**
 * What a stored document's key starts with: the encoding's version, the version of the YAML reading rules (a store
 * that outlives an upgrade of `@merge/yaml` must not serve a value the new rules read differently) and how the text
 * was read.
 */
const DOCUMENT_KEY = `merge stack document ${STORED_VALUE_FORMAT}\nyaml rules ${YAML_READING_RULES}\nflavor salt, exact values\n`;

/**
 * Makes a loader that renders many hosts: config and YAML templates are compiled once, files are read once, and a
 * YAML file whose rendered text is the same for two hosts is parsed once.
 */
export function createStackLoader(
  options: StackLoaderOptions & { readonly values: "exact" },
): StackLoader<PyDict>;
export function createStackLoader(options: StackLoaderOptions): StackLoader;
export function createStackLoader(options: StackLoaderOptions): StackLoader<Mapping> {
  const exactResult = valuesOption(options.values) === "exact";
  const cwd = options.cwd ?? process.cwd();
  const cwdAbsolute = resolve(cwd);
  const cacheOn = options.cache !== false;
  const files = new StackFiles(cwd, cacheOn, options.files);
  const newFold = createFoldFactory(options.spec, options.registry, options.maxDepth);
  // Documents join the stack uncopied (see `sharedValues`) only where the depth limit cannot be reached inside one:
  // copying checks the depth of what it copies, and YAML nests at most 500 levels.
  const sharing =
    options.sharedValues === true &&
    options.cache !== false &&
    options.renderer === undefined &&
    (options.maxDepth ?? DEFAULT_MAX_DEPTH) >= DEFAULT_MAX_DEPTH;
  const parsed = new Map<string, ParsedTexts>();
  // Per config file: the last rendered listing and its items (most hosts render the same listing shape).
  const listings = new Map<string, { text: string; items: string[] }>();
  // Paths already checked to be regular files inside their config's directory.
  const checked = new Set<string>();
  let warnings: StackWarning[] = [];

  const warn = (warning: StackWarning) => {
    warnings.push(warning);
    options.onWarning?.(warning);
  };

  // With the built-in (Jinja) renderer, a text without `{` holds no tag, expression or comment: rendering gives the
  // text with Jinja's newline rules applied, so it is neither compiled nor run (most stack files are plain YAML).
  const plainShortcut = options.renderer === undefined;
  const renderText = (
    source: string,
    file: string,
    vars: Record<string, unknown>,
    cfgPath: string,
    opaqueText = false,
  ): string => {
    if (plainShortcut && !source.includes("{")) return jinjaSource(source);
    try {
      return renderer.render(source, file, vars, cfgPath, opaqueText ? { opaqueText } : undefined);
    } catch (error) {
      // The template line an error points at, for the caret under it: this file's own text, or an included one's.
      throw withTemplateLine(error, (at) => (at === file ? source : readText(at)));
    }
  };
  const readText = (path: string): string | undefined => {
    try {
      return files.read(path);
    } catch {
      return undefined;
    }
  };
  const upstream = options.upstreamPillarStack ?? options.strictSalt !== true;

  // What a load in progress tells of the template files its renders look at (set by `load`, cleared after).
  let lookedAt: ((path: string, found: boolean) => void) | undefined;
  const renderer =
    options.renderer ??
    createRenderer({
      salt: options.functions as Record<string, unknown> | undefined,
      onWarning: (w: { message: string; file?: string; line?: number }) =>
        warn({ code: "TEMPLATE_WARNING", message: w.message, file: w.file, line: w.line }),
      strictSalt: options.strictSalt,
      upstreamPillarStack: upstream,
      compiledTemplates: options.compiledTemplates,
      // Templates' own imports and file checks read the tree the stack is read from (default: the local one), and
      // every path they look at is told to the load: the files a render read, whatever their names were computed
      // from (`{% include role ~ '.jinja' %}`), and the ones it missed, which a new file would change.
      files: templateFilesTold(options.files ?? nodeFileSystem, (path, found) => lookedAt?.(path, found)),
    });

  const documents = options.parsedDocuments;
  // Whether a rendered text may go to `parsedDocuments`: a store is given, the text is large enough to be worth it,
  // and it is the file's own (the template changed nothing); a rendered one may hold the host's pillar values. The
  // cheap tests first: this runs for every file of every host.
  const mayStore = (source: string, text: string): boolean =>
    documents !== undefined &&
    text.length >= STORED_DOCUMENT_MIN &&
    (text === source || (plainShortcut && text === jinjaSource(source)));
  // `storable`: the text may go to `parsedDocuments` (see `mayStore`).
  const parse = (text: string, file: string, storable: boolean): unknown => {
    let perFile = cacheOn ? parsed.get(file) : undefined;
    if (perFile !== undefined) {
      // Most recently parsed last, so that the first file is the one to drop.
      parsed.delete(file);
      parsed.set(file, perFile);
    }
    if (perFile?.docs.has(text)) {
      perFile.hits++;
      return perFile.docs.get(text);
    }
    const read = (piece: string) => loadYaml(piece, { flavor: "salt", filename: file, values: "exact" });
    // A new text of a file read before: its unchanged top-level pieces keep their values.
    // The cut is made then, not when a file is first read: most files are read once per loader.
    if (perFile !== undefined && perFile.pieces === undefined && perFile.latest !== undefined) {
      perFile.pieces = piecesOfDocument(perFile.latest.text, perFile.latest.doc) ?? NO_PIECES;
      perFile.latest = undefined;
    }
    const byPieces = perFile?.pieces === undefined ? undefined : readByPieces(text, perFile.pieces, read);
    let doc: unknown;
    if (byPieces !== undefined) {
      doc = byPieces.doc;
      perFile!.pieces = byPieces.pieces;
    } else {
      const key = storable ? DOCUMENT_KEY + text : undefined;
      doc = key === undefined ? NOT_STORED : storedDocument(documents!, key);
      if (doc === NOT_STORED) {
        doc = read(text);
        const encoded = key === undefined ? undefined : encodeYamlValue(doc);
        if (encoded !== undefined) documents!.set(key!, encoded);
      }
      if (perFile !== undefined) {
        perFile.pieces = undefined;
        perFile.latest = { text, doc };
      }
    }
    if (sharing) freezeDocument(doc);
    if (cacheOn) {
      if (perFile === undefined) {
        perFile = { docs: new Map(), hits: 0, misses: 0, pieces: undefined, latest: { text, doc } };
        parsed.set(file, perFile);
        if (parsed.size > PARSED_FILES_KEPT) parsed.delete(parsed.keys().next().value!);
      }
      perFile.misses++;
      const room =
        perFile.misses <= PARSE_CACHE_PER_FILE || perFile.hits * 4 >= perFile.misses
          ? PARSE_CACHE_PER_FILE
          : 1;
      while (perFile.docs.size >= room) perFile.docs.delete(perFile.docs.keys().next().value!);
      perFile.docs.set(text, doc);
    }
    return doc;
  };

  // A file's text, the file told to `onFile` first (even a file that cannot be read: its fix is what a watcher waits
  // for). The templates it includes or imports are told as the renderer looks at them.
  const readNoted = (path: string): string => {
    options.onFile?.(path);
    return files.read(path);
  };

  function load(host: StackHost): StackResult<Mapping> {
    warnings = [];
    const plainPillar = cloneTree(checkedInput(host.pillar ?? {}, "pillar", options.maxDepth));
    const plainGrains = cloneTree(checkedInput(host.grains ?? {}, "grains", options.maxDepth));
    const plainOpts = cloneTree(checkedInput(host.opts ?? options.opts ?? {}, "opts", options.maxDepth));
    const fold = newFold();
    const merged: string[] = [];
    const searched: StackLookup[] = [];
    const look = (lookup: StackLookup) => {
      searched.push(lookup);
      options.onLookup?.(lookup);
    };
    // The config being rendered: a template a render of it looks at is named as its files are (relative to `cwd`
    // when the config was given so), and a missing one is a lookup of that config.
    let currentCfg = "";
    const told = new Set<string>();
    lookedAt = (absolute, found) => {
      const named = isAbsolute(currentCfg) ? absolute : nameFrom(cwdAbsolute, absolute);
      const key = `${found}\0${named}`;
      if (told.has(key)) return;
      told.add(key);
      if (found) options.onFile?.(named);
      else look({ kind: "template", pattern: named, config: currentCfg, matched: 0 });
    };
    // Matchers select on the caller's values (their keys and values keep their JavaScript types).
    const configs = configPaths(options.config, {
      pillar: plainPillar,
      grains: plainGrains,
      opts: plainOpts,
    });
    const opaque = options.saltGlobs !== true;
    const marked = opaque
      ? markHostValues(host.minionId, plainGrains, plainOpts)
      : { minionId: host.minionId, grains: plainGrains, opts: plainOpts };
    // Templates get the exact model, made after marking (`toExact` keeps strings as they are, opaque marks too).
    const pillar = toExact(plainPillar);
    const grains = toExact(plainGrains);
    const opts = toExact(plainOpts);
    const cfgHost = opaque
      ? { minionId: marked.minionId, grains: toExact(marked.grains), opts: toExact(marked.opts) }
      : { minionId: host.minionId, grains, opts };
    for (const cfg of configs) {
      currentCfg = cfg;
      const present = files.isFile(cfg);
      look({ kind: "config", pattern: cfg, config: cfg, matched: present ? 1 : 0 });
      if (!present) {
        warn({
          code: "STACK_CONFIG_MISSING",
          message: `Ignoring pillar stack cfg "${cfg}": file does not exist`,
          file: cfg,
        });
        continue;
      }
      // `__stack__.cfg_path` is the path as written in Salt; the renderer resolves it against the process's working
      // directory, so a relative path is handed over as written only when that is the loader's directory too.
      const cfgAbs = files.absolute(cfg);
      const cfgPath = resolve(cfg) === resolve(cfgAbs) ? cfg : cfgAbs;
      const [baseDir] = splitPath(cfg);
      const cfgSource = readNoted(cfg);
      if (mayReachStack(cfgSource)) fold.own();
      const cfgVars = {
        stack: fold.value,
        pillar,
        minion_id: cfgHost.minionId,
        __opts__: cfgHost.opts,
        __grains__: cfgHost.grains,
      };
      const listing = renderText(cfgSource, cfg, cfgVars, cfgPath, opaque);
      let items = cacheOn ? listings.get(cfg) : undefined;
      if (items?.text !== listing) {
        items = { text: listing, items: configItems(listing, cfg) };
        if (cacheOn) listings.set(cfg, items);
      }
      for (const item of items.items) {
        if (isBlank(opaque ? plainOpaque(item) : item)) continue;
        const read = opaque ? itemPattern(item) : { pattern: item };
        if ("refused" in read) {
          warn({
            code: "STACK_NO_MATCH",
            message: `Ignoring pillar stack template "${showItem(item)}": ${read.refused}`,
            file: cfg,
          });
          continue;
        }
        const pattern = joinPath(baseDir, read.pattern);
        const matches = pyGlob(pattern, files);
        look({ kind: "line", pattern, config: cfg, matched: matches.length });
        if (matches.length === 0) {
          const shown = read.pattern === item ? item : showItem(item);
          warn({
            code: "STACK_NO_MATCH",
            message: `Ignoring pillar stack template "${shown}": can't find from root dir "${baseDir}"`,
            file: cfg,
          });
          continue;
        }
        matches.sort(compareCodePoints);
        for (const path of matches) {
          checkInside(path, baseDir, cfg);
          const source = readNoted(path);
          // Before `stack` is handed to a template that may change it: it must hold nothing of the cache.
          if (mayReachStack(source)) fold.own();
          const vars: Record<string, unknown> = {
            stack: fold.value,
            pillar,
            minion_id: host.minionId,
            __opts__: opts,
            __grains__: grains,
          };
          if (upstream) vars.ymlpath = path;
          const text = renderText(source, path, vars, cfgPath);
          let doc: unknown;
          try {
            doc = parse(text, path, mayStore(source, text));
          } catch (error) {
            throw renderedYamlError(error, source, text);
          }
          if (!isMapping(doc)) {
            warn({
              code: "STACK_NOT_MAPPING",
              message: `Ignoring pillar stack template "${path}": Can't parse as a valid yaml dictionary`,
              file: path,
            });
            continue;
          }
          mergeLocated(fold, doc, text, path, sharing && !text.includes("*"));
          merged.push(path);
        }
      }
    }
    // A template can put the stack inside itself (`stack.update({'self': stack})`): no pillar can hold that, and
    // whoever prints or copies the result would recurse without end.
    const cycle = findCycle(fold.value);
    if (cycle !== undefined) {
      throw new MergeError(
        "STACK_CYCLE",
        "a template made the merged stack contain itself (as stack.update({'self': stack}) does); a pillar cannot hold that",
        { path: cycle, source: { file: configs[configs.length - 1] } },
      );
    }
    lookedAt = undefined;
    const result = {
      data: exactResult ? fold.value : (toPlain(fold.value) as Dict),
      files: merged,
      warnings,
      searched,
    };
    warnings = [];
    return result;
  }

  // A file outside the config's directory is refused (Salt reads it). Where a path leads is decided as the operating
  // system decides it: through symlinks, and with `..` applied after the directory before it was entered.
  function checkInside(path: string, baseDir: string, cfg: string): void {
    const key = `${baseDir}\0${path}`;
    if (checked.has(key)) return;
    const base = files.absolute(baseDir === "" ? "." : baseDir);
    const realBase = files.real(base) ?? resolve(base);
    const target = files.real(path) ?? danglingTarget(path);
    if (isOutside(relative(realBase, target))) {
      const asWritten = isOutside(relative(resolve(base), resolve(files.absolute(path))));
      throw stackError(
        "STACK_PATH",
        asWritten
          ? `refusing "${path}": it is outside the stack directory "${baseDir === "" ? "." : baseDir}"`
          : `refusing "${path}": it leads to "${target}", outside the stack directory`,
        { file: cfg },
        undefined,
        { path },
      );
    }
    const kind = files.kind(path);
    if (kind !== "file") {
      const what =
        kind === "dir" ? "a directory" : kind === "dangling" ? "a dangling symlink" : "not a regular file";
      throw stackError(
        "STACK_NOT_FILE",
        `"${path}" is ${what}; a stack line must name YAML files`,
        { file: cfg },
        undefined,
        {
          path,
        },
      );
    }
    if (cacheOn) checked.add(key);
  }

  // A dangling symlink has no real path; where it sits is its directory's real path joined with its name.
  function danglingTarget(path: string): string {
    const abs = files.absolute(path);
    const [dir, name] = splitPath(abs);
    return joinPath(files.real(dir) ?? resolve(dir), name);
  }

  return {
    load,
    clear() {
      files.clear();
      parsed.clear();
      listings.clear();
      checked.clear();
    },
  };
}

/**
 * Whether a template's text may reach the `stack` variable: it names it, or hands its context to another template
 * (`include`, `import`, `from ... import`, `extends`, Salt's `import_yaml` and the like). Any mention counts, in text
 * or tag: a false alarm only costs a copy of the stack.
 */
function mayReachStack(source: string): boolean {
  return source.includes("{") && /stack|include|import|extends/.test(source);
}

const NOT_STORED = Symbol("not stored");

/** The pieces of a text that could not be cut: the next text is then read piece by piece in full, if it can be cut. */
const NO_PIECES: ReadonlyMap<string, PieceValue> = new Map();

/** The document stored under `key`, or NOT_STORED when there is none or it does not decode. */
function storedDocument(documents: ParsedDocumentStore, key: string): unknown {
  const encoded = documents.get(key);
  if (encoded === undefined) return NOT_STORED;
  try {
    return decodeYamlValue(encoded);
  } catch {
    return NOT_STORED;
  }
}

/** Renders and merges the stack for one host with a one-off loader. */
export function loadStack(
  options: StackLoaderOptions & StackHost & { readonly values: "exact" },
): StackResult<PyDict>;
export function loadStack(options: StackLoaderOptions & StackHost): StackResult;
export function loadStack(options: StackLoaderOptions & StackHost): StackResult<Mapping> {
  return createStackLoader(options).load(options);
}

function valuesOption(values: unknown): "plain" | "exact" {
  if (values === undefined || values === "plain" || values === "exact") return values ?? "plain";
  throw stackError(
    "STACK_CONFIG",
    `unknown values ${JSON.stringify(values) ?? String(values)}; use plain or exact`,
  );
}

/**
 * The lines of a rendered config, as Salt reads them: a YAML list if the text parses as one, otherwise its lines
 * (not stripped; `#` is not a comment).
 */
export function configItems(text: string, cfg: string): string[] {
  if (!mayBeList(text)) return splitLines(text);
  let value: unknown;
  try {
    value = loadYaml(text, { flavor: "salt", filename: cfg });
  } catch {
    return splitLines(text);
  }
  if (!Array.isArray(value)) return splitLines(text);
  return value.map((item, index) => {
    if (typeof item !== "string") {
      throw stackError(
        "STACK_CONFIG",
        `item ${index + 1} of the list rendered by ${cfg} is not a path (got ${JSON.stringify(item) ?? typeof item})`,
        { file: cfg },
      );
    }
    return item;
  });
}

/**
 * False when YAML could not read `text` as a list: its first significant character (after blank and comment lines)
 * cannot open a sequence. Saves parsing the usual one-path-per-line config for every host; anything else is parsed.
 */
function mayBeList(text: string): boolean {
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === " " || c === "\t" || c === "\n" || c === "\r") {
      i++;
    } else if (c === "#") {
      while (i < text.length && text[i] !== "\n" && text[i] !== "\r") i++;
    } else {
      return !/[A-Za-z0-9_./~"'{]/.test(c);
    }
  }
  return false;
}

function isOutside(rel: string): boolean {
  return rel === ".." || rel.startsWith("../") || rel.startsWith("/");
}

// Gives a merge error (an unknown strategy) the file, line and column of the directive that caused it.
function mergeLocated(fold: StackFold, doc: Mapping, text: string, file: string, shared: boolean): void {
  try {
    fold.merge(doc, shared);
  } catch (error) {
    if (!isMergeError(error) || error.source !== undefined) throw error;
    const keys = error.keys ?? [];
    let position: { line: number; column: number } | undefined;
    try {
      const located = loadYamlWithPositions(text, {
        flavor: "salt",
        filename: file,
        values: "exact",
      });
      position =
        located.positionOf([...keys, "__"]) ??
        located.positionOf([...keys, 0]) ??
        located.positionOf([...keys]);
    } catch {
      position = undefined;
    }
    error.source = { file, line: position?.line, column: position?.column };
    throw error;
  }
}

// Pillar, grains (which the minion sets) and opts come from outside: walk them without recursion before copying
// them, so a cyclic or absurdly deep value is a coded error (CYCLIC_INPUT, DEPTH_LIMIT), not a stack overflow.
function checkedInput<T>(value: T, what: string, maxDepth: number | undefined): T {
  try {
    checkTree(value, maxDepth === undefined ? {} : { maxDepth });
  } catch (error) {
    if (isMergeError(error) && error.source === undefined) error.source = { file: what };
    throw error;
  }
  return value;
}

/**
 * The renderer's file system with each `stat` told to `lookedAt`: a regular file found, or nothing there. The
 * renderer asks `stat` before it reads a template (in every config run, so in every host) and for
 * `file.file_exists` / `file.directory_exists`; a directory found is not told.
 */
function templateFilesTold(
  files: TemplateFileSystem,
  lookedAt: (path: string, found: boolean) => void,
): TemplateFileSystem {
  return {
    stat: (path) => {
      let info: ReturnType<TemplateFileSystem["stat"]>;
      try {
        info = files.stat(path);
      } catch (error) {
        lookedAt(path, false);
        throw error;
      }
      if (info === undefined) lookedAt(path, false);
      else if (info.isFile()) lookedAt(path, true);
      return info;
    },
    realpath: (path) => files.realpath(path),
    readFile: (path) => files.readFile(path),
  };
}

/** `path` relative to `dir` when it lies inside it (`/`-separated, as the loader names files), else as given. */
function nameFrom(dir: string, path: string): string {
  const inside = relative(dir, path);
  return inside === "" || inside.startsWith("..") || isAbsolute(inside) ? path : inside.split("\\").join("/");
}
