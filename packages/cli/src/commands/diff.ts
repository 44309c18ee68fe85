import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { formatPath, isMapping, mappingSize, type PathKey } from "@merge/core";
import { type ExplainEntry, explainResult, type Explanation } from "@merge/explain";
import { pathId } from "../explain/paths.js";
import { decisionJson, decisionText, originJson } from "../explain/render.js";
import { shortValue, where } from "../explain/words.js";
import { type CapturedResult, type CliIO, painter, useColor } from "../io.js";
import { keyNotFound, lookupKey } from "../key-path.js";
import { loadDocument } from "../load-document.js";
import { colorFlag, parseCommandLine } from "../parse-args.js";
import { jsonText, yamlText } from "../render.js";
import { didYouMean } from "../suggest.js";
import { diffTrees, type TreeChange } from "../tree-diff.js";
import { isUsageError, UsageError } from "../usage.js";
import { emit } from "./common.js";
import { type CommandInfo, type CommandInput, findCommand, type ParsedValues } from "./table.js";

/** `merge diff` exits as diff(1) does: 0 the same, 1 different, 2 trouble. */
const SAME = 0;
const DIFFERENT = 1;
const TROUBLE = 2;

/** The commands whose results `merge diff` can compare. */
const MERGING = ["docs", "cloud-config", "stack", "mysql", "pillar"];

/** The options `merge diff` keeps for itself, whatever the command compared. */
const OWN_OPTIONS = {
  against: { type: "string" },
  format: { type: "string", short: "f" },
  color: { type: "boolean" },
  "no-color": { type: "boolean" },
  get: { type: "string", short: "g" },
  watch: { type: "boolean", short: "w" },
} as const;

interface Side {
  readonly label: string;
  readonly title: string;
  readonly result: CapturedResult;
}

export async function execute(input: CommandInput): Promise<number> {
  const own = ownOptions(input.positionals);
  // With --watch, both sides are compared again whenever a file either side read changes (watch.ts).
  if (own.watch === true) {
    const { watch } = await import("../watch.js");
    return watch({ execute: ({ io }) => compareSides(own, io) }, input);
  }
  return compareSides(own, input.io);
}

async function compareSides(own: OwnOptions, io: CliIO): Promise<number> {
  const format = own.format ?? "text";
  if (format !== "text" && format !== "json") {
    throw new UsageError(
      `--format must be text or json, not "${format}"${didYouMean(format, ["text", "json"])}`,
      "diff",
    );
  }
  const sideIO = own.color === undefined ? io : { ...io, color: own.color };
  let sides: [Side, Side] | undefined;
  try {
    const command = findCommand(own.rest[0] ?? "");
    sides =
      command !== undefined && MERGING.includes(command.name)
        ? await commandSides(command, own.rest.slice(1), own.against, sideIO)
        : await fileSides(own.rest, own.against, sideIO);
  } catch (error) {
    if (isUsageError(error)) throw error;
    const { failureReport } = await import("../report.js");
    io.writeErr(failureReport(error, io.env, io.stderrIsTTY, own.color));
    return TROUBLE;
  }
  const [left, right] = sides;
  let a = left.result.value;
  let b = right.result.value;
  let base: readonly PathKey[] = [];
  if (own.get !== undefined) {
    const found = [lookupKey(a, own.get), lookupKey(b, own.get)];
    if (!found[0]!.found && !found[1]!.found) {
      const { failureReport } = await import("../report.js");
      io.writeErr(failureReport(keyNotFound(own.get, found[0]!), io.env, io.stderrIsTTY, own.color));
      return TROUBLE;
    }
    a = found[0]!.found ? found[0]!.value : undefined;
    b = found[1]!.found ? found[1]!.value : undefined;
    const hit = found[0]!.found ? found[0]! : found[1]!;
    base = hit.found ? hit.path : [];
  }
  const changes = compare(a, b, base);
  const explained = [explain(left.result), explain(right.result)] as const;
  const text =
    format === "json"
      ? jsonText(jsonReport(left, right, changes, explained))
      : textReport(left, right, changes, explained, painter(useColor(io.stdoutIsTTY, io.env, own.color)));
  await emit(io, text, undefined);
  return changes.length === 0 ? SAME : DIFFERENT;
}

/** A value missing on one side (`--get` of a key only one side has) is an addition or a removal of the whole. */
function compare(a: unknown, b: unknown, base: readonly PathKey[]): TreeChange[] {
  if (a === undefined && b === undefined) return [];
  if (a === undefined) return [{ kind: "added", path: base, new: b }];
  if (b === undefined) return [{ kind: "removed", path: base, old: a }];
  return diffTrees(a, b).map((change) => ({
    ...change,
    path: [...base, ...change.path],
    ...(change.otherPath === undefined ? {} : { otherPath: [...base, ...change.otherPath] }),
  }));
}

interface OwnOptions {
  readonly against: string | undefined;
  readonly format: string | undefined;
  readonly color: boolean | undefined;
  readonly get: string | undefined;
  readonly watch: boolean | undefined;
  /** Everything else, in order: the command and its arguments, or the two files. */
  readonly rest: string[];
}

/** Takes `merge diff`'s own options out of the arguments; the rest belongs to the command compared. */
function ownOptions(args: readonly string[]): OwnOptions {
  const rest: string[] = [];
  const values: Record<string, string | boolean> = {};
  const { tokens } = parseArgs({
    args: [...args],
    options: OWN_OPTIONS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  for (const token of tokens) {
    if (token.kind === "option" && Object.hasOwn(OWN_OPTIONS, token.name)) {
      const spec = OWN_OPTIONS[token.name as keyof typeof OWN_OPTIONS];
      if (spec.type === "string") {
        if (token.value === undefined) throw new UsageError(`--${token.name} needs a value`, "diff");
        if (values[token.name] !== undefined) throw new UsageError(`--${token.name} was given twice`, "diff");
        values[token.name] = token.value;
      } else values[token.name] = true;
      continue;
    }
    if (token.kind === "option-terminator") {
      rest.push("--");
      continue;
    }
    // Everything else is kept as written, in its place (an option's value too).
    if (token.kind === "option") {
      rest.push(token.rawName);
      if (token.value !== undefined) {
        if (token.inlineValue === true) rest[rest.length - 1] += `=${token.value}`;
        else rest.push(token.value);
      }
    } else rest.push(token.value);
  }
  return {
    against: values.against as string | undefined,
    format: values.format as string | undefined,
    color: values["no-color"] === true ? false : values.color === true ? true : undefined,
    get: values.get as string | undefined,
    watch: values.watch === true ? true : undefined,
    rest,
  };
}

/** `merge diff OLD NEW` (or `merge diff FILE --against DIR`): two YAML/JSON documents, compared as they are. */
async function fileSides(
  rest: readonly string[],
  against: string | undefined,
  io: CliIO,
): Promise<[Side, Side]> {
  const files = rest.filter((arg) => arg !== "--");
  const want = against === undefined ? 2 : 1;
  if (files.length !== want || files.some((file) => file.startsWith("-") && file !== "-")) {
    const first = files[0];
    const hint = first !== undefined && !first.includes(".") ? didYouMean(first, MERGING) : "";
    throw new UsageError(
      against === undefined
        ? `compare two files (merge diff OLD NEW) or a command's two results (merge diff stack ...), not ${describeArgs(rest)}${hint}`
        : `with --against, name one file to compare with its copy in ${against}${hint}`,
      "diff",
    );
  }
  const [oldName, newName] = against === undefined ? [files[0]!, files[1]!] : [files[0]!, files[0]!];
  const otherIO = against === undefined ? io : { ...io, cwd: resolve(io.cwd, against) };
  const side = async (name: string, sideIO: CliIO, label: string): Promise<Side> => {
    const doc = await loadDocument(name, sideIO);
    const shown = sideIO === io ? name : `${against}/${name}`;
    return {
      label,
      title: shown,
      result: {
        value: doc.value,
        title: shown,
        documents: [{ name: shown, value: doc.value, positionOf: doc.positionOf }],
        events: [],
      },
    };
  };
  return [await side(oldName, io, "old"), await side(newName, otherIO, "new")];
}

function describeArgs(args: readonly string[]): string {
  return args.length === 0 ? "nothing" : `"${args.join(" ")}"`;
}

/**
 * `merge diff COMMAND ARGS...`: the command's arguments are read with its own options; a single-value option given
 * twice sets the two sides, `--against DIR` runs the second side in DIR. Each side runs as the command itself would,
 * with provenance, and hands its result over instead of printing it.
 */
async function commandSides(
  command: CommandInfo,
  args: readonly string[],
  against: string | undefined,
  io: CliIO,
): Promise<[Side, Side]> {
  const { tokens } = parseArgs({
    args: [...args],
    options: command.options,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const values = new Map<string, string[]>();
  for (const token of tokens) {
    if (token.kind !== "option" || token.value === undefined) continue;
    const spec = command.options[token.name];
    if (spec === undefined || spec.type !== "string" || spec.multiple === true) continue;
    values.set(token.name, [...(values.get(token.name) ?? []), token.value]);
  }
  const split = [...values].filter(([, given]) => given.length > 1);
  for (const [name, given] of split) {
    if (given.length > 2)
      throw new UsageError(
        `--${name} was given ${given.length} times; merge diff compares two sides`,
        "diff",
      );
  }
  if (split.length === 0 && against === undefined) {
    throw new UsageError(
      `nothing tells the two sides apart: give one option twice (--minion-id web1 --minion-id web2) or --against DIR`,
      "diff",
    );
  }
  const sideArgs = (side: 0 | 1): string[] => {
    const seen = new Map<string, number>();
    const out: string[] = [];
    const positionals: string[] = [];
    for (const token of tokens) {
      if (token.kind === "positional") positionals.push(token.value);
      if (token.kind !== "option") continue;
      const pair = split.find(([name]) => name === token.name);
      if (pair !== undefined) {
        const n = seen.get(token.name) ?? 0;
        seen.set(token.name, n + 1);
        if (n !== side) continue;
      }
      out.push(token.value === undefined ? `--${token.name}` : `--${token.name}=${token.value}`);
    }
    return [...out, "--", ...positionals];
  };
  const label = (side: 0 | 1) =>
    split.length > 0 ? split.map(([, given]) => given[side]).join(" ") : side === 0 ? "here" : against!;
  const run = async (side: 0 | 1): Promise<Side> => {
    const parsed = parseCommandLine(command, sideArgs(side));
    const values: ParsedValues = {
      ...parsed.values,
      explain: true,
      get: undefined,
      output: undefined,
      watch: undefined,
    };
    const cwd = side === 1 && against !== undefined ? resolve(io.cwd, against) : io.cwd;
    let captured: CapturedResult | undefined;
    const tag = `[${label(side)}] `;
    const sideIO: CliIO = {
      ...io,
      cwd,
      color: colorFlag(values) ?? io.color,
      capture: (result) => {
        captured = result;
      },
      writeErr: (text) => io.writeErr(text.replace(/^(?=.)/gm, tag)),
      // Each side tells what it read, so `merge diff --watch` watches the files of both.
    };
    const module = await command.load();
    await module.execute({ values, positionals: parsed.positionals, io: sideIO });
    if (captured === undefined)
      throw new UsageError(`merge ${command.name} produced no result to compare`, "diff");
    const where = side === 1 && against !== undefined ? ` (in ${against})` : "";
    return { label: label(side), title: `${captured.title.split("\n")[0]}${where}`, result: captured };
  };
  return [await run(0), await run(1)];
}

function explain(result: CapturedResult): { explanation: Explanation; byPath: Map<string, ExplainEntry> } {
  const explanation = explainResult(result.value, result.documents, result.events);
  const byPath = new Map<string, ExplainEntry>();
  for (const entry of explanation.entries) byPath.set(pathId(entry.path), entry);
  return { explanation, byPath };
}

type Explained = ReturnType<typeof explain>;

/** `from minions/web2.yml:9, replaced by stack() (__: overwrite)`: where a value came from on one side. */
function provenance(explained: Explained, path: readonly PathKey[]): string {
  const entry = explained.byPath.get(pathId(path));
  if (entry === undefined) return "";
  const parts: string[] = [];
  if (entry.origin !== undefined) parts.push(`from ${where(entry.origin.name, entry.origin.line)}`);
  else if (entry.contributors.length > 0) {
    const names = entry.contributors.map(
      (index) => explained.explanation.documents[index]?.name ?? `#${index + 1}`,
    );
    parts.push(`from ${[...new Set(names)].join(", ")}`);
  }
  if (entry.decision !== undefined) {
    parts.push(decisionText(entry.decision, entry.origin?.document));
  }
  return parts.join(", ");
}

function describeValue(value: unknown): string {
  if (Array.isArray(value))
    return value.length === 0 ? "[]" : `a list of ${value.length} item${value.length === 1 ? "" : "s"}`;
  if (isMapping(value)) {
    const size = mappingSize(value);
    return size === 0 ? "{}" : `a mapping of ${size} key${size === 1 ? "" : "s"}`;
  }
  return shortValue(value);
}

/** A container's YAML below its line (at most 6 lines), for additions and removals of mappings and lists. */
function blockLines(value: unknown, indent: string, mark: string): string[] {
  if (
    !(Array.isArray(value) || isMapping(value)) ||
    describeValue(value).startsWith("[") ||
    describeValue(value).startsWith("{")
  ) {
    return [];
  }
  const lines = yamlText(value).trimEnd().split("\n");
  const shown = lines.slice(0, 6).map((line) => `${indent}${mark} ${line}`);
  if (lines.length > 6) shown.push(`${indent}${mark} … (${lines.length - 6} more lines)`);
  return shown;
}

function textReport(
  left: Side,
  right: Side,
  changes: readonly TreeChange[],
  explained: readonly [Explained, Explained],
  paint: ReturnType<typeof painter>,
): string {
  const lines = [paint.bold(`--- ${left.title}`), paint.bold(`+++ ${right.title}`)];
  const counts = { added: 0, removed: 0, changed: 0 };
  for (const change of changes) {
    counts[change.kind]++;
    const path = formatPath(change.path) || "(the whole result)";
    if (change.kind === "changed") {
      lines.push(paint.yellow(`~ ${path}`));
      const from = provenance(explained[0], change.path);
      const to = provenance(explained[1], change.otherPath ?? change.path);
      lines.push(paint.red(`    - ${describeValue(change.old)}${from === "" ? "" : `   ${from}`}`));
      lines.push(paint.green(`    + ${describeValue(change.new)}${to === "" ? "" : `   ${to}`}`));
    } else if (change.kind === "added") {
      const from = provenance(explained[1], change.path);
      lines.push(paint.green(`+ ${path}: ${describeValue(change.new)}${from === "" ? "" : `   ${from}`}`));
      lines.push(...blockLines(change.new, "    ", "+").map(paint.green));
    } else {
      const from = provenance(explained[0], change.path);
      lines.push(paint.red(`- ${path}: ${describeValue(change.old)}${from === "" ? "" : `   ${from}`}`));
      lines.push(...blockLines(change.old, "    ", "-").map(paint.red));
    }
  }
  const total = changes.length;
  lines.push(
    total === 0
      ? "no differences"
      : `${total} difference${total === 1 ? "" : "s"}: ${counts.added} added, ${counts.removed} removed, ${counts.changed} changed`,
  );
  return `${lines.join("\n")}\n`;
}

function sideJson(explained: Explained, path: readonly PathKey[], value: unknown) {
  const entry = explained.byPath.get(pathId(path));
  return {
    path: formatPath(path),
    value,
    from: entry?.origin === undefined ? null : originJson(entry.origin),
    decided: entry?.decision === undefined ? null : decisionJson(entry.decision),
  };
}

function jsonReport(
  left: Side,
  right: Side,
  changes: readonly TreeChange[],
  explained: readonly [Explained, Explained],
) {
  return {
    same: changes.length === 0,
    old: { title: left.title, label: left.label },
    new: { title: right.title, label: right.label },
    changes: changes.map((change) => ({
      change: change.kind,
      path: formatPath(change.path),
      keys: change.path,
      old: change.kind === "added" ? null : sideJson(explained[0], change.path, change.old),
      new:
        change.kind === "removed"
          ? null
          : sideJson(
              explained[1],
              change.kind === "changed" ? (change.otherPath ?? change.path) : change.path,
              change.new,
            ),
    })),
  };
}
