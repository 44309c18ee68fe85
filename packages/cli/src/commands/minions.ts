import { mkdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import {
  type Dict,
  formatJson,
  type FrozenText,
  getItem,
  isMapping,
  isMergeError,
  mappingKeys,
  MergeError,
  PyDict,
  type SourcePosition,
} from "@merge/core";
import { EXIT_DATA, EXIT_OK } from "../cli-error.js";
import { type CliIO, oneLine, painter, useColor } from "../io.js";
import { keyNotFound, lookupKey } from "../key-path.js";
import { loadDocument } from "../load-document.js";
import { UsageError } from "../usage.js";
import {
  createCliRegistry,
  createOutputOptions,
  noteFailure,
  type OutputOptions,
  requiredString,
  stackLoaderHooks,
  warn,
} from "./common.js";
import { saltYaml } from "./checks.js";
import { entryName, loadMasterConfig, stackEntryConfig } from "./master-config.js";
import { createMysqlSource } from "./mysql-source.js";
import { pillarMerging } from "./pillar-merging.js";
import { renderResult } from "./result.js";
import { exactMappingFile } from "./stack.js";
import type { CommandInput, ParsedValues } from "./table.js";

/** One host of a `--minions` file. */
export interface MinionHost {
  readonly id: string;
  /** The host's grains (`{}` when the entry has none). */
  readonly grains: Dict;
  /** The pillar the templates see (`{}` when the entry has none). */
  readonly pillar: Dict;
}

/** What rendering one host gave: its data and the warnings met on the way. */
export interface HostResult {
  readonly data: unknown;
  readonly warnings: readonly string[];
}

const HOST_KEYS = new Set(["id", "grains", "pillar"]);

/**
 * The options a `--minions` batch replaces or cannot serve: each host brings its own id, grains and pillar, and
 * `--explain` is a story about one host. A usage error (exit 2) names the first one given.
 */
export function checkBatchOptions(values: ParsedValues, command: string, replaced: readonly string[]): void {
  for (const name of replaced) {
    if (values[name] !== undefined) {
      throw new UsageError(`--${name} comes from the --minions file (each host has its own)`, command);
    }
  }
  if (values.explain === true) {
    throw new UsageError("--explain tells about one host: use --minion-id instead of --minions", command);
  }
}

/**
 * Reads a `--minions` file: a YAML or JSON list of hosts, each a mapping with `id` (a string that can name a file:
 * not empty, no `/`, not `.` or `..`), and optionally `grains` and `pillar` mappings. Every problem of the file is
 * reported (`MINIONS_FILE`, with its line), not only the first; ids must be unique, as each names an output file.
 */
export async function readMinions(
  file: string,
  io: CliIO,
): Promise<{ hosts: MinionHost[]; problems: MergeError[] }> {
  const doc = await loadDocument(file, io, "salt");
  const problems: MergeError[] = [];
  const problem = (message: string, path: readonly (string | number)[]) => {
    const at = doc.positionOf(path);
    problems.push(
      new MergeError("MINIONS_FILE", message, {
        source: { file, line: at?.line ?? 1, column: at?.column ?? 1 },
      }),
    );
  };
  if (!Array.isArray(doc.value)) {
    problem("must be a list of hosts (- id: NAME, with grains: and pillar: mappings)", []);
    return { hosts: [], problems };
  }
  const hosts: MinionHost[] = [];
  const seen = new Map<string, number>();
  doc.value.forEach((item: unknown, index: number) => {
    const where = `host ${index + 1}`;
    if (!isMapping(item)) {
      problem(`${where} must be a mapping with id, grains and pillar`, [index]);
      return;
    }
    for (const key of mappingKeys(item)) {
      if (typeof key !== "string" || !HOST_KEYS.has(key)) {
        problem(`${where} has an unknown key "${String(key)}" (a host has id, grains and pillar)`, [
          index,
          ...(typeof key === "string" || typeof key === "number" ? [key] : []),
        ]);
      }
    }
    const id = getItem(item, "id");
    const idProblem = checkId(id);
    if (idProblem !== undefined) {
      problem(`${where}: ${idProblem}`, [index, "id"]);
      return;
    }
    const first = seen.get(id as string);
    if (first !== undefined) {
      problem(`${where}: id "${id as string}" is also host ${first + 1}'s (ids name the output files)`, [
        index,
        "id",
      ]);
      return;
    }
    seen.set(id as string, index);
    const mapping = (name: "grains" | "pillar"): Dict | undefined => {
      const value = getItem(item, name);
      if (value === undefined || value === null) return {};
      if (isMapping(value)) return value as Dict;
      problem(`${where}: ${name} must be a mapping (key: value lines)`, [index, name]);
      return undefined;
    };
    const grains = mapping("grains");
    const pillar = mapping("pillar");
    if (grains !== undefined && pillar !== undefined) hosts.push({ id: id as string, grains, pillar });
  });
  return { hosts, problems };
}

function checkId(id: unknown): string | undefined {
  if (id === undefined || id === null) return "id is missing";
  if (typeof id !== "string") return `id must be a string (quote it: id: "${String(id)}")`;
  if (id === "" || id === "." || id === "..") return `id "${id}" cannot name a host`;
  if (id.includes("/") || id.includes("\0")) return `id "${oneLine(id)}" has a / or a NUL character`;
  return undefined;
}

export interface BatchRun {
  readonly hosts: readonly MinionHost[];
  readonly options: OutputOptions;
  readonly io: CliIO;
  /** First line of each host's file, as the single-host command titles its output. */
  readonly title: (host: MinionHost) => string;
  /** Renders one host; a thrown error fails that host only. */
  readonly render: (host: MinionHost) => HostResult | Promise<HostResult>;
}

/**
 * Renders every host in order and reports each as it is done: with `-o DIR`, one file per host
 * (`DIR/ID.yml`, or `.json` with `--format json`), each replaced atomically as `-o FILE` is; otherwise one JSON
 * line per host on standard output, `{"id": ..., "pillar": ...}` (`{"id": ..., "value": ...}` with `--get`, and in
 * the files the value alone) or `{"id": ..., "error": {...}}`. A host that fails is reported (standard error, prefixed with its id) and the batch goes on; the status is 1 if any failed.
 * On a terminal, standard error shows the progress (unless the JSON lines go to that terminal too).
 */
export async function runBatch(run: BatchRun): Promise<number> {
  const { hosts, options, io } = run;
  const dir = options.output === undefined || options.output === "-" ? undefined : options.output;
  if (dir !== undefined) ensureDirectory(dir, io.cwd);
  const write = dir === undefined ? undefined : (await import("../write-output.js")).writeOutputFile;
  const progress = createProgress(io, hosts.length, dir !== undefined || !io.stdoutIsTTY);
  // --color / --no-color count as in a single run: a host's report is what that run would print, behind the id.
  const paint = painter(useColor(io.stderrIsTTY, io.env, io.color));
  const report = (await import("../report.js")).failureReport;
  let failed = 0;
  // Hosts share the frozen parts of their data (the parsed files a loader with `sharedValues` keeps): each part's
  // JSON is written once.
  const frozenTexts = new WeakMap<object, FrozenText>();
  for (const [index, host] of hosts.entries()) {
    progress.update(index, host.id);
    const prefix = `${oneLine(host.id)}: `;
    let result: HostResult | undefined;
    let failure: unknown;
    try {
      result = await run.render(host);
    } catch (error) {
      failure = error;
    }
    for (const warning of result?.warnings ?? []) {
      progress.message(`${prefix}${paint.yellow("warning:")} ${oneLine(warning)}\n`);
    }
    if (result !== undefined) {
      try {
        if (write === undefined) {
          const line =
            options.get === undefined
              ? { id: host.id, pillar: result.data }
              : gotLine(host, result, options.get);
          await io.writeOut(`${formatJson(line, { indent: 0, frozenTexts })}\n`);
        } else {
          const text = renderResult(result.data, options, {
            title: run.title(host),
            documents: [],
            events: [],
          });
          const name = `${host.id}.${options.format === "json" ? "json" : "yml"}`;
          try {
            await write(join(dir!, name), text, io);
          } finally {
            // This file is in place (or failed): a signal from now on stops the batch before the next one.
            io.outputGuard?.release();
          }
        }
      } catch (error) {
        failure = error;
      }
    }
    if (failure !== undefined) {
      failed++;
      progress.message(`${prefix}${report(failure, io.env, io.stderrIsTTY, io.color)}`);
      if (write === undefined) {
        await io.writeOut(`${formatJson({ id: host.id, error: errorRecord(failure) }, { indent: 0 })}\n`);
      }
    }
  }
  progress.finish();
  if (failed > 0) {
    io.writeErr(`${paint.red("merge:")} ${failed} of ${hosts.length} hosts failed\n`);
    return EXIT_DATA;
  }
  return EXIT_OK;
}

/**
 * A host's JSON line with `--get`: the value at the key, as `--get --format json` prints it for a run of that host
 * alone. A host without it fails as that run does (`KEY_NOT_FOUND`, with the nearest path).
 */
function gotLine(host: MinionHost, result: HostResult, key: string): Record<string, unknown> {
  const found = lookupKey(result.data, key);
  if (!found.found) throw keyNotFound(key, found);
  return { id: host.id, value: found.value };
}

/** A failed host in the JSON lines: the code and message, and where when known. */
function errorRecord(error: unknown): Record<string, unknown> {
  if (!isMergeError(error)) {
    return { code: "INTERNAL", message: error instanceof Error ? error.message : String(error) };
  }
  const record: Record<string, unknown> = { code: error.code, message: error.message };
  const source: SourcePosition | undefined = error.source;
  if (source?.file !== undefined) record.file = source.file;
  if (source?.line !== undefined) record.line = source.line;
  if (source?.column !== undefined) record.column = source.column;
  if (error.keys !== undefined && error.keys.length > 0) record.path = error.keys;
  return record;
}

/** `-o DIR`: made when missing (with its parents); anything but a directory there is refused. */
function ensureDirectory(dir: string, cwd: string): void {
  const path = resolve(cwd, dir);
  let exists = false;
  try {
    exists = statSync(path).isDirectory();
    if (!exists) {
      throw new MergeError("OUTPUT_WRITE", "is not a directory (with --minions, -o names one)", {
        source: { file: dir },
      });
    }
  } catch (error) {
    if (isMergeError(error)) throw error;
    if ((error as NodeJS.ErrnoException).code !== "ENOENT")
      throw writeError(dir, "cannot use the directory", error);
  }
  if (exists) return;
  try {
    mkdirSync(path, { recursive: true });
  } catch (cause) {
    throw writeError(dir, "cannot make the directory", cause);
  }
}

function writeError(dir: string, what: string, cause: unknown): MergeError {
  // Node's text starts with the errno name and ends with the syscall and path, which the report already shows.
  const reason = (cause as Error).message.replace(/^[A-Z]+: /, "").replace(/, [a-z]+ '.*'$/, "");
  return new MergeError("OUTPUT_WRITE", `${what}: ${reason}`, { source: { file: dir }, cause });
}

interface Progress {
  /** Host `index` (0-based) is starting. */
  update(index: number, id: string): void;
  /** Prints a line on standard error, keeping the progress line below it. */
  message(text: string): void;
  finish(): void;
}

/**
 * `[ 37/200] node036.example.org` on one line of a terminal's standard error, rewritten in place (with `\r` and
 * spaces, which every terminal understands) at most ten times a second, and erased at the end. Off when standard
 * error is not a terminal, when the JSON lines go to the terminal (they show the progress themselves) and for a
 * single host.
 */
function createProgress(io: CliIO, total: number, wanted: boolean): Progress {
  if (!io.stderrIsTTY || !wanted || total < 2) {
    return { update: () => undefined, message: (text) => io.writeErr(text), finish: () => undefined };
  }
  const width = String(total).length;
  let shown = "";
  let last = 0;
  let current = "";
  const erase = () => {
    if (shown !== "") io.writeErr(`\r${" ".repeat(shown.length)}\r`);
    shown = "";
  };
  const draw = () => {
    const text = current.length > 72 ? `${current.slice(0, 71)}…` : current;
    io.writeErr(`\r${text}${" ".repeat(Math.max(0, shown.length - text.length))}`);
    shown = text;
    last = Date.now();
  };
  return {
    update(index, id) {
      current = `[${String(index + 1).padStart(width)}/${total}] ${oneLine(id)}`;
      if (index === 0 || Date.now() - last >= 100) draw();
    },
    message(text) {
      erase();
      io.writeErr(text);
      draw();
    },
    finish: erase,
  };
}

/** `merge stack CONFIG... --minions FILE`: one loader (templates compiled once, files read once) for every host. */
export async function executeStackBatch({ values, positionals, io }: CommandInput): Promise<number> {
  checkBatchOptions(values, "stack", ["minion-id", "pillar", "grains"]);
  const options = createOutputOptions(values, "stack");
  saltYaml(values, "stack");
  const spec = values.spec as string | undefined;
  const { hosts, problems } = await readMinions(values.minions as string, io);
  if (problems.length > 0) return reportProblems(io, problems);
  const opts = (await exactMappingFile(values, "opts", io)) as Dict | undefined;
  const { createStackLoader } = await import("@merge/source-stack");
  const loaderOptions: Parameters<typeof createStackLoader>[0] = {
    config: positionals.length === 1 ? positionals[0]! : [...positionals],
    cwd: io.cwd,
    // The exact model, as `merge stack --minion-id` computes it: a host's output is what that run prints (`9.0` stays a
    // float, an int key stays an int and keeps its place).
    values: "exact",
    // Each host's data is only written out: it may share the parsed files' values instead of copying them.
    sharedValues: true,
    ...(opts === undefined ? {} : { opts }),
    ...(spec === undefined ? {} : { spec, registry: await createCliRegistry(options.plugins, io.cwd, spec) }),
  };
  // --watch hears of what every host reads and looks for (and the file a host failed on).
  const loader = createStackLoader({ ...loaderOptions, ...stackLoaderHooks(io, io.cwd) });
  return runBatch({
    hosts,
    options,
    io,
    title: (host) => `merge stack --minion-id ${host.id}${spec === undefined ? "" : ` --spec '${spec}'`}`,
    render: (host) => {
      const result = noteFailure(io, io.cwd, () =>
        loader.load({ minionId: host.id, grains: host.grains, pillar: host.pillar }),
      );
      return { data: result.data, warnings: result.warnings.map(warningText) };
    },
  });
}

/**
 * `merge pillar --config FILE --minions FILE`: the master's `ext_pillar:` list for every host, each stack entry
 * through one loader and each MySQL entry through one connection pool for the whole batch. A host's `pillar` is the
 * pillar compiled before the external ones (Salt's `pillar_roots`): they see it, and the result starts from it.
 */
export async function executePillarBatch({ values, io }: CommandInput): Promise<number> {
  checkBatchOptions(values, "pillar", ["minion-id", "grains", "pillar"]);
  const options = createOutputOptions(values, "pillar");
  saltYaml(values, "pillar");
  const file = requiredString(values, "config", "pillar");
  const { hosts, problems } = await readMinions(values.minions as string, io);
  if (problems.length > 0) return reportProblems(io, problems);
  const config = await loadMasterConfig(file, io);
  const merging = pillarMerging(config, (message) => warn(io, message));
  const baseDir = dirname(resolve(io.cwd, file));
  const { mergeExtPillar } = await import("@merge/source-mysql");
  // Every step computes in the exact model, as `merge pillar --minion-id` does, so a host's file is what that prints.
  const steps: ((host: MinionHost, pillar: PyDict, warnings: string[]) => Promise<PyDict>)[] = [];
  const closers: (() => Promise<void>)[] = [];
  for (const entry of config.entries) {
    if (merging.excluded(entry)) continue;
    if (entry.type === "stack") {
      const { createStackLoader } = await import("@merge/source-stack");
      const loader = createStackLoader({
        config: stackEntryConfig(entry) as Parameters<typeof createStackLoader>[0]["config"],
        cwd: baseDir,
        // __opts__ is the master configuration as Salt reads it: `9.0` and int keys keep their type.
        opts: config.exact as Dict,
        values: "exact",
        ...stackLoaderHooks(io, baseDir),
      });
      steps.push(async (host, pillar, warnings) => {
        const result = noteFailure(io, baseDir, () =>
          loader.load({ minionId: host.id, pillar: pillar as unknown as Dict, grains: host.grains }),
        );
        warnings.push(...result.warnings.map(warningText));
        return result.data;
      });
    } else if (entry.type === "mysql") {
      const source = await createMysqlSource(values, config.value, [entry.value]);
      closers.push(() => source.close());
      steps.push((host) => source.fetch(host.id));
    } else {
      warn(io, `${entryName(config, entry)}: merge runs only stack and mysql external pillars; skipped`);
    }
  }
  try {
    return await runBatch({
      hosts,
      options,
      io,
      title: (host) => `merge pillar --config ${file} --minion-id ${host.id}`,
      render: async (host) => {
        const warnings: string[] = [];
        const top = host.pillar instanceof PyDict ? host.pillar : mergeExtPillar(new PyDict(), host.pillar);
        // With ext_pillar_first the external pillars start from nothing and the host's pillar goes over them last.
        let pillar = merging.extPillarFirst ? new PyDict() : top;
        for (const step of steps) pillar = merging.merge(pillar, await step(host, pillar, warnings));
        if (merging.extPillarFirst) pillar = merging.merge(pillar, top);
        return { data: pillar, warnings };
      },
    });
  } finally {
    for (const close of closers) await close();
  }
}

function warningText(warning: { file?: string; message: string; code: string }): string {
  return `${warning.file === undefined ? "" : `${warning.file}: `}${warning.message} [${warning.code}]`;
}

/** Every problem of a `--minions` file, one line each; nothing is rendered. */
async function reportProblems(io: CliIO, problems: readonly MergeError[]): Promise<number> {
  const { failureReport } = await import("../report.js");
  for (const error of problems) io.writeErr(failureReport(error, io.env, io.stderrIsTTY, io.color));
  return EXIT_DATA;
}
