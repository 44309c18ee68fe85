import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { merge } from "./helpers.js";

// A YAML error in a cloud-config part: the message, then the part's line and a caret under the column (issue 13).
const dir = mkdtempSync(join(tmpdir(), "merge-cli-part-errors-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const bad = "#cloud-config\npackages: [git\nruncmd: []\n";
const mime = (parts: readonly { name: string; text: string }[]) =>
  'Content-Type: multipart/mixed; boundary="XX"\nMIME-Version: 1.0\n\n' +
  parts
    .map(
      ({ name, text }) =>
        `--XX\nContent-Type: text/cloud-config; charset="us-ascii"\nMIME-Version: 1.0\n` +
        `Content-Disposition: attachment; filename="${name}"\n\n${text}\n`,
    )
    .join("") +
  "--XX--\n";
writeFileSync(join(dir, "good.yml"), "#cloud-config\npackages: [vim]\n");
writeFileSync(join(dir, "bad.yml"), bad);
writeFileSync(
  join(dir, "user-data.mime"),
  mime([
    { name: "base.yml", text: "#cloud-config\na: 1\n" },
    { name: "web.yml", text: bad },
  ]),
);
writeFileSync(join(dir, "user-data.gz"), gzipSync(bad));
writeFileSync(
  join(dir, "template.yml"),
  "## template: jinja\n#cloud-config\npassword: {{ v1.secret }}\nruncmd: []\n",
);
writeFileSync(join(dir, "instance-data.json"), '{"v1": {"secret": "[hunter2"}}\n');

const caret = "    3 | runcmd: []\n      |       ^\n";

describe("a YAML error in a cloud-config part", () => {
  it("quotes the line of a plain file with a caret under the column, and merges the other parts", () => {
    const run = merge(["cloud-config", "good.yml", "bad.yml"], { cwd: dir });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe(
      `warning: part rejected, as cloud-init would: bad.yml:3:7: expected ',' or the end of the flow collection, but found ':' (a simple key must be on one line) [YAML_PARSE]\n${caret}`,
    );
    expect(run.stdout).toContain("packages:\n- vim\n");
  });

  it("names a part of a MIME message after the file and the part, counting lines from the part's start", () => {
    const run = merge(["cloud-config", "user-data.mime"], { cwd: dir });
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(
      /^warning: part rejected, as cloud-init would: user-data\.mime \(part web\.yml\):3:7: .+ \[YAML_PARSE\]\n/,
    );
    expect(run.stderr.endsWith(caret)).toBe(true);
  });

  it("names the part of gzip data too, and fails with the caret under --strict", () => {
    const run = merge(["cloud-config", "user-data.gz", "--strict"], { cwd: dir });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /^error: user-data\.gz \(part part-001\):3:7: .+ \[YAML_PARSE\]\n {4}3 \| runcmd: \[\]\n {6}\| {7}\^\nerror: --strict: 1 problem/,
    );
  });

  it("colours the gutter and the caret as the other caret lines do, and not with NO_COLOR", () => {
    const colored = merge(["cloud-config", "bad.yml", "--color"], { cwd: dir });
    expect(colored.stderr).toContain(
      "\u001b[2m    3 |\u001b[22m runcmd: []\n\u001b[2m      |\u001b[22m       \u001b[31m^\u001b[39m\n",
    );
    const plain = merge(["cloud-config", "bad.yml"], {
      cwd: dir,
      env: { NO_COLOR: "1", FORCE_COLOR: undefined },
    });
    expect(plain.stderr).toContain(caret);
    expect(plain.stderr).not.toContain("\u001b[");
  });

  it("never quotes a part a template rendered: its text holds instance data", () => {
    const run = merge(["cloud-config", "template.yml", "--instance-data", "instance-data.json"], {
      cwd: dir,
    });
    expect(run.stderr).toMatch(
      /^warning: part rejected, as cloud-init would: template\.yml:\d+:\d+: .+ \[YAML_PARSE\]\n$/,
    );
    expect(run.stderr).not.toContain("hunter2");
  });
});
