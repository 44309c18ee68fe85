// Where a user's `merge daemon` listens, and which daemon may serve a command. Shared by the daemon and by
// dist/daemon-client.cjs, which bin/merge.cjs loads before anything else: only Node built-ins here.
import { statSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";

/**
 * The daemon's directory: `$XDG_RUNTIME_DIR/merge` (a per-user directory the system makes and removes), else
 * `merge-UID` in the temporary directory. Both are checked (`ownDirectory` with `OTHERS_ANY`: a socket there receives
 * the user's command lines, environment and input) before anything in them is trusted.
 */
export function daemonDirectory(env: Readonly<Record<string, string | undefined>>, uid: number): string {
  const runtime = env.XDG_RUNTIME_DIR;
  if (runtime !== undefined && isAbsolute(runtime)) return join(runtime, "merge");
  return join(tmpdir(), `merge-${uid}`);
}

export function daemonSocket(directory: string): string {
  return join(directory, "daemon.sock");
}

/**
 * What tells one build of merge from another: the bundle file's change time and size (a rebuild, an upgrade or a
 * reinstall changes the change time), and Node's version and architecture. A daemon serves only commands of its own
 * build.
 */
export function buildIdentity(bundle: string): string {
  const stat = statSync(bundle);
  return `${process.version} ${process.arch} ${stat.ctimeMs} ${stat.size}`;
}
