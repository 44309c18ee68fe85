import { describe, expect, it } from "vitest";
import type { CliIO } from "./io.js";
import { run } from "./run.js";

function fakeIO(options: { tty?: boolean; env?: Record<string, string> } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = {
    cwd: process.cwd(),
    env: options.env ?? {},
    readStdin: async () => new Uint8Array(),
    writeOut: async (text) => {
      out.push(text);
    },
    writeErr: (text) => {
      err.push(text);
    },
    stdoutIsTTY: options.tty ?? false,
    stderrIsTTY: options.tty ?? false,
  };
  return { io, out, err };
}

describe("run", () => {
  it("returns 2 and prints the usage error in red on a terminal", async () => {
    const { io, err } = fakeIO({ tty: true });
    expect(await run(["nope"], io)).toBe(2);
    expect(err.join("")).toBe(
      "\u001b[31mmerge:\u001b[39m unknown command \"nope\" [USAGE]\nRun 'merge --help' for usage.\n",
    );
  });

  it("prints no colour on a terminal when NO_COLOR is set", async () => {
    const { io, err } = fakeIO({ tty: true, env: { NO_COLOR: "1" } });
    expect(await run(["nope"], io)).toBe(2);
    expect(err.join("")).not.toContain("\u001b[");
  });

  it("rejects a command with too many arguments", async () => {
    const { io, err } = fakeIO();
    expect(await run(["mysql", "extra", "--config", "x", "--minion-id", "y"], io)).toBe(2);
    expect(err.join("")).toContain('unexpected argument "extra" [USAGE]');
  });

  it("prints the version without loading any command", async () => {
    const { io, out } = fakeIO();
    expect(await run(["--version"], io)).toBe(0);
    expect(out.join("")).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});
