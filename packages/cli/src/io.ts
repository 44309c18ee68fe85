/** What the CLI touches of the outside world, so `run` can be driven by tests without a process. */
export interface CliIO {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Reads all of standard input (bytes: user-data may be gzip). */
  readStdin(): Promise<Uint8Array>;
  /** Writes to standard output; resolves once the text is handed over. */
  writeOut(text: string): Promise<void>;
  writeErr(text: string): void;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
}

/** Colour only on a terminal and never when `NO_COLOR` is set to anything non-empty (no-color.org). */
export function useColor(isTTY: boolean, env: CliIO["env"]): boolean {
  const noColor = env.NO_COLOR;
  if (noColor !== undefined && noColor !== "") return false;
  if (env.TERM === "dumb") return false;
  return isTTY;
}

export interface Painter {
  red(text: string): string;
  yellow(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

const plain = (text: string): string => text;
const sgr = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;

export function painter(enabled: boolean): Painter {
  if (!enabled) return { red: plain, yellow: plain, dim: plain, bold: plain };
  return { red: sgr(31, 39), yellow: sgr(33, 39), dim: sgr(2, 22), bold: sgr(1, 22) };
}
