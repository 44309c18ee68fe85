"use strict";
// Runs the bundle (dist/bin.cjs and its chunks, CommonJS) on a Node without module.enableCompileCache() (20.19 to
// 22.0), keeping V8's compiled code between runs. Compiling the ~360 kB `merge stack` loads, and the functions it
// runs on first call, is a good part of a short command's time; from a cache V8 reads most of it instead.
//
// Each chunk is compiled as a vm.Script with the cache V8 made for it in an earlier run. At the process's exit, the
// scripts that had no cache V8 accepted get one, made then so that it holds the functions compiled while the command
// ran too. The cache only saves time: an entry is used only for the file it was made from (its change time and size,
// see fileStamp) and only whole (see dataOf), V8 checks it against its own version and flags and compiles afresh
// when it does not fit, and every failure to read or write it is silent. Where an entry is, see
// README ("How it is built").

const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");
const { createRequire } = require("node:module");
const { pathToFileURL } = require("node:url");

// An import() in a module Node loaded itself: Node's own ES-module loader. Bare names (mysql2) are looked up from
// bin/, which is in the same package as the chunks.
const importModule = (specifier) => import(specifier);

// The chunk's text inside CommonJS's function wrapper, on a line of its own so positions in the chunk stay as they are.
const WRAPPER_START = "(function (exports, require, module, __filename, __dirname) {\n";
const WRAPPER_END = "\n})";

/** The directory of the cache: `$XDG_CACHE_HOME/merge/v8-cache`, else `~/.cache/merge/v8-cache`. */
function cacheDirectory(env) {
  const xdg = env.XDG_CACHE_HOME;
  if (xdg !== undefined && path.isAbsolute(xdg)) return path.join(xdg, "merge", "v8-cache");
  let home;
  try {
    home = require("node:os").homedir();
  } catch {
    return undefined;
  }
  return home === "" ? undefined : path.join(home, ".cache", "merge", "v8-cache");
}

// Each entry starts with the stamp of the file it was made from. V8 checks only the source's length: the code of a
// rebuilt bin.cjs (a name without a content hash) of the same length would otherwise run from the old file's cache.
const STAMP_BYTES = 16;
// Then V8's data, twice. Release builds of V8 do not check a code cache's integrity: a damaged byte in the data (a bad
// disk, a copy cut short) is run as it is and can crash V8, on every run until the entry goes. An entry is therefore
// used only when its two copies are the same. A checksum would do as well but would eat much of what the cache saves:
// node:crypto takes about 8 ms to load and start, a checksum in JavaScript about 5 ms for the 0.5 MB of
// `merge stack`; the copies cost a memcmp and the reading of the second one, 2-3 ms.

/** V8's data in an entry read from disk, or undefined when the entry is not for this file or not whole. */
function dataOf(entry, stamp) {
  const length = (entry.length - STAMP_BYTES) / 2;
  if (!Number.isInteger(length) || length <= 0 || !entry.subarray(0, STAMP_BYTES).equals(stamp))
    return undefined;
  const data = entry.subarray(STAMP_BYTES, STAMP_BYTES + length);
  return data.equals(entry.subarray(STAMP_BYTES + length)) ? data : undefined;
}

/** The file's change time and size (its change time moves with every write, and no archive sets it). */
function fileStamp(file) {
  const stat = fs.statSync(file);
  const stamp = Buffer.alloc(STAMP_BYTES);
  stamp.writeDoubleLE(stat.ctimeMs, 0);
  stamp.writeDoubleLE(stat.size, 8);
  return stamp;
}

/**
 * Whether the cache directory is this user's own: a directory (not a link to one) that belongs to the user and that
 * no one else may write to. Compiled code read from a directory someone else controls would be their code.
 */
function ownDirectory(dir) {
  try {
    const stat = fs.lstatSync(dir);
    if (!stat.isDirectory()) return false;
    if (typeof process.getuid !== "function") return true; // Windows: no owners and modes to check
    return stat.uid === process.getuid() && (stat.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/**
 * Runs `entry` (a CommonJS file of the bundle) with the compile cache. `tag` tells cached code of one release and
 * Node apart from another's (the merge version).
 */
function runCached(entry, tag, env) {
  const dir = cacheDirectory(env);
  const readable = dir !== undefined && ownDirectory(dir);
  const suffix = `-${tag}-${process.version}-${process.arch}`;
  const modules = new Map();
  const unsaved = [];

  function load(file) {
    const known = modules.get(file);
    if (known !== undefined) return known.exports;
    const stamp = fileStamp(file);
    let source = fs.readFileSync(file, "utf8");
    // bin.cjs's `#!` line may only begin a script; inside the wrapper it becomes a comment of the same length.
    if (source.startsWith("#!")) source = `//${source.slice(2)}`;
    const key = dir === undefined ? undefined : path.join(dir, `${path.basename(file)}${suffix}`);
    let cachedData;
    if (readable) {
      try {
        cachedData = dataOf(fs.readFileSync(key), stamp);
      } catch {
        cachedData = undefined;
      }
    }
    const script = new vm.Script(WRAPPER_START + source + WRAPPER_END, {
      filename: file,
      lineOffset: -1,
      cachedData,
    });
    if (key !== undefined && (cachedData === undefined || script.cachedDataRejected === true))
      unsaved.push({ script, key, stamp });
    const module = { exports: {}, id: file, filename: file, loaded: false };
    modules.set(file, module);
    const directory = path.dirname(file);
    let nodeRequire;
    const node = () => {
      if (nodeRequire === undefined) nodeRequire = createRequire(file);
      return nodeRequire;
    };
    // The bundle's own files go through this loader; packages and built-ins through Node's require.
    const chunkRequire = (id) =>
      id.startsWith("./") || id.startsWith("../") ? load(path.resolve(directory, id)) : node()(id);
    chunkRequire.resolve = (id, options) => node().resolve(id, options);
    // The bundle's import() calls use this one (see rolldown.config.ts): a script compiled here has none that works.
    chunkRequire.import = (specifier) =>
      importModule(
        specifier.startsWith("./") || specifier.startsWith("../")
          ? pathToFileURL(path.resolve(directory, specifier)).href
          : specifier,
      );
    script.runInThisContext()(module.exports, chunkRequire, module, file, directory);
    module.loaded = true;
    return module.exports;
  }

  if (dir !== undefined) process.on("exit", () => save(dir, unsaved, suffix, entry));
  load(entry);
}

/** The names of the bundle's files: `entry` and the chunks beside it (`chunks/`, names with a content hash). */
function bundleFiles(entry) {
  const names = new Set([path.basename(entry)]);
  try {
    for (const name of fs.readdirSync(path.join(path.dirname(entry), "chunks"))) names.add(name);
  } catch {
    // No chunks directory: only the entry is known.
  }
  return names;
}

/**
 * Writes the cache of each script that had none (or a rejected one); each entry is replaced whole or not at all.
 * Then removes this release's entries of files the bundle no longer has: a chunk's name changes with its content, so
 * each rebuild would otherwise leave its predecessor's entries behind. Entries of other releases (another `suffix`)
 * are left alone, since another installation may still use them.
 */
function save(dir, unsaved, suffix, entry) {
  if (unsaved.length === 0) return;
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    return;
  }
  if (!ownDirectory(dir)) return;
  for (const { script, key, stamp } of unsaved) {
    const temporary = `${key}.${process.pid}.tmp`;
    try {
      const data = script.createCachedData();
      fs.writeFileSync(temporary, Buffer.concat([stamp, data, data]), { mode: 0o600 });
      fs.renameSync(temporary, key);
    } catch {
      try {
        fs.rmSync(temporary, { force: true });
      } catch {
        // Nothing to do: the cache is only ever a saving.
      }
    }
  }
  const files = bundleFiles(entry);
  try {
    for (const name of fs.readdirSync(dir))
      if (name.endsWith(suffix) && !files.has(name.slice(0, -suffix.length))) fs.rmSync(path.join(dir, name));
  } catch {
    // An entry left behind costs only disk space.
  }
}

module.exports = { runCached };
