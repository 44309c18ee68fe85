import { execFileSync } from "node:child_process";
import { lstatSync, rmSync } from "node:fs";

/** True when the binary suites run against another build (MERGE_CLI_BIN), which may be one that replaces devices. */
export const FOREIGN_BUILD = process.env.MERGE_CLI_BIN !== undefined && process.env.MERGE_CLI_BIN !== "";

/**
 * Runs `body`, which writes to a system character device (`/dev/null`, `/dev/full`), and checks afterwards that the
 * device is still that device. A build that replaces it (the bug these tests are about) would break every other
 * program on the machine: the device is made again at once (as root) and the test fails saying so.
 */
export async function withSystemDevice(
  path: string,
  device: { readonly major: number; readonly minor: number },
  body: () => void | Promise<void>,
): Promise<void> {
  const before = lstatSync(path);
  let outcome: { failed: false } | { failed: true; error: unknown } = { failed: false };
  try {
    await body();
  } catch (error) {
    outcome = { failed: true, error };
  }
  const after = lstatSync(path, { throwIfNoEntry: false });
  if (after === undefined || !after.isCharacterDevice() || after.rdev !== before.rdev) {
    rmSync(path, { force: true });
    execFileSync("mknod", ["-m", "666", path, "c", String(device.major), String(device.minor)]);
    throw new Error(`${path} was replaced by the command under test; it has been made again`);
  }
  if (outcome.failed) throw outcome.error;
}

export const DEV_NULL = { major: 1, minor: 3 } as const;
export const DEV_FULL = { major: 1, minor: 7 } as const;
