import { type Dict, isPlainObject, MergeError, PyDict, PyFloat, toPlain } from "@merge/core";
import type { CliIO } from "../io.js";
import { type LoadedDocument, loadDocument } from "../load-document.js";

/** One `ext_pillar:` entry of a Salt master configuration. */
export interface ExtPillarEntry {
  /** 0-based place in the `ext_pillar` list. */
  readonly index: number;
  /** `stack`, `mysql`, or whatever else the entry names. */
  readonly type: string;
  readonly value: unknown;
  /**
   * The same configuration as read, in the exact model: a stack matcher map keyed by `2` or `true` selects a config
   * for a grain `2` or `true` only with the key's own type, as Salt looks the value up in its dict.
   */
  readonly exact: unknown;
  /** Where the entry is written, for messages and `--explain`. */
  readonly line: number | undefined;
}

export interface MasterConfig {
  readonly file: string;
  readonly document: LoadedDocument;
  /** Plain values, as the MySQL and stack packages take their configuration. */
  readonly value: Dict;
  /** As read, in the exact model. */
  readonly exact: unknown;
  readonly entries: readonly ExtPillarEntry[];
}

/** Reads a Salt-master-style YAML file (as Salt reads YAML) and lists its `ext_pillar:` entries in order. */
export async function loadMasterConfig(file: string, io: CliIO): Promise<MasterConfig> {
  const document = await loadDocument(file, io, "salt");
  const exact = document.value;
  const value = toPlain(exact);
  if (!isPlainObject(value)) {
    throw new MergeError(
      "MASTER_CONFIG",
      "the master configuration must be a mapping with an ext_pillar: list",
      {
        source: { file, line: 1, column: 1 },
      },
    );
  }
  const list = value.ext_pillar;
  if (list !== undefined && list !== null && !Array.isArray(list)) {
    const at = document.positionOf(["ext_pillar"]);
    throw new MergeError("MASTER_CONFIG", "ext_pillar must be a list of `- name: configuration` entries", {
      source: { file, line: at?.line, column: at?.column },
    });
  }
  const entries: ExtPillarEntry[] = [];
  (list ?? []).forEach((item: unknown, index: number) => {
    const at = document.positionOf(["ext_pillar", index]);
    if (!isPlainObject(item) || Object.keys(item).length !== 1) {
      throw new MergeError(
        "MASTER_CONFIG",
        `ext_pillar item ${index + 1} must be a mapping with one key (stack, mysql, ...)`,
        {
          source: { file, line: at?.line, column: at?.column },
        },
      );
    }
    const type = Object.keys(item)[0]!;
    const exactValue = exactEntry(exact, index);
    if (type === "mysql") keepFloatDepths(item[type], exactValue);
    entries.push({ index, type, value: item[type], exact: exactValue, line: at?.line });
  });
  return { file, document, value, exact, entries };
}

/**
 * Puts back, into a `- mysql:` entry's plain configuration, each `depth` written as a float (`depth: 2.0`, or
 * `[query, 2.0]`), as a `PyFloat`: Salt fails on a float depth it does not replace (see @merge/source-mysql's
 * `effectiveDepth`), which a plain number could not tell.
 */
function keepFloatDepths(plain: unknown, exact: unknown, query = false): void {
  if (Array.isArray(plain) && Array.isArray(exact)) {
    // The entry's own list holds queries; a list inside it is one query, `[text, depth]`.
    if (query && exact[1] instanceof PyFloat) plain[1] = exact[1];
    else if (!query) {
      for (const [i, item] of plain.entries()) keepFloatDepths(item, exact[i], true);
    }
  } else if (isPlainObject(plain) && exact instanceof PyDict) {
    for (const key of Object.keys(plain)) {
      const value = exact.get(key);
      if (key === "depth" && value instanceof PyFloat) plain[key] = value;
      else if (!query) keepFloatDepths(plain[key], value, true);
    }
  }
}

/** The value of the one-key mapping at `ext_pillar[index]` of the exact master configuration. */
function exactEntry(exact: unknown, index: number): unknown {
  const list = exact instanceof PyDict ? exact.get("ext_pillar") : undefined;
  const item = Array.isArray(list) ? list[index] : undefined;
  return item instanceof PyDict ? [...item.values()][0] : undefined;
}

/** `master.yml:14 (mysql entry 2)`: how `--explain` names an entry's contribution. */
export function entryName(config: MasterConfig, entry: ExtPillarEntry): string {
  const where = entry.line === undefined ? config.file : `${config.file}:${entry.line}`;
  return `${where} (ext_pillar ${entry.index + 1}: ${entry.type})`;
}

/**
 * What a `stack` entry hands the stack loader: a matcher map as read (a `PyDict`, whose keys keep their YAML type),
 * a path or a list of paths as they are.
 */
export function stackEntryConfig(entry: ExtPillarEntry): unknown {
  return entry.exact instanceof PyDict ? entry.exact : entry.value;
}
