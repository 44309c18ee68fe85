// Shared variables and a one-call renderer for the template tests (not part of the build).
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { isMergeError } from "@merge/core";
import { createRenderer, type RendererOptions } from "./renderer.js";

/** The variables every case renders with: a host's pillar, grains, opts and the stack merged so far. */
export const VARS: Record<string, unknown> = {
  pillar: {
    roles: ["db", "web"],
    env: "dev",
    empty: [],
  },
  minion_id: "test-1-dev",
  __grains__: {
    os: "Debian",
    osarch: "amd64",
    num: 1,
  },
  __opts__: {
    id: "m1",
  },
  stack: {
    users: {
      tom: {
        uid: 500,
      },
    },
    list: [1, 2],
  },
  d: {
    b: [1, "yes", null, true, 1.5],
    a: "x",
    c: {
      n: "1e3",
      s: "a: b",
    },
  },
  l: ["x", 2, "y"],
  s: "Hello World",
  f1: 1e16,
  f2: 2.5e-5,
  f3: 0.1,
  n: null,
  e: "",
  k: {
    "10": 1,
    "9": 2,
    B: 3,
    _: 4,
    a: 5,
  },
  u: "é😀\t<tag>",
  big: {
    key00: "value number 0",
    key01: "value number 1",
    key02: "value number 2",
    key03: "value number 3",
    key04: "value number 4",
    key05: "value number 5",
    key06: "value number 6",
    key07: "value number 7",
  },
  lst: [
    "item-0-with-some-length",
    "item-1-with-some-length",
    "item-2-with-some-length",
    "item-3-with-some-length",
    "item-4-with-some-length",
    "item-5-with-some-length",
  ],
  longs:
    "word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word ",
  nested: {
    a: {
      b: [
        "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyy",
        {
          c: "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz",
        },
      ],
    },
    t: 1,
  },
  mixed: [
    1,
    "a",
    null,
    true,
    {
      k: [1, 2],
    },
  ],
  d2: {
    b: 1,
    a: 2,
  },
};

/** Writes `files` into a fresh config directory and renders `src` as `<dir>/case.yml` of `<dir>/config.cfg`. */
export function renderCase(
  src: string,
  files: Record<string, string> = {},
  vars: Record<string, unknown> = structuredClone(VARS),
  options: RendererOptions = {},
): string {
  const dir = tempTree(files);
  return createRenderer(options).render(src, join(dir, "case.yml"), vars, join(dir, "config.cfg"));
}

export function tempTree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "merge-templates-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

/** What a template renders to with `vars`, or the message of the coded error it fails with: a recorded case's form. */
export function outcome(template: string, vars: Record<string, unknown> = {}): string | { error: string } {
  try {
    return createRenderer({}).render(template, "case.sls", vars, "c.cfg");
  } catch (error) {
    if (isMergeError(error)) return { error: error.message };
    throw error;
  }
}
