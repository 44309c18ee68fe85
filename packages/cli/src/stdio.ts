// Standard output and error as main() writes them. Node makes process.stdout and process.stderr on first use, and
// making the first of them loads the modules of its kind: about 2 ms of a one-host `merge stack`, which otherwise
// loads none of them. A regular file or /dev/null is written with fs.writeSync, which is what Node's own stream for
// such a file does (its writes are synchronous); anything else (a pipe, a terminal, a socket) goes through Node's
// stream, made when first needed.
import { fstatSync, statSync, writeSync } from "node:fs";

export interface StandardStream {
  /** The descriptor is a regular file or /dev/null: written synchronously here, and never a terminal. */
  readonly plain: boolean;
  /** Whether it is a terminal (asking makes Node's stream unless it is plain). */
  isTTY(): boolean;
  /** Node's stream for it, made on first use with `onError` listening. */
  stream(): NodeJS.WriteStream;
  /** Output queued in Node's stream (none when it was never made). */
  queued(): number;
}

/** Standard output (1) or error (2); `onError` hears the errors of Node's stream once it is made. */
export function standardStream(fd: 1 | 2, onError: (error: NodeJS.ErrnoException) => void): StandardStream {
  const plain = plainFile(fd);
  let made: NodeJS.WriteStream | undefined;
  const stream = (): NodeJS.WriteStream => {
    if (made === undefined) {
      made = fd === 1 ? process.stdout : process.stderr;
      made.on("error", onError);
    }
    return made;
  };
  return {
    plain,
    isTTY: () => !plain && stream().isTTY === true,
    stream,
    queued: () => made?.writableLength ?? 0,
  };
}

/** Writes all of `text` to `fd` (a plain file: see `standardStream`); throws what the write met. */
export function writeAllSync(fd: number, text: string): void {
  const bytes = Buffer.from(text, "utf8");
  for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset);
}

// Stats as BigInts: without the option, Node 20 writes a stat's result into a buffer that its realpath also reads,
// and after the stat of a pipe, modules imported later could be loaded twice under two paths (two copies of
// @merge/core, whose values then do not know each other).
function plainFile(fd: number): boolean {
  try {
    const stat = fstatSync(fd, { bigint: true });
    if (stat.isFile()) return true;
    // /dev/null: the same device numbers (a terminal is a character device too, and needs Node's stream).
    return stat.isCharacterDevice() && stat.rdev === statSync("/dev/null", { bigint: true }).rdev;
  } catch {
    return false;
  }
}
