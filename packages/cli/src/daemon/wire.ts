// How the `merge` command and a running `merge daemon` talk over the daemon's socket: frames of one kind byte, a
// four-byte big-endian length and that many bytes. Text (output, JSON) is UTF-8; standard input travels as the bytes
// it was.

/** What the command sends. */
export const TO_DAEMON = {
  /** The first frame: a `DaemonRequest` as JSON. */
  request: 0x52, // R
  /** All of the command's standard input, after the daemon asked for it. */
  stdin: 0x49, // I
  /** Standard input could not be read: `{ code, message }` as JSON (the error the command reports). */
  stdinError: 0x69, // i
  /** After `accepted`: run it. A command that gave up waiting for the answer never sends this, and runs itself. */
  go: 0x47, // G
  /** A signal the command received (SIGINT, SIGTERM, SIGHUP), by name. */
  signal: 0x53, // S
} as const;

/** What the daemon sends. */
export const TO_COMMAND = {
  /** The daemon will run the command once told to go (see `go`). */
  accepted: 0x41, // A
  /** The daemon will not run it (`{ reason }` as JSON): the command runs in its own process, as without a daemon. */
  declined: 0x4c, // L
  /** Text for standard output. */
  stdout: 0x4f, // O
  /** Text for standard error. */
  stderr: 0x45, // E
  /** The command reads standard input: send it. */
  needStdin: 0x4e, // N
  /** The command ended: `{ status }` as JSON. Nothing follows. */
  exit: 0x58, // X
  /** The answer to a `status` or `stop` request: a `DaemonStatus` as JSON. */
  status: 0x54, // T
} as const;

const HEADER = 5;
/** No frame is larger: a request or an output of more than 1 GiB is not a command's. */
export const MAX_FRAME = 1 << 30;

export function frame(kind: number, payload: Uint8Array | string): Buffer {
  const body = typeof payload === "string" ? Buffer.from(payload, "utf8") : payload;
  const head = Buffer.allocUnsafe(HEADER);
  head.writeUInt8(kind, 0);
  head.writeUInt32BE(body.length, 1);
  return Buffer.concat([head, body], HEADER + body.length);
}

export interface Frame {
  readonly kind: number;
  readonly body: Buffer;
}

/** Cuts a byte stream into frames. Throws on a frame longer than MAX_FRAME (the peer is not a merge). */
export class FrameReader {
  private pending: Buffer[] = [];
  private size = 0;

  push(chunk: Buffer): Frame[] {
    this.pending.push(chunk);
    this.size += chunk.length;
    const frames: Frame[] = [];
    while (this.size >= HEADER) {
      let joined = this.pending.length === 1 ? (this.pending[0] as Buffer) : Buffer.concat(this.pending);
      const length = joined.readUInt32BE(1);
      if (length > MAX_FRAME) throw new Error(`a frame of ${length} bytes`);
      if (joined.length < HEADER + length) {
        this.pending = [joined];
        break;
      }
      frames.push({ kind: joined.readUInt8(0), body: joined.subarray(HEADER, HEADER + length) });
      joined = joined.subarray(HEADER + length);
      this.pending = joined.length === 0 ? [] : [joined];
      this.size = joined.length;
    }
    return frames;
  }
}

/** The first frame of a connection. */
export type DaemonRequest = RunRequest | { readonly type: "status" } | { readonly type: "stop" };

/** Everything of the command's process that a run may depend on (see docs/cli.md, "merge daemon"). */
export interface RunRequest {
  readonly type: "run";
  /** The build the command is (see `buildIdentity`): a daemon of another build declines, and stops. */
  readonly build: string;
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly umask: number;
  readonly uid: number;
  readonly gid: number;
  readonly groups: readonly number[];
  /** Node's own options of the command's process (`node --cpu-prof …`): any make the daemon decline. */
  readonly execArgv: readonly string[];
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
}

export interface DaemonStatus {
  readonly pid: number;
  readonly build: string;
  readonly socket: string;
  /** When it started (ISO 8601). */
  readonly started: string;
  /** Commands it ran. */
  readonly served: number;
  /** Whether it is running a command now. */
  readonly busy: boolean;
  /** Whether it is still warming up on a tree of its own (until its first command, at most a second or two). */
  readonly warming: boolean;
  /** It stops after this many seconds without a command. */
  readonly idleSeconds: number;
}
