import {
  cloneTree,
  compareCodePoints,
  getItem,
  isMapping,
  type Mapping,
  MergeError,
  mappingKeys,
  PyDict,
  parseJson,
  toPlain,
} from "@merge/core";
import { isPythonDigit } from "./python-text.js";

/**
 * Instance data as cloud-init's jinja handler reads it (`/run/cloud-init/instance-data-sensitive.json`): the JSON
 * object, and the template variables made from it.
 */
export interface InstanceData {
  /** The JSON object as `json.loads` gives it (`@merge/core`'s exact model). */
  readonly data: PyDict;
  /** The file it was read from, for messages. */
  readonly file: string | undefined;
  /**
   * Fresh template variables, as `convert_jinja_instance_data(data, decode_paths=..., include_key_aliases=True)`
   * builds them for every part it renders: keys in sorted order; each `vN` mapping's keys copied to the top level
   * (`v1.cloud_name` is also `cloud_name`); every key holding one of Jinja's operators (`-`, `.`, `/`, ...) also under
   * an alias with `_` for each operator (`meta-data` is also `meta_data`); values under a path listed in
   * `base64-encoded-keys` decoded. A new copy each call, since a template may change what it is given.
   */
  variables(): Record<string, unknown>;
}

// jinja2.lexer's operator_re: longest operators first.
const OPERATORS = /\/\/|\*\*|==|!=|>=|<=|[+\-/*%~[\](){}><=.:|,;]/g;

/**
 * Reads instance data from its JSON text as cloud-init does (`load_json`: Python's `json.loads`, an object at the
 * top). Invalid JSON is `JSON_PARSE`; anything but an object, or a `base64-encoded-keys` entry that does not decode,
 * is `INSTANCE_DATA` (cloud-init then leaves every jinja part unrendered).
 */
export function loadInstanceData(
  text: string | Uint8Array,
  options: { readonly file?: string } = {},
): InstanceData {
  const source = typeof text === "string" ? text : decodeUtf8(text, options.file);
  return instanceDataFrom(parseJson(source, { file: options.file }), options);
}

/** Instance data from an already loaded object (plain objects or `PyDict`s). */
export function instanceDataFrom(value: unknown, options: { readonly file?: string } = {}): InstanceData {
  const file = options.file;
  const data = toExactMapping(value, file);
  const decodePaths = decodePathsOf(data, file);
  // Converted once up front so a value that does not decode is reported now; every render gets its own copy.
  const converted = convert(data, "", decodePaths, file);
  return {
    data,
    file,
    variables: () => toPlain(cloneTree(converted)) as Record<string, unknown>,
  };
}

function toExactMapping(value: unknown, file: string | undefined): PyDict {
  if (value instanceof PyDict) return value;
  if (isMapping(value)) {
    const out = new PyDict();
    for (const key of mappingKeys(value)) out.set(key, getItem(value, key));
    return out;
  }
  throw instanceError(`instance data must be a JSON object, not ${describe(value)}`, file);
}

/** `data.get("base64-encoded-keys", [])` with each path's `-` made `_`, as cloud-init iterates it. */
function decodePathsOf(data: PyDict, file: string | undefined): Set<string> {
  // cloud-init asks for the hyphenated name; the file it writes spells it base64_encoded_keys, so nothing is decoded
  // unless a file uses the hyphens.
  if (!data.has("base64-encoded-keys")) return new Set();
  const raw = data.get("base64-encoded-keys");
  let paths: unknown[];
  if (Array.isArray(raw)) paths = raw;
  else if (typeof raw === "string") paths = Array.from(raw);
  else if (isMapping(raw)) paths = mappingKeys(raw);
  else throw instanceError(`base64-encoded-keys must be a list of key paths, not ${describe(raw)}`, file);
  const out = new Set<string>();
  for (const path of paths) {
    if (typeof path !== "string") {
      throw instanceError(`base64-encoded-keys must list key paths (strings), not ${describe(path)}`, file);
    }
    out.add(path.replaceAll("-", "_"));
  }
  return out;
}

function convert(data: Mapping, prefix: string, decodePaths: Set<string>, file: string | undefined): PyDict {
  const result = new PyDict();
  const keys = mappingKeys(data) as unknown[];
  const names = keys.map((key) => (typeof key === "string" ? key : String(key)));
  const order = names.map((_, i) => i).sort((a, b) => compareCodePoints(names[a]!, names[b]!));
  for (const i of order) {
    const key = names[i]!;
    let value = getItem(data, keys[i] as string);
    const keyPath = prefix === "" ? key : `${prefix}/${key}`;
    if (decodePaths.has(keyPath)) value = pythonB64d(value, keyPath, file);
    if (isMapping(value)) {
      const inner = convert(value, keyPath, decodePaths, file);
      result.set(key, inner);
      if (isVersionKey(key)) for (const [sub, subValue] of inner) result.set(sub, cloneTree(subValue));
    } else {
      result.set(key, value);
    }
    const alias = key.replace(OPERATORS, "_");
    if (alias !== key) result.set(alias, cloneTree(result.get(key)));
  }
  return result;
}

/**
 * cloud-init's `b64d`: Python's `base64.b64decode` (not validating: characters outside the alphabet are skipped, the
 * data ends at the padding that completes a quantum), then text when the bytes are UTF-8, else the bytes.
 */
function pythonB64d(value: unknown, path: string, file: string | undefined): string | Uint8Array {
  if (typeof value !== "string") {
    throw instanceError(
      `${path} is listed in base64-encoded-keys but holds ${describe(value)}, not a string`,
      file,
    );
  }
  if (!isAscii(value)) {
    throw instanceError(`${path}: string argument should contain only ASCII characters`, file);
  }
  const out: number[] = [];
  let quad = 0;
  let left = 0;
  let pads = 0;
  let data = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (c === "=") {
      if (quad >= 2 && quad + ++pads >= 4) break;
      continue;
    }
    const v = ALPHABET.indexOf(c);
    if (v < 0) continue;
    pads = 0;
    data++;
    switch (quad) {
      case 0:
        left = v;
        quad = 1;
        break;
      case 1:
        out.push((left << 2) | (v >> 4));
        left = v & 0x0f;
        quad = 2;
        break;
      case 2:
        out.push((left << 4) | (v >> 2));
        left = v & 0x03;
        quad = 3;
        break;
      default:
        out.push((left << 6) | v);
        quad = 0;
    }
  }
  if (quad === 1) {
    throw instanceError(
      `${path}: Invalid base64-encoded string: number of data characters (${data}) cannot be 1 more than a multiple of 4`,
      file,
    );
  }
  if (quad !== 0) throw instanceError(`${path}: Incorrect padding`, file);
  const bytes = Uint8Array.from(out);
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return bytes;
  }
}

/** Python's `re.match(r"v\d+$", key)`: `\d` is any decimal digit, and `$` also matches before a final newline. */
function isVersionKey(key: string): boolean {
  const end = key.endsWith("\n") ? key.length - 1 : key.length;
  if (key[0] !== "v" || end < 2) return false;
  for (let i = 1; i < end; ) {
    const code = key.codePointAt(i)!;
    if (!isPythonDigit(code)) return false;
    i += code > 0xffff ? 2 : 1;
  }
  return true;
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

function decodeUtf8(bytes: Uint8Array, file: string | undefined): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch (cause) {
    throw new MergeError("INSTANCE_DATA", "instance data is not UTF-8 text", {
      source: file === undefined ? undefined : { file },
      cause,
    });
  }
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return "a list";
  if (isMapping(value)) return "an object";
  if (typeof value === "object") return "a number";
  return `a ${typeof value === "bigint" ? "number" : typeof value}`;
}

function instanceError(message: string, file: string | undefined): MergeError {
  return new MergeError("INSTANCE_DATA", message, { source: file === undefined ? undefined : { file } });
}
