import { isAbsolute, relative, resolve } from "node:path";
import { joinPath } from "./glob.js";

// A tag that reads another template by name: Jinja's own and Salt's serializer imports. Only a quoted literal name
// is a name known before rendering.
const TEMPLATE_TAG =
  /\{%[-+]?\s*(?:include|import|from|extends|import_yaml|import_json|import_text)\s+(?:"([^"\\\n]*)"|'([^'\\\n]*)')/g;

/**
 * The template names a text reads by a literal name (`{% include 'x.jinja' %}`, `{% from "m.sls" import f %}`,
 * `{% import_yaml 'defaults.yml' as d %}`), in order. A name built while rendering is not known here.
 */
export function templateNames(text: string): string[] {
  if (!text.includes("{%")) return [];
  const names: string[] = [];
  for (const match of text.matchAll(TEMPLATE_TAG)) names.push(match[1] ?? match[2]!);
  return names;
}

/**
 * Where the renderer finds template `name` for a config in `baseDir` (as written, relative to the loader's directory
 * `cwd`), named as the loader names its files: in the config's directory, never above it (an absolute name counts
 * only when it lies inside). Undefined for a name the renderer refuses.
 */
export function templatePath(name: string, baseDir: string, cwd: string): string | undefined {
  let rel = name;
  if (isAbsolute(name)) {
    const inside = relative(resolve(cwd, baseDir), resolve(name));
    if (inside === "" || inside.startsWith("..") || isAbsolute(inside)) return undefined;
    rel = inside;
  }
  const pieces: string[] = [];
  for (const piece of rel.split("/")) {
    if (piece === "..") return undefined;
    if (piece !== "" && piece !== ".") pieces.push(piece);
  }
  if (pieces.length === 0) return undefined;
  return joinPath(baseDir, pieces.join("/"));
}
