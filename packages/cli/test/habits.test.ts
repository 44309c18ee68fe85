import { describe, expect, it } from "vitest";
import { merge } from "./helpers.js";

describe("suggestions for mistakes", () => {
  it("suggests the command, option or value meant", () => {
    expect(merge(["doc", "a.yml"]).stderr).toBe(
      'merge: unknown command "doc" (did you mean "docs"?) [USAGE]\nRun \'merge --help\' for usage.\n',
    );
    expect(merge(["docs", "--fromat", "json", "docs/base.yml"]).stderr).toContain(
      'merge: unknown option --fromat (did you mean "--format"?) [USAGE]',
    );
    expect(merge(["docs", "--format", "jsno", "docs/base.yml"]).stderr).toContain(
      '--format must be yaml or json, not "jsno" (did you mean "json"?)',
    );
    expect(merge(["help", "stak"]).stderr).toContain('unknown command "stak" (did you mean "stack"?)');
  });

  it("says what is wrong in its own words, never the argument parser's", () => {
    const missing = merge(["docs", "docs/base.yml", "-o"]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toBe(
      "merge: -o/--output needs a value [USAGE]\nRun 'merge docs --help' for usage.\n",
    );
    const swallowed = merge(["docs", "-o", "--explain", "docs/base.yml"]);
    expect(swallowed.stderr).toContain(
      "-o/--output needs a value, but the next argument is the option --explain (write -o=--explain if that is the value)",
    );
    expect(merge(["docs", "--explain=yes", "docs/base.yml"]).stderr).toContain("--explain takes no value");
    expect(merge(["docs", "--spec", "list()", "--spec", "dict()", "docs/base.yml"]).stderr).toContain(
      "--spec was given twice (list(), dict()); give it once, or compare the two results with 'merge diff docs ...'",
    );
  });
});

describe("colour", () => {
  it("colours messages on a pipe with FORCE_COLOR or --color, and never with --no-color", () => {
    const red = "\u001b[31merror:\u001b[39m";
    expect(merge(["docs", "missing.yml"], { env: { FORCE_COLOR: "1" } }).stderr).toContain(red);
    expect(merge(["docs", "missing.yml", "--color"]).stderr).toContain(red);
    expect(merge(["docs", "missing.yml"], { env: { FORCE_COLOR: "0" } }).stderr).not.toContain("\u001b[");
    expect(merge(["docs", "missing.yml", "--no-color"], { env: { FORCE_COLOR: "1" } }).stderr).not.toContain(
      "\u001b[",
    );
    expect(merge(["docs", "missing.yml"]).stderr).not.toContain("\u001b[");
  });
});

describe("merge mergers --format json", () => {
  it("lists every merger with its kinds and options for programs", () => {
    const run = merge(["mergers", "--format", "json"]);
    expect(run.status).toBe(0);
    const { mergers } = JSON.parse(run.stdout) as {
      mergers: { name: string; kinds: string[]; options: { name: string; description: string }[] }[];
    };
    expect(mergers.map((m) => m.name)).toEqual(["list", "dict", "str", "stack"]);
    expect(mergers[0]!.options.map((option) => option.name)).toContain("append");
  });
});

describe("a mistyped merger name or option in a spec", () => {
  it("gets the nearest registered one suggested", () => {
    // cloud-init ignores an unknown option: a warning, an error with --strict; both suggest the option meant.
    expect(merge(["docs", "--spec", "list(apend)", "docs/base.yml"]).stderr).toContain(
      'unknown option "apend" (cloud-init ignores it) (did you mean "append"?)',
    );
    expect(merge(["docs", "--spec", "lst(append)", "docs/base.yml"]).stderr).toContain(
      '(did you mean "list"?) [UNKNOWN_MERGER]',
    );
  });
});

describe("a syntax error in a document", () => {
  it("quotes the line with a caret under the position", () => {
    const run = merge(["docs", "--yaml", "1.1", "docs/bad.yml"]);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      "error: docs/bad.yml:3:6: expected ',' or the end of the flow collection, but found ':' (a simple key must be on one line) [YAML_PARSE]\n" +
        "    3 | other: 3\n" +
        "      |      ^\n",
    );
    const tab = merge(["docs", "-"], { input: "a:\tb: c\n" });
    expect(tab.stderr).toContain("    1 | a:\\tb: c\n      |   ^\n");
  });

  it("never quotes a Salt-side file, which may hold secrets", () => {
    const run = merge(["stack", "stack.cfg", "--minion-id", "x", "--pillar", "-"], {
      input: "password: [s3cret\n",
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("[YAML_PARSE]");
    expect(run.stderr).not.toContain("s3cret");
  });
});
