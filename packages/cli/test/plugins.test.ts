import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { BIN, FIXTURES, merge, upperPluginArgs } from "./helpers.js";

describe("--plugin MODULE", () => {
  it("a plugin that leaves a timer running does not keep the command from exiting once its output is out", () => {
    // main() ends the process when the output is written. The timeout only ends a hang: without that exit, the
    // plugin's timer would keep the process alive for ever.
    const run = spawnSync(process.execPath, [BIN, ...upperPluginArgs("./plugins/lingering.mjs")], {
      cwd: FIXTURES,
      encoding: "utf8",
      timeout: 10 * 60_000,
      env: { ...process.env, NO_COLOR: "1" },
    });
    expect({ status: run.status, signal: run.signal, stdout: run.stdout, stderr: run.stderr }).toEqual({
      status: 0,
      signal: null,
      stdout: "service:\n  name: WORKER\n",
      stderr: "",
    });
  });

  it("loads a file whose default export is a factory", () => {
    const two = merge(upperPluginArgs(), {});
    expect(two.status).toBe(0);
    expect(two.stdout).toBe("service:\n  name: WORKER\n");
  });

  it("loads plugins exported as `plugins`", () => {
    const run = merge(
      ["docs", "--plugin", "./plugins/named.mjs", "--spec", "first()+dict(recurse_list)", "-", "-f", "json"],
      {
        input: "",
      },
    );
    expect(run.status).toBe(0);
    const twice = merge(
      [
        "docs",
        "--plugin",
        "./plugins/named.mjs",
        "--spec",
        "first()+dict(recurse_list)",
        "-f",
        "json",
        "-",
        "docs/base.yml",
      ],
      { input: "run_cmd: [only]\n" },
    );
    expect(JSON.parse(twice.stdout).run_cmd).toEqual(["only"]);
  });

  it("loads a workspace package by name, resolved from the working directory", () => {
    const run = merge(["mergers", "--plugin", "@merge/example-plugin-keyed-list"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^keyed {2}\(handles list\)/m);
  });

  it("takes several --plugin options in order", () => {
    const run = merge(["mergers", "--plugin", "./plugins/factory.mjs", "--plugin", "./plugins/named.mjs"]);
    expect(run.stdout).toMatch(/^upper .*\n(?: .*\n)*first /m);
  });

  it("reports a plugin file that does not exist", () => {
    const run = merge(["mergers", "--plugin", "./plugins/missing.mjs"]);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      'error: ./plugins/missing.mjs: plugin file "./plugins/missing.mjs" does not exist [PLUGIN_NOT_FOUND]\n',
    );
  });

  it("reports a package that is not installed", () => {
    const run = merge(["mergers", "--plugin", "merge-plugin-that-is-not-installed"]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('plugin package "merge-plugin-that-is-not-installed" is not installed');
    expect(run.stderr).toMatch(/\[PLUGIN_NOT_FOUND\]\n$/);
  });

  it("reports a module that exports no plugin", () => {
    const run = merge(["mergers", "--plugin", "./plugins/nothing.mjs"]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/exports no plugin.*\[INVALID_PLUGIN\]\n$/);
  });

  it("reports an export that is not a plugin", () => {
    const run = merge(["mergers", "--plugin", "./plugins/not-a-plugin.mjs"]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/item 1 is not a merger plugin.*\[INVALID_PLUGIN\]\n$/);
  });

  it("reports a module that throws while loading", () => {
    const run = merge(["mergers", "--plugin", "./plugins/throws.mjs"]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      'plugin module "./plugins/throws.mjs" failed to load: cannot start [PLUGIN_LOAD]',
    );
  });

  it("refuses a plugin whose name is already registered", () => {
    const run = merge(["mergers", "--plugin", "./plugins/named.mjs", "--plugin", "./plugins/named.mjs"]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/"first" is already registered.*\[DUPLICATE_PLUGIN\]\n$/);
  });
});
