import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { merge, REPO } from "./helpers.js";

// docs/cli.md quotes every --help text; this keeps the reference and the binary in step.
const reference = readFileSync(join(REPO, "docs", "cli.md"), "utf8");

describe("docs/cli.md", () => {
  it.each([
    [],
    ["docs"],
    ["cloud-config"],
    ["system-config"],
    ["stack"],
    ["mysql"],
    ["pillar"],
    ["mergers"],
    ["diff"],
    ["daemon"],
    ["completion"],
  ])("quotes `merge %s --help` as the binary prints it", (...command: string[]) => {
    const help = merge([...command, "--help"]).stdout;
    expect(help.length).toBeGreaterThan(100);
    expect(reference).toContain(help);
  });
});
