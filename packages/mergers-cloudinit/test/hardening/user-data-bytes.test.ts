import { isMergeError } from "@merge/core";
import { describe, expect, it } from "vitest";
import { mergeUserData } from "../../src/index.js";
import { reportCounts, tally } from "../../../../test-kit/tally.js";

reportCounts("@merge/mergers-cloudinit", import.meta.url);

describe("odd bytes in user-data", () => {
  it("rejects a cloud-config part that is not valid UTF-8, as cloud-init's YAML reader does", async () => {
    // cloud-init decodes the part with surrogateescape, and PyYAML refuses the escaped byte; nothing of the part
    // is merged. Replacing the byte with U+FFFD would merge a value cloud-init never sees.
    const inputs = [
      Buffer.from("#cloud-config\na: \xff\n", "latin1"),
      Buffer.from("#cloud-config\nruncmd: [ok, \xc3\x28]\n", "latin1"),
      Buffer.from("#cloud-config\n\xed\xa0\x80: 1\n", "latin1"),
    ];
    for (const bytes of inputs) {
      const result = await mergeUserData(new Uint8Array(bytes));
      expect(result.parts.map((p) => p.status)).toEqual(["rejected"]);
      expect(isMergeError(result.errors[0])).toBe(true);
      expect(result.errors[0]?.code).toMatch(/^YAML_/);
      expect(JSON.stringify(result.value)).not.toContain("\ufffd");
    }
    tally("odd-yaml", inputs.length);
  });
});
