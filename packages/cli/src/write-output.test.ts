import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isMergeError } from "@merge/core";
import { describe, expect, it } from "vitest";
import { pendingTempFiles } from "./interrupt.js";
import { writeFileAtomic } from "./write-output.js";

describe("writeFileAtomic", () => {
  it("replaces the file and leaves nothing else in the directory", async () => {
    const dir = mkdtempSync(join(tmpdir(), "merge-atomic-"));
    writeFileSync(join(dir, "out.yml"), "old\n");
    await writeFileAtomic("out.yml", "new\n", dir);
    expect(readFileSync(join(dir, "out.yml"), "utf8")).toBe("new\n");
    expect(readdirSync(dir)).toEqual(["out.yml"]);
    expect(pendingTempFiles.size).toBe(0);
  });

  it("fails with OUTPUT_WRITE when the target is a directory, keeping it and removing the temp file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "merge-atomic-"));
    const target = join(dir, "taken");
    writeFileSync(join(dir, "keep.txt"), "x");
    await import("node:fs").then((fs) => fs.mkdirSync(target));
    let code: string | undefined;
    try {
      await writeFileAtomic(target, "new\n", dir);
    } catch (error) {
      code = isMergeError(error) ? error.code : undefined;
    }
    expect(code).toBe("OUTPUT_WRITE");
    expect(readdirSync(dir).sort()).toEqual(["keep.txt", "taken"]);
  });
});

describe("writeFileAtomic and permissions", () => {
  it("keeps the permission bits of the file it replaces", async () => {
    const { chmodSync, statSync } = await import("node:fs");
    const dir = mkdtempSync(join(tmpdir(), "merge-atomic-"));
    const file = join(dir, "secret.yml");
    writeFileSync(file, "old\n");
    chmodSync(file, 0o600);
    await writeFileAtomic(file, "new\n", dir);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, "utf8")).toBe("new\n");
  });
});
