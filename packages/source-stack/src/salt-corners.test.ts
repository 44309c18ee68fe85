import { describe, expect, it } from "vitest";
import { createStackLoader, loadStack } from "./loader.js";
import { createMemoryFileSystem } from "./memory-files.js";

// Corners where Salt's merge works in place on the live `stack` a template can reach. Every expected value below is
// what Salt's own stack.py returned for the same tree (run outside this repository against the real module).

/** `stack.cfg` is given; the other files are the tree. */
function load(files: Record<string, string>) {
  return loadStack({
    config: "stack.cfg",
    cwd: "/srv",
    files: createMemoryFileSystem(files, "/srv"),
    minionId: "web1",
  });
}

describe("a directive a template puts into the stack", () => {
  it("takes effect when a later merge-first swaps it in as the value being merged", () => {
    // merge-first puts the new mapping in place and merges the old one into it, reading the old one's `__`.
    const { data } = load({
      "stack.cfg": "a.yml\nb.yml\n",
      "a.yml": "{% do stack.update({'x': {'__': 'remove', 'k': 1}}) %}\ny: 1\n",
      "b.yml": "__: merge-first\nx: {k: 2, m: 3}\n",
    });
    expect(data).toEqual({ x: { m: 3 }, y: 1 });
  });

  it("stays as an item of a list merged with merge-last, and acts as its head under merge-first", () => {
    const inject = "{% do stack.update({'x': [{'__': 'remove'}, 1, 2]}) %}\ny: 1\n";
    const last = load({ "stack.cfg": "a.yml\nb.yml\n", "a.yml": inject, "b.yml": "x: [2, 3]\n" });
    expect(last.data).toEqual({ x: [{ __: "remove" }, 1, 2, 2, 3], y: 1 });
    const first = load({
      "stack.cfg": "a.yml\nb.yml\n",
      "a.yml": inject,
      "b.yml": "__: merge-first\nx: [2, 3]\n",
    });
    expect(first.data).toEqual({ x: [3], y: 1 });
  });
});

describe("values a template makes shared", () => {
  it("change together while mappings merge in place, and part when a list merge builds a new list", () => {
    const { data } = load({
      "stack.cfg": "a.yml\nb.yml\nc.yml\n",
      "a.yml": "u: {k: 1}\nl: [1]\n",
      "b.yml": "{% do stack.update({'v': stack.u, 'w': stack.l}) %}\nu: {m: 2}\nl: [2]\n",
      "c.yml": "u: {__: remove, k: ~}\nl: [{__: merge-first}, 0]\nv: {z: 1}\n",
    });
    expect(data).toEqual({ u: { m: 2, z: 1 }, l: [0, 1, 2], v: { m: 2, z: 1 }, w: [1] });
  });
});

describe("a config that only looks like a YAML list", () => {
  it("is read line by line, and `- a.yml` is then the name of a file", () => {
    const { data } = load({
      "stack.cfg": "- a.yml\nb.yml\n",
      "a.yml": "a: 1\n",
      "b.yml": "b: 1\n",
      "- a.yml": "c: 1\n",
    });
    expect(data).toEqual({ c: 1, b: 1 });
  });
});

describe("a container a template made and put in the stack", () => {
  // What a template put in `stack` is changed in place by later merges, as Salt's merge changes everything in its
  // stack: under two keys, a merge into either shows under both.
  const made = "{% set x = {'k': 1} %}{% do stack.update({'a': x, 'b': x}) %}c: 1\n";

  it("is changed in place, so a merge into it shows under every key that holds it", () => {
    const { data } = load({
      "stack.cfg": "made.yml\nchange.yml\n",
      "made.yml": made,
      "change.yml": "a: {k2: 2}\n",
    });
    expect(data).toEqual({ a: { k: 1, k2: 2 }, b: { k: 1, k2: 2 }, c: 1 });
  });

  it("is moved itself by merge-first, and stays one value with the other key that holds it", () => {
    const { data } = load({
      "stack.cfg": "made.yml\nfirst.yml\nchange.yml\n",
      "made.yml": "{% set t = {'q': 1} %}{% do stack.update({'a': {'k': t}, 'b': t}) %}c: 1\n",
      "first.yml": "__: merge-first\na: {z: 1}\n",
      "change.yml": "b: {q2: 2}\n",
    });
    expect(data).toEqual({ a: { z: 1, k: { q: 1, q2: 2 } }, b: { q: 1, q2: 2 }, c: 1 });
  });

  it("is changed in place in a batch too, whose hosts share the parsed files", () => {
    const loader = createStackLoader({
      config: "stack.cfg",
      cwd: "/srv",
      files: createMemoryFileSystem(
        { "stack.cfg": "made.yml\nchange.yml\n", "made.yml": made, "change.yml": "a: {k2: [2]}\n" },
        "/srv",
      ),
      sharedValues: true,
    });
    for (const minionId of ["web1", "web2"]) {
      const { data } = loader.load({ minionId });
      expect(data).toEqual({ a: { k: 1, k2: [2] }, b: { k: 1, k2: [2] }, c: 1 });
    }
  });
});

describe("a template module imported by several files of one config", () => {
  it("is made once per host and config, so a change one file makes to its values shows in the next", () => {
    // PillarStack renders a config and its files in one Jinja environment, which keeps each template's module.
    const files = {
      "stack.cfg": "one.yml\ntwo.yml\n",
      "d.jinja": "{% set d = {'a': 1} %}",
      "one.yml": "{% from 'd.jinja' import d %}{% do d.update({'n': d.get('n', 0) + 1}) %}one: \"{{ d }}\"\n",
      "two.yml": "{% from 'd.jinja' import d %}two: \"{{ d }}\"\n",
    };
    const expected = { one: "{'a': 1, 'n': 1}", two: "{'a': 1, 'n': 1}" };
    expect(load(files).data).toEqual(expected);
    // A batch: each host is a run of its own, with modules of its own.
    const loader = createStackLoader({
      config: "stack.cfg",
      cwd: "/srv",
      files: createMemoryFileSystem(files, "/srv"),
      sharedValues: true,
    });
    for (const minionId of ["web1", "web2", "web1"]) expect(loader.load({ minionId }).data).toEqual(expected);
  });
});
