import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, merge, REPO } from "../helpers.js";
import { startMerge, withoutPauses } from "../spawn.js";
import { hostileJsonTexts } from "../../../../test-kit/hostile.js";
import { reportCounts, tally } from "../../../../test-kit/tally.js";

reportCounts("@merge/cli", import.meta.url);

const dir = mkdtempSync(join(tmpdir(), "merge-cli-hardening-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** A crash prints a JavaScript stack; a handled error prints one `error: ... [CODE]` line. */
function expectCleanFailure(stderr: string, code: RegExp): void {
  expect(stderr).toMatch(/^error: .*\[[A-Z_]+\]$/m);
  expect(stderr).toMatch(code);
  expect(stderr).not.toMatch(/\n\s+at .+\(.*:\d+:\d+\)/);
  expect(stderr).not.toMatch(/TypeError|RangeError|ReferenceError|Maximum call stack/);
}

describe("hostile input through the binary", () => {
  it("prints hostile keys as data in YAML and JSON, from files and stdin", () => {
    const texts = hostileJsonTexts();
    const paths = texts.map((text, index) => file(`hostile-${index}.json`, text));
    let cases = 0;
    for (const format of ["yaml", "json"]) {
      // Every payload in one run (one process per format keeps the suite fast); stdin adds one more document.
      const run = merge(["docs", "-f", format, ...paths, "-"], { input: texts[texts.length - 1], cwd: dir });
      expect(run.status).toBe(0);
      expect(run.stderr).toBe("");
      for (const key of ["__proto__", "constructor", "prototype", "keep", "list"])
        expect(run.stdout).toContain(key);
      if (format === "json") {
        const value = JSON.parse(run.stdout);
        expect(Object.keys(value)).toEqual(
          expect.arrayContaining(["__proto__", "constructor", "prototype", "keep"]),
        );
      }
      cases += texts.length + 1;
    }
    tally("pollution", cases);
  });

  it("refuses hostile merger specs with a coded error and status 1 or 2", () => {
    const specs = ["__proto__()", "constructor(prototype)", "dict(__proto__)", "toString()", "list(("];
    for (const spec of specs) {
      // --strict: an unknown option (dict(__proto__)) is only a warning otherwise, as cloud-init ignores it.
      const run = merge(["docs", "--strict", "--spec", spec, "-"], { input: "a: 1\n", cwd: dir });
      expect([1, 2], `${spec}: ${run.stdout}${run.stderr}`).toContain(run.status);
      expect(run.stdout).toBe("");
      expectCleanFailure(run.stderr, /\[(UNKNOWN_MERGER|UNKNOWN_OPTION|SPEC_SYNTAX|USAGE[A-Z_]*)\]/);
    }
    // Empty segments are skipped, so a spec of only `+` names no merger: nothing handles the mapping and the
    // start value `{}` stays (documented in core).
    const empty = merge(["docs", "--spec", "+".repeat(5000), "-"], { input: "a: 1\n", cwd: dir });
    expect(empty.status).toBe(0);
    expect(empty.stdout).toBe("{}\n");
    tally("pollution", specs.length + 1);
  });

  it("turns bombs, deep nesting, bad bytes and odd YAML into one coded error line and status 1", () => {
    let bomb = 'l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
    for (let i = 1; i < 10; i++)
      bomb += `l${i}: &l${i} [${Array(9)
        .fill(`*l${i - 1}`)
        .join(",")}]\n`;
    const cases: [string, string | Uint8Array, RegExp][] = [
      ["bomb.yml", bomb, /bomb\.yml:\d+:\d+: .*\[SIZE_LIMIT\]/],
      ["deep.yml", `${"[".repeat(100_000)}${"]".repeat(100_000)}`, /deep\.yml:1:\d+: .*\[DEPTH_LIMIT\]/],
      ["deep-block.yml", `${"- ".repeat(100_000)}x\n`, /deep-block\.yml:\d+:\d+: .*\[DEPTH_LIMIT\]/],
      ["binary.yml", new Uint8Array([0x61, 0x3a, 0x20, 0xff, 0x0a]), /binary\.yml: .*\[YAML_ENCODING\]/],
      [
        "utf16-bad.yml",
        new Uint8Array([0xff, 0xfe, 0x61, 0x00, 0x00, 0xd8]),
        /utf16-bad\.yml: .*\[YAML_ENCODING\]/,
      ],
      ["python.yml", "a: !!python/object/apply:os.system ['id']\n", /python\.yml:1:\d+: .*\[YAML_TAG\]/],
      ["tabs.yml", "a:\n\tb: 1\n", /tabs\.yml:2:1: .*\[YAML_PARSE\]/],
      ["recursive.yml", "a: &a [*a]\n", /recursive\.yml:1:\d+: .*\[YAML_PARSE\]/],
    ];
    for (const [name, text, pattern] of cases) {
      const path = file(name, text);
      const run = merge(["docs", path], { cwd: dir });
      expect(run.status).toBe(1);
      expect(run.stdout).toBe("");
      expectCleanFailure(run.stderr, pattern);
    }
    tally("size", 3);
    tally("odd-yaml", cases.length - 3);
  });

  it("reads UTF-16 with a byte-order mark, and a UTF-8 byte-order mark, from files and stdin", () => {
    const utf16 = file(
      "utf16.yml",
      new Uint8Array([0xff, 0xfe, 0x61, 0, 0x3a, 0, 0x20, 0, 0x31, 0, 0x0a, 0]),
    );
    expect(merge(["docs", utf16], { cwd: dir }).stdout).toBe("a: 1\n");
    expect(merge(["docs", "-"], { cwd: dir, input: "\ufeffa: 1\n" }).stdout).toBe("a: 1\n");
    tally("odd-yaml", 2);
  });

  it("reports missing files, directories and FIFOs given as input, and empty stdin", () => {
    mkdirSync(join(dir, "a-directory.yml"), { recursive: true });
    const runs: [string[], RegExp][] = [
      [["docs", "missing.yml"], /missing\.yml: .*\[FILE_NOT_FOUND\]/],
      [["docs", "a-directory.yml"], /a-directory\.yml: .*\[[A-Z_]+\]/],
      [["cloud-config", "missing.yml"], /missing\.yml: .*\[FILE_NOT_FOUND\]/],
      [
        ["stack", "missing.cfg", "--minion-id", "m", "--grains", "missing-grains.yml"],
        /missing-grains\.yml: .*\[FILE_NOT_FOUND\]/,
      ],
      [
        ["mysql", "--config", "missing-master.yml", "--minion-id", "m"],
        /missing-master\.yml: .*\[FILE_NOT_FOUND\]/,
      ],
      [
        ["pillar", "--config", "missing-master.yml", "--minion-id", "m"],
        /missing-master\.yml: .*\[FILE_NOT_FOUND\]/,
      ],
    ];
    for (const [args, pattern] of runs) {
      const run = merge(args, { cwd: dir });
      expect(run.status, args.join(" ")).toBe(1);
      expect(run.stdout).toBe("");
      expectCleanFailure(run.stderr, pattern);
    }
    // Empty standard input is an empty document: a warning, and the empty merge.
    const empty = merge(["docs", "-"], { input: "", cwd: dir });
    expect(empty.status).toBe(0);
    expect(empty.stdout).toBe("{}\n");
    expect(empty.stderr).toMatch(/^warning: standard input: empty document/);
    const emptyJson = merge(["docs", "-f", "json", "-"], { input: "", cwd: dir });
    expect(JSON.parse(emptyJson.stdout)).toEqual({});
    tally("faults", runs.length + 2);
  });

  it("never leaves a partial file: -o keeps the old file when the input is hostile", () => {
    const out = file("result.yml", "previous: result\n");
    const bad = [
      file(
        "bad-bomb.yml",
        'a: &a ["x","x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f,*f]\nh: [*g,*g,*g,*g,*g,*g,*g,*g,*g,*g]\n',
      ),
      file("bad-tag.yml", "a: !!js/function 'function(){}'\n"),
      join(dir, "missing-input.yml"),
    ];
    for (const input of bad) {
      const run = merge(["docs", file("good.yml", "good: 1\n"), input, "-o", out], { cwd: dir });
      expect(run.status).toBe(1);
      expect(readFileSync(out, "utf8")).toBe("previous: result\n");
    }
    expect(readdirSync(dir).filter((name) => name.startsWith("result") || name.includes(".tmp"))).toEqual([
      "result.yml",
    ]);
    tally("faults", bad.length);
  });
});

describe("process faults", () => {
  it("exits quietly when standard output is closed before the output is written (EPIPE)", async () => {
    const big = Array.from({ length: 10_000 }, (_, i) => `key${i}: ${"y".repeat(30)}`).join("\n");
    let cases = 0;
    for (const format of ["yaml", "json"]) {
      const child = spawn(process.execPath, [BIN, "docs", "-f", format, "-"], {
        cwd: dir,
        stdio: ["pipe", "pipe", "pipe"],
      });
      let stderr = "";
      child.stderr.on("data", (chunk) => {
        stderr += chunk;
      });
      // Closed before anything is read: the first write fails.
      child.stdout.destroy();
      child.stdin.end(big);
      const code = await new Promise<number | null>((resolve) =>
        child.on("close", (status) => resolve(status)),
      );
      expect(code).toBe(0);
      expect(stderr).toBe("");
      cases++;
    }
    tally("faults", cases);
  });

  it("exits 130 on SIGINT in the middle of a long merge, with no output and no file", async () => {
    const out = join(dir, "interrupted.yml");
    const lines = Array.from({ length: 30_000 }, (_, i) => `k${i}: [${i}, ${i + 1}]`).join("\n");
    const big = file("big.yml", lines);
    // Paused once the signal handlers are in place (a signal before that would kill node outright), then let go
    // and interrupted at once: wherever the SIGINT lands in the merge, the outcome is one of the two below.
    const running = startMerge(["docs", big, big, big, "-o", out], { cwd: dir, pause: "start" });
    await running.paused("start");
    running.child.kill("SIGUSR2");
    running.child.kill("SIGINT");
    const end = await running.finished;
    // Either the interrupt arrived mid-run (130) or the merge had already replaced the file (0, file complete).
    if (end.status === 130) {
      expect(end.stdout).toBe("");
      expect(readdirSync(dir).filter((name) => name.startsWith("interrupted"))).toEqual([]);
    } else {
      expect(end.status).toBe(0);
      expect(readFileSync(out, "utf8")).toMatch(/k29999:/);
    }
    expect(withoutPauses(end.stderr)).toBe("");
    tally("faults", 1);
  });
});

describe("hostile minions and user-data through the binary", () => {
  const STACK = join(REPO, "examples", "stack");

  it("renders the example stack for hostile grains and minion ids without leaving the stack directory", () => {
    const outside = file("outside.yml", "secret: outside-secret-value\n");
    const values = [
      "*",
      "../../../etc/passwd",
      outside.replace(/\.yml$/, ""),
      "test-?-dev",
      "test-[12]-dev",
      "x\n../x",
    ];
    let cases = 0;
    for (const value of values) {
      const grains = file(
        "grains-hostile.json",
        JSON.stringify({ osarch: value, oscodename: value, id: value }),
      );
      const run = merge(["stack", "config.cfg", "--minion-id", value, "--grains", grains, "-f", "json"], {
        cwd: STACK,
      });
      expect(run.stdout).not.toContain("outside-secret-value");
      expect(run.stderr).not.toMatch(/\n\s+at /);
      if (run.status === 0) {
        const data = JSON.parse(run.stdout);
        // No other minion's file was pulled in by a glob character.
        expect(JSON.stringify(data)).not.toMatch(/test-1-dev|test-2-dev/);
      } else {
        expect(run.status).toBe(1);
        // A path outside is refused; a value that breaks the YAML it is printed into (a newline inside a quoted
        // string) only breaks this minion's own render.
        expect(run.stderr).toMatch(/\[(STACK_PATH|YAML_[A-Z_]+)\]/);
      }
      cases++;
    }
    const polluting = file(
      "grains-proto.json",
      '{"__proto__": {"polluted": 1}, "osarch": "amd64", "oscodename": "jessie"}',
    );
    const run = merge(
      ["stack", "config.cfg", "--minion-id", "test-1-dev", "--grains", polluting, "-f", "json"],
      {
        cwd: STACK,
      },
    );
    expect(run.status).toBe(0);
    tally("paths", cases);
    tally("pollution", 1);
  });

  it("merges hostile cloud-config parts, rejecting only the bad ones", () => {
    const parts = [
      file("p1.yml", "#cloud-config\n__proto__: {polluted: 1}\nruncmd: [a]\n"),
      file("p2.yml", "#cloud-config\nmerge_how: '__proto__()'\nruncmd: [b]\n"),
      file("p3.yml", `#cloud-config\nx: ${"[".repeat(10_000)}\n`),
      file("p4.yml", '#cloud-config-jsonp\n[{"op": "add", "path": "/__proto__/polluted", "value": 1}]\n'),
      file("p5.yml", "#cloud-config\nmerge_how: 'list(append)+dict(recurse_array)+str()'\nruncmd: [c]\n"),
    ];
    const run = merge(["cloud-config", ...parts, "-f", "json"], { cwd: dir });
    expect(run.status).toBe(0);
    const value = JSON.parse(run.stdout);
    expect(Object.keys(value)).toEqual(["__proto__", "runcmd"]);
    expect(value.runcmd).toEqual(["a", "c"]);
    expect(run.stderr).toMatch(/\[UNKNOWN_MERGER\]/);
    expect(run.stderr).toMatch(/\[DEPTH_LIMIT\]/);
    // Python's jsonpatch writes into the `__proto__` key of p1 as into any key: data, no prototype touched.
    expect(run.stderr).not.toMatch(/\[JSON_PATCH\]/);
    expect(Object.getOwnPropertyDescriptor(value, "__proto__")?.value).toEqual({ polluted: 1 });
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(run.stderr).not.toMatch(/\n\s+at /);
    tally("pollution", parts.length);
    // A part that is not UTF-8 is rejected whole, as cloud-init's YAML reader rejects it.
    const binary = file("p6.yml", Buffer.from("#cloud-config\nbad: \xff\n", "latin1"));
    const withBinary = merge(["cloud-config", parts[0]!, binary, "-f", "json"], { cwd: dir });
    expect(withBinary.status).toBe(0);
    expect(Object.keys(JSON.parse(withBinary.stdout))).toEqual(["__proto__", "runcmd"]);
    expect(withBinary.stderr).toMatch(/p6\.yml.*\[YAML_ENCODING\]/);
    tally("odd-yaml", 1);
  });
});
