import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { mergeUserData, parseUserData } from "../../src/index.js";
import { reportCounts, tally } from "../../../../test-kit/tally.js";

reportCounts("@merge/mergers-cloudinit", import.meta.url);

const BOUNDARY = "==BOUNDARY==";
const MiB = 1024 * 1024;

function message(parts: readonly string[]): string {
  return `Content-Type: multipart/mixed; boundary="${BOUNDARY}"\nMIME-Version: 1.0\n\n${parts
    .map((part) => `--${BOUNDARY}\n${part}`)
    .join("")}--${BOUNDARY}--\n`;
}

function gzipPart(payload: Buffer): string {
  return `Content-Type: application/gzip\nContent-Transfer-Encoding: base64\n\n${gzipSync(payload, {
    level: 9,
  })
    .toString("base64")
    .replace(/(.{76})/g, "$1\n")}\n`;
}

describe("the gzip budget holds for the whole user-data", () => {
  it("refuses forty gzip parts that each fit the budget but together do not (SIZE_LIMIT)", async () => {
    // Each part inflates to 1 MiB, under the 8 MiB budget; forty of them are 40 MiB.
    const part = gzipPart(Buffer.alloc(MiB, "#"));
    const raw = message(Array.from({ length: 40 }, () => part));
    await expect(mergeUserData(raw, { maxInflatedBytes: 8 * MiB })).rejects.toMatchObject({
      code: "SIZE_LIMIT",
      details: { maxInflatedBytes: 8 * MiB },
    });
    // Under a budget that holds them all, the same message is read.
    const data = await parseUserData(raw, { maxInflatedBytes: 41 * MiB });
    expect(data.parts.length + data.skipped.length).toBe(40);
    tally("size", 2);
  });

  it("stops a gzipped message of forty gzip parts (a few KB) within the default budget, counting both layers", async () => {
    // The attack of issue 17: the outer gzip inflates to a message whose forty parts inflate to 16 MiB each.
    const part = gzipPart(Buffer.alloc(16 * MiB, " "));
    const outer = gzipSync(Buffer.from(message(Array.from({ length: 40 }, () => part))), { level: 9 });
    expect(outer.length).toBeLessThan(64 * 1024);
    const before = process.memoryUsage().rss;
    await expect(mergeUserData(new Uint8Array(outer))).rejects.toMatchObject({ code: "SIZE_LIMIT" });
    // At most the 64 MiB budget was inflated, not 640 MiB (a loose bound: this measures memory, not time).
    expect(process.memoryUsage().rss - before).toBeLessThan(400 * MiB);
    tally("size", 1);
  });

  it("counts the blob's own inflation against the budget", async () => {
    const inner = message([gzipPart(Buffer.alloc(3 * MiB, "#"))]);
    const outer = gzipSync(Buffer.from(`${inner}${" ".repeat(2 * MiB)}`));
    // 2 MiB of message plus a 3 MiB part: over a 4 MiB budget, although each layer alone fits.
    await expect(mergeUserData(new Uint8Array(outer), { maxInflatedBytes: 4 * MiB })).rejects.toMatchObject({
      code: "SIZE_LIMIT",
    });
    await expect(mergeUserData(new Uint8Array(outer), { maxInflatedBytes: 6 * MiB })).resolves.toBeDefined();
    tally("size", 2);
  });
});

describe("messages of many parts", () => {
  it("merges a message of 1,500 parts (a third of them gzip) as cloud-init does", async () => {
    const parts: string[] = [];
    for (let i = 0; i < 1500; i++) {
      const body = `#cloud-config\nruncmd: [c${i}]\n`;
      parts.push(
        i % 3 === 0
          ? gzipPart(Buffer.from(`${body}merge_how: 'dict(recurse_list)+list(append)'\n`))
          : `Content-Type: text/cloud-config\nMerge-Type: dict(recurse_list)+list(append)\n\n${body}`,
      );
    }
    const result = await mergeUserData(message(parts));
    expect(result.errors).toEqual([]);
    expect(result.merged.length).toBe(1500);
    expect(result.merged[1499]).toBe("part-1500");
    const runcmd = (result.value as { runcmd: string[] }).runcmd;
    expect(runcmd.length).toBe(1500);
    expect(runcmd[0]).toBe("c0");
    expect(runcmd[1499]).toBe("c1499");
    tally("size", 1);
  });

  it("refuses more parts than maxParts with SIZE_LIMIT, counting archive entries too", async () => {
    const part = "Content-Type: text/cloud-config\n\n#cloud-config\na: 1\n";
    await expect(
      parseUserData(message(Array.from({ length: 30 }, () => part)), { maxParts: 20 }),
    ).rejects.toMatchObject({
      code: "SIZE_LIMIT",
      details: { maxParts: 20 },
    });
    const archive = `#cloud-config-archive\n${Array.from({ length: 30 }, (_, i) => `- "#cloud-config\\nk${i}: 1\\n"`).join("\n")}\n`;
    await expect(parseUserData(archive, { maxParts: 20 })).rejects.toMatchObject({ code: "SIZE_LIMIT" });
    await expect(parseUserData(archive, { maxParts: 30 })).resolves.toMatchObject({ parts: { length: 30 } });
    tally("size", 3);
  });
});
