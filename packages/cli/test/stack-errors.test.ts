import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { merge } from "./helpers.js";

// A YAML error in a PillarStack file: the line is quoted with a caret only when it is the author's text (issue 13),
// never when a pillar or opts value was rendered into it (issue 17).
const dir = mkdtempSync(join(tmpdir(), "merge-cli-stack-errors-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const files: Record<string, string> = {
  "plain.cfg": "plain.yml\n",
  "plain.yml": "x: 1\nports: [80, 443\nother: 2\n",
  "secret.cfg": "secret.yml\n",
  "secret.yml": "x: {{ pillar.x }}\nports: [80, 443\npassword: {{ pillar.pw }}\n",
  "opts.cfg": "opts.yml\n",
  "opts.yml": "ports: [80, 443\ntoken: {{ __opts__.token }}\n",
  "pillar.yml": 'x: 1\npw: "*topsecretpw"\n',
  master: "token: '!optssecret'\next_pillar:\n  - stack: opts.cfg\n",
  "tpl.cfg": "tpl.yml\n",
  "tpl.yml": "{% include 'part.jinja' %}\nport: {{ pillar.ports.first }}\n",
  "part.jinja": "name: web\n",
  "hosts.yml": "- id: m1\n  pillar: {pw: '*topsecretpw'}\n",
};
for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);

describe("a YAML error in a stack file", () => {
  it("quotes the line of a file without template syntax, a caret under the column", () => {
    const run = merge(["stack", "plain.cfg", "--minion-id", "m1"], { cwd: dir });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /^error: plain\.yml:3:6: expected .+ \[YAML_PARSE\]\n {4}3 \| other: 2\n {6}\| {6}\^\n$/,
    );
  });

  it("colours the caret lines as the other commands do", () => {
    const run = merge(["stack", "plain.cfg", "--minion-id", "m1", "--color"], { cwd: dir });
    expect(run.stderr).toContain(
      "\u001b[2m    3 |\u001b[22m other: 2\n\u001b[2m      |\u001b[22m      \u001b[31m^\u001b[39m\n",
    );
  });

  it("never prints a pillar secret rendered into the bad line", () => {
    const run = merge(["stack", "secret.cfg", "--minion-id", "m1", "--pillar", "pillar.yml"], { cwd: dir });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^error: secret\.yml:3:\d+: .+ \[YAML_PARSE\]\n$/);
    expect(run.stderr).not.toContain("topsecretpw");
  });

  it("never prints an opts secret rendered into the bad line (merge pillar)", () => {
    const run = merge(["pillar", "--config", "master", "--minion-id", "m1"], { cwd: dir });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^error: .*opts\.yml:2:\d+: .+ \[YAML_PARSE\]\n$/);
    expect(run.stderr).not.toContain("optssecret");
  });
});

describe("a template error in a stack file", () => {
  it("names the file and line it happened in (after an include too) and quotes the template's line", () => {
    const run = merge(["stack", "tpl.cfg", "--minion-id", "m1", "--pillar", "pillar.yml"], { cwd: dir });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      "error: tpl.yml:2:22: 'dict object' has no attribute 'ports' [TEMPLATE_RENDER]\n" +
        "    2 | port: {{ pillar.ports.first }}\n" +
        "      |                      ^\n",
    );
  });

  it("quotes it in a --minions batch, under the host's name", () => {
    const run = merge(["stack", "tpl.cfg", "--minions", "hosts.yml"], { cwd: dir });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      "m1: error: tpl.yml:2:22: 'dict object' has no attribute 'ports' [TEMPLATE_RENDER]\n" +
        "    2 | port: {{ pillar.ports.first }}\n",
    );
    expect(run.stderr).not.toContain("topsecretpw");
  });
});
