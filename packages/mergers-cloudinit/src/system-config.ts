import { readdir, readFile, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import {
  compareCodePoints,
  getItem,
  hasItem,
  isMapping,
  isMergeError,
  isPyFloat,
  MergeError,
  numberValue,
  PyDict,
  type Registry,
  type TraceSink,
  toPlain,
} from "@merge/core";
import type { InstanceData } from "./instance-data.js";
import { mergeManyDicts } from "./mergemanydict.js";
import { isPythonSpace } from "./python-text.js";
import { createTemplateRenderer, detectTemplate, type TemplateRenderer } from "./templates.js";
import { loadYaml12 } from "@merge/yaml";
import { loadPartYaml } from "./yaml.js";

export interface SystemConfigOptions {
  /** The base configuration file (cloud-init's is `/etc/cloud/cloud.cfg`). */
  readonly file: string;
  /**
   * The conf.d directory to read, instead of the one cloud-init finds (the file's `conf_d` key, else `FILE.d`). The
   * file's `conf_d` key is then not looked at.
   */
  readonly confd?: string;
  /**
   * What relative paths are resolved against: `file`, `confd`, and a relative `conf_d` in the file (cloud-init
   * resolves that against its own working directory, which is `/` when it boots). Default `process.cwd()`.
   */
  readonly cwd?: string;
  /**
   * Instance data to render `## template: jinja` files with, as cloud-init does when
   * `/run/cloud-init/instance-data-sensitive.json` exists. Without it such a file is read as plain YAML.
   */
  readonly instanceData?: InstanceData;
  /** The representation of `result.value` (`result.exact` is always the exact model). Default `plain`. */
  readonly values?: "plain" | "exact";
  /** `1.1` (default): read the files as cloud-init does (PyYAML); `1.2`: with the YAML 1.2 core schema instead. */
  readonly yaml?: "1.1" | "1.2";
  readonly registry?: Registry;
  /** Report unknown merger options as `UNKNOWN_OPTION` errors instead of ignoring them as cloud-init does. */
  readonly strict?: boolean;
  readonly maxDepth?: number;
  /** Receives trace events; their `document` is an index into `result.files`. */
  readonly trace?: TraceSink;
}

/** One file cloud-init looked at, and what it made of it. */
export interface SystemConfigFile {
  /** The path as cloud-init opens it (`FILE`, or the conf.d directory joined with the name). */
  readonly path: string;
  readonly role: "base" | "conf.d";
  /**
   * - `merged`: a non-empty mapping, merged with `mergers`;
   * - `empty`: nothing to merge (an empty file or mapping, a template that rendered to nothing);
   * - `missing`: the base file does not exist (cloud-init goes on with `{}`);
   * - `ignored`: cloud-init logs a warning and goes on with `{}` — invalid YAML, a document that is not a mapping,
   *   a template that fails while rendering, a file it may not read (`error` says which).
   */
  readonly status: "merged" | "empty" | "missing" | "ignored";
  /** The mergers it was merged with (canonical spec), for `merged` files. */
  readonly mergers?: string;
  /** True when it was a `## template: jinja` file rendered with the instance data. */
  readonly rendered?: boolean;
  readonly error?: MergeError;
  /** The YAML text that was read (after rendering), for positions. */
  readonly text?: string;
  /** The document as loaded (exact model), declaration keys included. */
  readonly document?: PyDict;
}

/** A warning cloud-init logs while reading its configuration; the reading goes on. */
export interface SystemConfigWarning {
  /**
   * `SYSTEM_CONFIG_IGNORED`: a file was left out (see `SystemConfigFile.status`); `TEMPLATE_MISSING_VARIABLE`: a
   * template printed variables the instance data lacks.
   */
  readonly code: "SYSTEM_CONFIG_IGNORED" | "TEMPLATE_MISSING_VARIABLE";
  readonly message: string;
  readonly file: string;
}

/** Where the conf.d directory came from. */
export interface ConfdDirectory {
  readonly path: string;
  /** `option`: the `confd` option; `conf_d`: the base file's key; `default`: `FILE.d`. */
  readonly from: "option" | "conf_d" | "default";
  /** False when the path is not a directory (cloud-init then reads none). */
  readonly exists: boolean;
}

export interface SystemConfigResult {
  /** The configuration, in the representation `values` asked for. */
  readonly value: unknown;
  /** The configuration in the exact model. */
  readonly exact: PyDict;
  /** The base file, then the conf.d files in sorted order (each later one wins over the ones before it). */
  readonly files: readonly SystemConfigFile[];
  /** The conf.d directory, or undefined when cloud-init looks for none (`conf_d` empty, no `FILE.d`). */
  readonly confd: ConfdDirectory | undefined;
  readonly warnings: readonly SystemConfigWarning[];
}

/**
 * Reads cloud-init's system configuration as cloud-init 22.4's `util.read_conf_with_confd` does: the base file, then
 * the `*.cfg` files of its conf.d directory (`conf_d` in the base file, else `FILE.d`), merged so that conf.d wins
 * over the base file and a later conf.d file (in sorted order) over an earlier one — by `mergemanydict`, which merges
 * the highest-priority file first and lets each file's `merge_how` decide how it goes into the files above it.
 *
 * Files cloud-init steps over are reported and read as `{}`: a missing base file, invalid YAML, a document that is
 * not a mapping, a file it may not read. Where cloud-init stops with an exception, this throws a coded error: a
 * `conf_d` that is not a string (`SYSTEM_CONFIG`), a conf.d directory that cannot be listed (`SYSTEM_CONFIG`), a file
 * that is not UTF-8 (`YAML_ENCODING`), a declaration or merge that fails (`SPEC_SYNTAX`, `UNKNOWN_MERGER`, ...), a
 * template that does not parse (`TEMPLATE_SYNTAX`).
 */
export async function loadSystemConfig(options: SystemConfigOptions): Promise<SystemConfigResult> {
  const cwd = options.cwd ?? process.cwd();
  const reader = new ConfigReader(options.instanceData, cwd, options.yaml === "1.2");
  const files: SystemConfigFile[] = [];

  const base = await reader.read(options.file, "base");
  files.push(base);

  const confd = await findConfd(options, base, cwd);
  const confdFiles: SystemConfigFile[] = [];
  if (confd?.exists === true) {
    for (const name of await listConfigs(confd.path, cwd)) {
      confdFiles.push(await reader.read(join(confd.path, name), "conf.d"));
    }
  }
  files.push(...confdFiles);

  // read_conf_d: the conf.d files merged, the last in sorted order first.
  const trace = options.trace;
  const common = { registry: options.registry, strict: options.strict, maxDepth: options.maxDepth };
  const confdOrder = confdFiles.map((_, i) => i).reverse();
  const confdMerge = mergeManyDicts(
    confdOrder.map((i) => confdFiles[i]!.document),
    {
      ...common,
      sources: confdOrder.map((i) => ({ file: confdFiles[i]!.path })),
      trace: remap(trace, (doc) => 1 + confdOrder[doc]!),
    },
  );
  // read_conf_with_confd: conf.d's result first (it wins), then the base file; the conf.d result passes through a
  // merge of its own, with any `merge_type` a conf.d file left in it.
  const baseDoc = base.status === "merged" || base.status === "empty" ? base.document : undefined;
  const layers: unknown[] = confd?.exists === true ? [confdMerge.value, baseDoc] : [baseDoc];
  const final = mergeManyDicts(layers, {
    ...common,
    sources: layers.length === 2 ? [{ file: confd!.path }, { file: base.path }] : [{ file: base.path }],
    // Merging conf.d's result into {} repeats what the conf.d files did; their own events say where values came from.
    trace: remap(trace, (doc) => (doc === layers.length - 1 ? 0 : undefined)),
  });

  for (const [n, i] of confdOrder.entries()) {
    const mergers = confdMerge.mergers[n];
    if (mergers !== undefined) confdFiles[i] = { ...confdFiles[i]!, mergers };
  }
  const baseMergers = final.mergers[layers.length - 1];
  files[0] = baseMergers === undefined ? base : { ...base, mergers: baseMergers };
  files.splice(1, confdFiles.length, ...confdFiles);

  return {
    value: options.values === "exact" ? final.value : toPlain(final.value),
    exact: final.value,
    files,
    confd,
    warnings: reader.warnings,
  };
}

function remap(trace: TraceSink | undefined, to: (doc: number) => number | undefined): TraceSink | undefined {
  if (trace === undefined) return undefined;
  return {
    record(event) {
      const document = event.document === undefined ? undefined : to(event.document);
      if (event.document !== undefined && document === undefined) return;
      trace.record({ ...event, document });
    },
  };
}

async function findConfd(
  options: SystemConfigOptions,
  base: SystemConfigFile,
  cwd: string,
): Promise<ConfdDirectory | undefined> {
  if (options.confd !== undefined) {
    return { path: options.confd, from: "option", exists: await isDirectory(options.confd, cwd) };
  }
  const doc = base.document ?? new PyDict();
  if (hasItem(doc, "conf_d")) {
    const value = getItem(doc, "conf_d");
    if (!truthy(value)) return undefined;
    if (typeof value !== "string") {
      throw new MergeError(
        "SYSTEM_CONFIG",
        `Config file ${base.path} contains 'conf_d' with non-string type ${pythonType(value)}`,
        { path: ["conf_d"], source: { file: base.path } },
      );
    }
    const path = pythonStrip(value);
    if (path === "") return undefined;
    return { path, from: "conf_d", exists: await isDirectory(path, cwd) };
  }
  const path = `${options.file}.d`;
  return (await isDirectory(path, cwd)) ? { path, from: "default", exists: true } : undefined;
}

/** `sorted(os.listdir(confd))`, keeping names ending in `.cfg` that are files (symlinks followed). */
async function listConfigs(dir: string, cwd: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(resolve(cwd, dir));
  } catch (cause) {
    throw new MergeError(
      "SYSTEM_CONFIG",
      `cannot list the conf.d directory ${dir}: ${describeIoError(cause)}`,
      {
        source: { file: dir },
        cause,
      },
    );
  }
  const out: string[] = [];
  for (const name of names.sort(compareCodePoints)) {
    if (name.endsWith(".cfg") && (await isFile(join(dir, name), cwd))) out.push(name);
  }
  return out;
}

/** Reads one configuration file as cloud-init's `read_conf` does. */
class ConfigReader {
  readonly warnings: SystemConfigWarning[] = [];
  private renderer: Promise<TemplateRenderer> | undefined;

  constructor(
    private readonly instanceData: InstanceData | undefined,
    private readonly cwd: string,
    private readonly yaml12: boolean,
  ) {}

  async read(path: string, role: "base" | "conf.d"): Promise<SystemConfigFile> {
    let bytes: Uint8Array;
    try {
      bytes = await readFile(resolve(this.cwd, path));
    } catch (cause) {
      const code = (cause as { code?: string }).code;
      if (code === "ENOENT")
        return role === "base" ? { path, role, status: "missing" } : { path, role, status: "empty" };
      // read_conf_with_confd and read_conf_d step over any OSError; they log EACCES only.
      const error = new MergeError("SYSTEM_CONFIG", `${path} cannot be read: ${describeIoError(cause)}`, {
        source: { file: path },
        cause,
      });
      if (code === "EACCES")
        this.warn("SYSTEM_CONFIG_IGNORED", `${path} is not readable, as for a non-root user`, path);
      return { path, role, status: "ignored", error };
    }
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch (cause) {
      throw new MergeError("YAML_ENCODING", `${path} is not UTF-8 text; cloud-init stops on it`, {
        source: { file: path },
        cause,
      });
    }
    let rendered = false;
    if (this.instanceData !== undefined) {
      const template = detectTemplate(text, path);
      if (template.type === "jinja") {
        rendered = true;
        this.renderer ??= createTemplateRenderer();
        const result = (await this.renderer).render(template.body, path, this.instanceData);
        if (result.missing.length > 0) {
          this.warn(
            "TEMPLATE_MISSING_VARIABLE",
            `${path}: the instance data has no ${result.missing.map((name) => `'${name}'`).join(", ")}`,
            path,
          );
        }
        if (result.error !== undefined) {
          // A template that does not parse stops cloud-init; one that fails while rendering is read as {}.
          if (result.error.code === "TEMPLATE_SYNTAX") throw result.error;
          this.warn("SYSTEM_CONFIG_IGNORED", `${path} does not render: ${result.error.message}`, path);
          return { path, role, status: "ignored", rendered, error: result.error };
        }
        if (result.text === undefined) return { path, role, status: "empty", rendered, text: "" };
        text = result.text;
      }
    }
    let doc: unknown;
    try {
      doc = this.yaml12
        ? loadYaml12(text, { filename: path, values: "exact" }).value
        : loadPartYaml(text, path);
    } catch (error) {
      if (isMergeError(error) && error.code.startsWith("YAML_")) {
        this.warn("SYSTEM_CONFIG_IGNORED", `${path}: failed loading YAML: ${error.message}`, path);
        return { path, role, status: "ignored", rendered, error, text };
      }
      throw error;
    }
    if (doc === null || doc === undefined)
      return { path, role, status: "empty", rendered, text, document: new PyDict() };
    if (!isMapping(doc)) {
      const error = new MergeError(
        "SYSTEM_CONFIG",
        `the file holds ${pythonType(doc)}, not a mapping; cloud-init reads it as {}`,
        { source: { file: path } },
      );
      this.warn(
        "SYSTEM_CONFIG_IGNORED",
        `${path} holds ${pythonType(doc)}, not a mapping; cloud-init reads it as {}`,
        path,
      );
      return { path, role, status: "ignored", rendered, error, text };
    }
    const document = doc as PyDict;
    return { path, role, status: document.size === 0 ? "empty" : "merged", rendered, text, document };
  }

  private warn(code: SystemConfigWarning["code"], message: string, file: string): void {
    this.warnings.push({ code, message, file });
  }
}

async function isDirectory(path: string, cwd: string): Promise<boolean> {
  try {
    return (await stat(resolve(cwd, path))).isDirectory();
  } catch {
    return false;
  }
}

async function isFile(path: string, cwd: string): Promise<boolean> {
  try {
    return (await stat(resolve(cwd, path))).isFile();
  } catch {
    return false;
  }
}

function describeIoError(error: unknown): string {
  const code = (error as { code?: string }).code;
  return code === undefined ? String((error as Error)?.message ?? error) : code;
}

/** Python's truthiness of a configuration value. */
function truthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === "") return false;
  if (typeof value === "number") return value !== 0;
  if (typeof value === "bigint") return value !== 0n;
  if (Array.isArray(value)) return value.length > 0;
  if (isMapping(value)) return (value instanceof PyDict ? value.size : Object.keys(value).length) > 0;
  if (value instanceof Uint8Array) return value.length > 0;
  if (isPyFloat(value)) return numberValue(value) !== 0;
  return true;
}

/** The name of a value's Python type, as cloud-init's `type_utils.obj_name` gives it. */
function pythonType(value: unknown): string {
  if (value === null || value === undefined) return "NoneType";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  if (typeof value === "bigint") return "int";
  if (typeof value === "string") return "str";
  if (Array.isArray(value)) return "list";
  if (isMapping(value)) return "dict";
  if (value instanceof Uint8Array) return "bytes";
  if (value instanceof Set) return "set";
  if (value instanceof Date) return (value as { kind?: string }).kind === "date" ? "date" : "datetime";
  return "float";
}

function pythonStrip(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isPythonSpace(text.charCodeAt(start))) start++;
  while (end > start && isPythonSpace(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
}
