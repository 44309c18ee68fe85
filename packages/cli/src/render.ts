import { Document } from "yaml";

export type OutputFormat = "yaml" | "json";

/** `cloud-init`: keys sorted and list items at the indentation of their key, like the PyYAML dump cloud-init writes. */
export type YamlStyle = "default" | "cloud-init";

/**
 * YAML as both YAML 1.1 readers (cloud-init, Salt) and 1.2 readers read back the same: strings such as `yes`,
 * `on`, `0755` or `1:30` are quoted. Shared subtrees are written out again rather than as anchors and aliases,
 * and long strings are never folded.
 */
export function createYamlDocument(value: unknown, style: YamlStyle = "default"): Document {
  return new Document(toPlain(value), {
    version: "1.1",
    aliasDuplicateObjects: false,
    // cloud-init writes its file with PyYAML's safe_dump, which sorts mapping keys.
    sortMapEntries: style === "cloud-init" ? byKey : false,
  });
}

function byKey(a: { key: unknown }, b: { key: unknown }): number {
  const left = String((a.key as { value?: unknown }).value ?? a.key);
  const right = String((b.key as { value?: unknown }).value ?? b.key);
  return left < right ? -1 : left > right ? 1 : 0;
}

export function yamlText(doc: Document, style: YamlStyle = "default"): string {
  return doc.toString({ lineWidth: 0, minContentWidth: 0, indentSeq: style !== "cloud-init" });
}

export function renderValue(value: unknown, format: OutputFormat, style: YamlStyle = "default"): string {
  if (format === "json") return `${JSON.stringify(toPlain(value), null, 2)}\n`;
  return yamlText(createYamlDocument(value, style), style);
}

/**
 * Values that YAML and JSON cannot hold as they are: a bigint beyond 2^53 becomes its decimal string (a safe one
 * a number), binary data base64, a Date its ISO text (JSON) — the same for both formats so they agree.
 */
export function toPlain(value: unknown): unknown {
  if (typeof value === "bigint") {
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  if (value instanceof Uint8Array) return Buffer.from(value).toString("base64");
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return null;
    // A YAML timestamp keeps its written form (`2001-12-14` stays a date, not a midnight datetime).
    const python = (value as { toPythonIsoformat?: () => string }).toPythonIsoformat;
    return typeof python === "function" ? python.call(value) : value.toISOString();
  }
  if (value === undefined) return null;
  // A YAML `!!set` is written as the list of its members, which both formats can hold.
  if (value instanceof Set) return [...value].map(toPlain);
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((child: unknown) => {
      const plain = toPlain(child);
      if (plain !== child) changed = true;
      return plain;
    });
    return changed ? out : value;
  }
  if (typeof value === "object" && value !== null) {
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      const plain = toPlain(child);
      if (plain !== child) changed = true;
      // defineProperty keeps a `__proto__` key as data.
      Object.defineProperty(out, key, { value: plain, enumerable: true, writable: true, configurable: true });
    }
    return changed ? out : value;
  }
  return value;
}
