import { formatPath, type PathKey } from "@merge/core";
import { isMap, isScalar, isSeq, type Node } from "yaml";
import { createYamlDocument, toPlain, type YamlStyle, yamlText } from "../render.js";
import type { ExplainDecision, ExplainEntry, ExplainOrigin, Explanation } from "@merge/explain";

function where(name: string | undefined, line: number | undefined): string {
  if (name === undefined) return "?";
  return line === undefined ? name : `${name}:${line}`;
}

function originText(origin: ExplainOrigin): string {
  return where(origin.name, origin.line);
}

/** `appended by list(append)`, `kept by dict() over b.yml:4`. */
function decisionText(decision: ExplainDecision, source: number | undefined): string {
  let text = `${decision.action} by ${decision.merger}`;
  const elsewhere = decision.document !== undefined && decision.document !== source;
  if (elsewhere && decision.action === "kept") text += ` over ${where(decision.name, decision.line)}`;
  else if (elsewhere) text += ` merging ${where(decision.name, decision.line)}`;
  if (decision.detail !== undefined && decision.detail !== "") text += ` (${decision.detail})`;
  return text;
}

/** The comment `--explain` puts next to one value or container. */
export function describeEntry(entry: ExplainEntry, documents: Explanation["documents"]): string {
  const parts: string[] = [];
  if (entry.origin !== undefined) parts.push(`from ${originText(entry.origin)}`);
  else if (entry.kind !== "value" && entry.contributors.length > 0) {
    const names = entry.contributors.map((index) => documents[index]?.name ?? `#${index + 1}`);
    parts.push(`from ${[...new Set(names)].join(", ")}`);
  }
  const decision = entry.decision;
  // A container built from several inputs was not decided by one merger: its values say who decided them.
  const single = entry.kind === "value" || entry.origin !== undefined || entry.contributors.length <= 1;
  const source =
    entry.origin?.document ?? (entry.contributors.length === 1 ? entry.contributors[0] : undefined);
  if (decision !== undefined && single) parts.push(decisionText(decision, source));
  return parts.join(", ");
}

/** The merged YAML with a comment on every line saying where the value came from and what decided it. */
export function renderExplainedYaml(
  result: unknown,
  explanation: Explanation,
  title: string,
  style: YamlStyle = "default",
): string {
  const doc = createYamlDocument(result, style);
  const byPath = new Map<string, ExplainEntry>();
  for (const entry of explanation.entries) byPath.set(JSON.stringify(entry.path), entry);
  const comment = (path: readonly PathKey[]) => {
    const entry = byPath.get(JSON.stringify(path));
    return entry === undefined ? "" : describeEntry(entry, explanation.documents);
  };

  const header = [` ${title}`, " inputs, in merge order:"];
  for (const input of explanation.documents) {
    header.push(`   ${input.index + 1}. ${input.name}${input.note === undefined ? "" : ` (${input.note})`}`);
  }
  for (const removal of explanation.removed) {
    const d = removal.decision;
    const why = d.detail === undefined ? "" : `, ${d.detail}`;
    header.push(
      ` removed ${formatPath(removal.path) || "(root)"}: by ${d.merger} in ${where(d.name, d.line)}${why}`,
    );
  }
  doc.commentBefore = header.join("\n");

  const annotate = (node: unknown, path: PathKey[]) => {
    if (isMap(node)) {
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        path.push(key);
        const text = comment(path);
        if (isScalar(pair.value)) {
          if (text !== "") pair.value.comment = ` ${text}`;
        } else if (text !== "" && pair.key !== null && typeof pair.key === "object") {
          (pair.key as Node).comment = ` ${text}`;
        }
        annotate(pair.value, path);
        path.pop();
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, index) => {
        path.push(index);
        const text = comment(path);
        if (text !== "") {
          if (isScalar(item)) item.comment = ` ${text}`;
          else if (item !== null && typeof item === "object") (item as Node).commentBefore = ` ${text}`;
        }
        annotate(item, path);
        path.pop();
      });
    }
  };
  annotate(doc.contents, []);
  return yamlText(doc, style);
}

/** `--explain --format json`: the result plus one record per value. */
export function renderExplainedJson(result: unknown, explanation: Explanation): string {
  const out = {
    result: toPlain(result),
    documents: explanation.documents,
    values: explanation.entries.map((entry) => ({
      path: formatPath(entry.path),
      keys: entry.path,
      kind: entry.kind,
      ...(entry.kind === "value" ? { value: toPlain(entry.value) } : {}),
      from: entry.origin === undefined ? null : originJson(entry.origin),
      contributors: entry.kind === "value" ? undefined : entry.contributors,
      decided: entry.decision === undefined ? null : decisionJson(entry.decision),
      history: entry.history.map(decisionJson),
    })),
    removed: explanation.removed.map((removal) => ({
      path: formatPath(removal.path),
      keys: removal.path,
      decided: decisionJson(removal.decision),
    })),
  };
  return `${JSON.stringify(out, null, 2)}\n`;
}

function originJson(origin: ExplainOrigin) {
  return {
    document: origin.document,
    file: origin.name,
    line: origin.line ?? null,
    column: origin.column ?? null,
    path: formatPath(origin.path),
  };
}

function decisionJson(decision: ExplainDecision) {
  return {
    action: decision.action,
    merger: decision.merger,
    document: decision.document ?? null,
    file: decision.name ?? null,
    line: decision.line ?? null,
    detail: decision.detail ?? null,
    inherited: decision.inherited,
  };
}
