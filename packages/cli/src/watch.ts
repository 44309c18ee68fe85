import { statSync } from "node:fs";
import { resolve, relative } from "node:path";
import { isMergeError } from "@merge/core";
import type { FSWatcher } from "chokidar";
import { EXIT_DATA } from "./cli-error.js";
import type { CommandInput, CommandModule } from "./commands/table.js";
import type { CliIO, SearchedPath } from "./io.js";
import { oneLine, painter, useColor } from "./io.js";
import { isUsageError } from "./usage.js";
import { searchKey, searchWatch } from "./watch-searches.js";

/**
 * `--watch`: runs the command, then again whenever one of the files it read changes — the inputs named on the
 * command line, the files a stack config listed and globbed, the cloud-config parts — and prints each new result, or
 * the error, never exiting on a bad edit. The set of files is taken anew after every run (an edit can add or drop a
 * file from a stack). A file that is not there yet but would change the result is watched for too: a stack file the
 * config lists that is missing (`minions/{{ minion_id }}.yml`) and a new match of a glob line (`common/*.yml`) — their
 * directories are watched and a new file is taken when it is one the stack would read. A mistake in the command line
 * itself (exit 2) is not something an edit fixes: it ends the run.
 *
 * After each run standard error gets `merge: watching N files (Ctrl-C to stop)` (`... and M patterns` when there are
 * places to watch for new files); a change is announced as
 * `merge: FILE changed, rendering again`. Files are watched with chokidar; an editor that saves by writing a new file
 * and renaming it over the old one is seen as a change too.
 */
export async function watch(module: CommandModule, input: CommandInput): Promise<number> {
  const { io } = input;
  const paint = painter(useColor(io.stderrIsTTY, io.env, io.color));
  const { watch: chokidarWatch } = await import("chokidar");
  const { failureReport } = await import("./report.js");

  let watched = new Set<string>();
  let searched = new Map<string, SearchedPath>();
  let finds: (path: string) => boolean = () => false;
  let watcher: FSWatcher | undefined;
  let searchWatcher: FSWatcher | undefined;
  let running = false;
  let again: string | undefined;
  let onChange: (path: string) => void = () => undefined;
  // What each file was when a run read it (inode, size, modification time in ns): an event for a file that is still
  // so is a duplicate (chokidar's change event and the raw one for the same write) and is ignored.
  const seen = new Map<string, string>();
  // Each watched file's inode when its watch was set up.
  let armed = new Map<string, string>();

  // A new watcher over exactly these files (and one over the searches' directories), and the "watching" line is
  // printed only once changes are really being watched. The old watchers are closed first: chokidar shares one
  // fs.watch per path between its instances, and a file that an editor then replaced by a rename could stay watched at
  // its old inode, its next save unseen. A file changed while no watcher looked is caught up with below.
  const watchFiles = async (
    files: ReadonlySet<string>,
    searches: ReadonlyMap<string, SearchedPath>,
  ): Promise<void> => {
    const old = [watcher, searchWatcher];
    watcher = undefined;
    searchWatcher = undefined;
    for (const closing of old) await closing?.close();
    armed = new Map([...files].map((file) => [file, inodeOf(file)]));
    // chokidar never gets ready over no paths at all.
    let next: FSWatcher | undefined;
    if (files.size > 0) {
      const fileWatcher = chokidarWatch([...files], { ignoreInitial: true, persistent: true });
      next = fileWatcher;
      fileWatcher.on("change", (path) => onChange(path));
      fileWatcher.on("add", (path) => onChange(path));
      fileWatcher.on("unlink", (path) => onChange(path));
      // chokidar drops a second change of a file within 50 ms of the first; the raw events are never dropped, so a
      // quick second save (or a fix right after a bad edit) is rendered too.
      fileWatcher.on("raw", (_event, name, details) => {
        const at = (details as { watchedPath?: unknown } | undefined)?.watchedPath;
        if (typeof at !== "string") return;
        onChange(files.has(at) || typeof name !== "string" || name === "" ? at : resolve(at, name));
      });
      fileWatcher.on("error", (error) => io.writeErr(failureReport(error, io.env, io.stderrIsTTY, io.color)));
      await new Promise<void>((resolve) => fileWatcher.once("ready", () => resolve()));
    }
    const search = searchWatch(searches.values());
    let nextSearch: FSWatcher | undefined;
    if (search.roots.length > 0) {
      nextSearch = chokidarWatch([...search.roots], {
        ignoreInitial: true,
        persistent: true,
        ignored: (path: string) => search.ignored(path),
      });
      const found = (path: string) => {
        if (search.finds(path)) onChange(path);
      };
      nextSearch.on("add", found);
      nextSearch.on("change", found);
      nextSearch.on("error", (error) => io.writeErr(failureReport(error, io.env, io.stderrIsTTY, io.color)));
      const ready = nextSearch;
      await new Promise<void>((resolve) => ready.once("ready", () => resolve()));
    }
    watcher = next;
    searchWatcher = nextSearch;
    finds = search.finds;
    for (const file of files) {
      const was = seen.get(file);
      if (was !== undefined && was !== fingerprint(file)) onChange(file);
    }
  };
  const closeAll = async (): Promise<void> => {
    await watcher?.close();
    await searchWatcher?.close();
  };

  // Runs the command once and watches what it read; the status when nothing at all can be watched.
  const runOnce = async (): Promise<number | undefined> => {
    running = true;
    const files = new Set<string>();
    const searches = new Map<string, SearchedPath>();
    for (const file of watched) seen.set(file, fingerprint(file));
    const noteFile = (path: string) => {
      // A batch reads its files once per host: the first read is the one that counts.
      if (files.has(path)) return;
      files.add(path);
      seen.set(path, fingerprint(path));
    };
    const tracked: CliIO = {
      ...io,
      onFile: noteFile,
      onSearch: (search) => {
        searches.set(searchKey(search), search);
      },
    };
    let status: number;
    try {
      // A --minions batch reports a host's failure itself and returns 1.
      status = await module.execute({ ...input, io: tracked });
    } catch (error) {
      if (isUsageError(error)) throw error;
      io.writeErr(failureReport(error, io.env, io.stderrIsTTY, io.color));
      status = EXIT_DATA;
      // The file the error is in, when it names one the command may not have told of (a conf.d file, say).
      const file = isMergeError(error) ? error.source?.file : undefined;
      if (file !== undefined && isFile(resolve(io.cwd, file))) noteFile(resolve(io.cwd, file));
    }
    // A failed run may have stopped before reading every file (a stack whose first file no longer parses): it watches
    // what it read up to the failure (the file that broke it too) and keeps watching what the last run read, so
    // fixing any of those files renders again. One that read nothing that can be named watches the files on its
    // command line.
    if (status !== 0) {
      for (const file of watched) files.add(file);
      for (const [key, search] of searched) searches.set(key, search);
      if (files.size === 0) {
        for (const name of input.positionals) {
          const path = resolve(io.cwd, name);
          if (isFile(path)) noteFile(path);
        }
      }
    }
    if (files.size === 0 && searches.size === 0 && watched.size === 0 && searched.size === 0) {
      io.writeErr(`${paint.red("merge:")} nothing to watch: the command read no file\n`);
      running = false;
      return status;
    }
    const filesChanged = files.size > 0 && !sameSet(files, watched);
    const searchesChanged = !sameSet(new Set(searches.keys()), new Set(searched.keys()));
    if (filesChanged) watched = files;
    if (searchesChanged) searched = searches;
    // A file replaced since its watch was set up (an editor's save renames a new file over it) is watched again from
    // scratch: chokidar follows such a file to its new inode itself, but not always (a save after a run in which the
    // watchers were replaced went unseen about once in 40 tries).
    const replaced = [...watched].some((file) => armed.get(file) !== inodeOf(file));
    if (filesChanged || searchesChanged || replaced || watcher === undefined)
      await watchFiles(watched, searched);
    const patterns =
      searched.size === 0 ? "" : ` and ${searched.size} pattern${searched.size === 1 ? "" : "s"}`;
    const count = `${watched.size} file${watched.size === 1 ? "" : "s"}${patterns}`;
    io.writeErr(`${paint.dim(`merge: watching ${count} (Ctrl-C to stop)`)}\n`);
    running = false;
    return undefined;
  };

  return await new Promise<number>((resolveStatus, reject) => {
    onChange = (path: string) => {
      if (!watched.has(path) && !finds(path)) return;
      if (seen.get(path) === fingerprint(path)) return;
      if (running) {
        again = path;
        return;
      }
      void rerun(path);
    };
    const rerun = async (path: string) => {
      let changed: string | undefined = path;
      while (changed !== undefined) {
        again = undefined;
        io.writeErr(
          `${paint.dim(`merge: ${oneLine(relative(io.cwd, changed) || changed)} changed, rendering again`)}\n`,
        );
        try {
          await runOnce();
        } catch (error) {
          await closeAll();
          reject(error);
          return;
        }
        changed = again;
        // A change seen during the run may be one the run already read.
        if (changed !== undefined && seen.get(changed) === fingerprint(changed)) changed = undefined;
      }
    };
    runOnce().then(
      (status) => {
        if (status !== undefined) resolveStatus(status);
      },
      async (error: unknown) => {
        await closeAll();
        reject(error);
      },
    );
  });
}

/** The file's inode now, or `missing`. */
function inodeOf(path: string): string {
  const stat = statSync(path, { bigint: true, throwIfNoEntry: false });
  return stat === undefined ? "missing" : String(stat.ino);
}

/** The file as it is now, or `missing`. */
function fingerprint(path: string): string {
  try {
    const stat = statSync(path, { bigint: true });
    return `${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
  } catch {
    return "missing";
  }
}

function isFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() === true;
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size !== b.size) return false;
  for (const item of a) if (!b.has(item)) return false;
  return true;
}
