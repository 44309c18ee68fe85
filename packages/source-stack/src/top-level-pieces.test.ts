import { isMergeError, PyDict } from "@merge/core";
import { DEFAULT_MAX_NODES, encodeYamlValue, loadYaml } from "@merge/yaml";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createStackLoader } from "./loader.js";
import { makeTree } from "./test-tree.js";
import { type PieceValue, piecesOfDocument, readByPieces, topLevelPieces } from "./top-level-pieces.js";

const read = (text: string) => loadYaml(text, { flavor: "salt", filename: "t.yml", values: "exact" });

/** What reading the whole text gives: its value (aliases as references) or its error's code, message and line. */
function whole(text: string): string {
  try {
    return `value ${encodeYamlValue(read(text))}`;
  } catch (error) {
    if (!isMergeError(error)) throw error;
    return `error ${error.code} ${error.message} ${error.source?.line}`;
  }
}

describe("topLevelPieces", () => {
  it("cuts before each top-level key, leading comments with the first piece and deeper lines with theirs", () => {
    const text = [
      "# core pillar",
      "",
      "packages:",
      "  - vim",
      "# a comment between keys",
      "users:",
      "  root:",
      "    shell: /bin/bash",
      "motd: |",
      "  hello",
      "",
      "  world",
      "ports:",
      "- 22",
      "-",
      "empty:",
    ].join("\n");
    expect(topLevelPieces(text)).toEqual([
      "# core pillar\n\npackages:\n  - vim\n# a comment between keys\n",
      "users:\n  root:\n    shell: /bin/bash\n",
      "motd: |\n  hello\n\n  world\n",
      "ports:\n- 22\n-\n",
      "empty:",
    ]);
  });

  it.each([
    ["one key only", "a:\n  b: 1\n"],
    ["a top-level sequence", "- a: 1\n- b: 2\n"],
    ["a document marker", "---\na: 1\nb: 2\n"],
    ["a document end", "a: 1\n...\nb: 2\n"],
    ["a directive", "%YAML 1.1\n---\na: 1\nb: 2\n"],
    ["a quoted key", 'a: 1\n"b": 2\n'],
    ["an explicit key", "a: 1\n? b\n: 2\n"],
    ["a merge key", "a: 1\n<<: {b: 2}\n"],
    ["a flow mapping", "{a: 1,\nb: 2}\n"],
    ["an indented first key", "  a: 1\nb: 2\n"],
    ["a line starting with a tab", "a: 1\n\tb: 2\nc: 3\n"],
    ["a key with a space", "a: 1\nb c: 2\n"],
    ["a key running into a colon", "a: 1\nb:c: 2\n"],
    ["a carriage return", "a: 1\r\nb: 2\r\n"],
    ["a line separator", "a: 1\u2028b: 2\n"],
    ["a next-line character", "a: 1\x85b: 2\n"],
    ["a byte-order mark", "\uFEFFa: 1\nb: 2\n"],
    ["an anchor", "a: &x 1\nb: 2\n"],
    ["an alias", "a: 1\nb: *x\n"],
    ["a star in a string", "cron: '*/5 * * * *'\nb: 2\n"],
    ["an ampersand in a string", "url: 'a?b=1&c=2'\nb: 2\n"],
    ["a sequence item before any key", "- 1\na: 1\nb: 2\n"],
  ])("does not cut %s", (_, text) => {
    expect(topLevelPieces(text)).toBeUndefined();
  });

  it("does not cut a text long enough to reach the reader's node budget (read whole, it may be refused)", () => {
    const items = "  - 1\n".repeat(Math.ceil(DEFAULT_MAX_NODES / 2 / 6));
    expect(topLevelPieces(`a: 1\nbig:\n${items}`)).toBeUndefined();
    expect(topLevelPieces(`a: 1\nbig:\n${items.slice(0, 600)}`)).toHaveLength(2);
  });
});

describe("readByPieces", () => {
  const first = "a: 1\nb:\n  c: [1, 2]\nd: x\n";
  const known = piecesOfDocument(first, read(first))!;

  it("keeps the values of the pieces it knows and reads the others", () => {
    let reads = 0;
    const counting = (text: string) => {
      reads++;
      return read(text);
    };
    const result = readByPieces("a: 2\nb:\n  c: [1, 2]\nd: x\n", known, counting)!;
    expect(reads).toBe(1);
    expect(result.doc.keyList()).toEqual(["a", "b", "d"]);
    expect(result.doc.get("a")).toBe(2);
    // The unchanged piece's value is the one read before, not a new reading of it.
    expect(result.doc.get("b")).toBe(known.get("b:\n  c: [1, 2]\n")!.value);
    expect(result.doc.get("b")).toBeInstanceOf(PyDict);
    expect(encodeYamlValue(result.doc)).toBe(encodeYamlValue(read("a: 2\nb:\n  c: [1, 2]\nd: x\n")));
  });

  it.each([
    ["two keys Python holds equal", "yes: 1\ntrue: 2\n"],
    ["the same key twice", "a: 1\na: 2\n"],
    ["a quoted scalar running past a cut", 'a: "x\nb: y"\nc: 1\n'],
    ["a flow sequence running past a cut", "a: [x,\nb: y]\nc: 1\n"],
    ["a piece YAML refuses", "a: b: c\nd: 1\n"],
  ])("leaves a text with %s to be read whole", (_, text) => {
    expect(readByPieces(text, new Map<string, PieceValue>(), read)).toBeUndefined();
  });

  // Pieces of stack-file sections, some of which only make sense (or only fail) in the text around them.
  const section = fc.oneof(
    fc.constantFrom(
      "packages:\n  - vim\n  - curl\n",
      "users:\n  root:\n    uid: 0\n    groups: [adm, sudo]\n",
      "motd: |\n  hello\n\n  world\n",
      "banner: >-\n  one\n  two\n\n",
      "kept: |+\n  text\n\n\n",
      "ports:\n- 22\n- 80\n",
      "empty:\n",
      "yes: truthy key\n",
      "true: also truthy\n",
      "1: int key\n",
      "1.0: float key\n",
      "null: none key\n",
      "tagged: !!str 12\n",
      "unicode: !!python/unicode text\n",
      "weird: !!python/unicode [a]\n",
      'quoted: "runs\nover: the cut"\n',
      "flow: {a: 1,\n  b: 2}\n",
      "broken: [1,\n",
      "bad: a: b\n",
      "# only a comment\n",
      "\n",
      "float: 1e3\n",
      "date: 2024-01-02\n",
      "octal: 0755\n",
      "base: &b {x: 1}\n",
      "copy: *b\n",
      "again: &b [2]\n",
      "both: [&c {y: 1}, *c]\n",
      "glob: '*.conf'\n",
    ),
    fc
      .tuple(fc.constantFrom("host", "id", "tier", "a", "b"), fc.integer({ min: 0, max: 3 }))
      .map(([key, n]) => `${key}:\n  id: node${n}.example.org\n  n: ${n}\n`),
  );
  const texts = fc.array(
    fc.array(section, { minLength: 1, maxLength: 7 }).map((parts) => parts.join("")),
    {
      minLength: 2,
      maxLength: 6,
    },
  );

  it("gives what reading the whole text gives, or leaves the text to be read whole", () => {
    let cut = 0;
    fc.assert(
      fc.property(texts, (sequence) => {
        // As the loader keeps them: the pieces of the latest text, whichever way it was read.
        let pieces: ReadonlyMap<string, PieceValue> = new Map();
        for (const text of sequence) {
          const expected = whole(text);
          const result = readByPieces(text, pieces, read);
          if (result === undefined) {
            let doc: unknown;
            try {
              doc = read(text);
            } catch {
              continue;
            }
            pieces = piecesOfDocument(text, doc) ?? new Map();
            continue;
          }
          cut++;
          expect(`value ${encodeYamlValue(result.doc)}`).toBe(expected);
          pieces = result.pieces;
        }
      }),
      { numRuns: 1500, seed: 1203 },
    );
    // The property is not met by leaving every text alone.
    expect(cut).toBeGreaterThan(500);
  });
});

describe("the loader reading templated files by pieces", () => {
  const root = makeTree({
    "stack.cfg": "core.yml\nroles/{{ pillar.role }}.yml\n",
    "core.yml": [
      "packages:",
      "  - vim",
      "facts:",
      "  id: {{ minion_id }}",
      "{%- if minion_id.startswith('db') %}",
      "  tier: data",
      "{%- endif %}",
      "ntp:",
      "  servers: [a, b]",
      "{%- if minion_id == 'bad' %}",
      "broken: [1,",
      "{%- endif %}",
      "{%- if minion_id == 'twice' %}",
      "packages: again",
      "{%- endif %}",
      "",
    ].join("\n"),
    "roles/web.yml": "web:\n  port: 80\nowner: {{ minion_id }}\n",
  });
  const hosts = ["web1", "db1", "web2", "bad", "db2", "twice", "web3", "web1"];

  it("gives every host what a loader reading each text whole gives, errors included", () => {
    const cached = createStackLoader({ config: "stack.cfg", cwd: root, values: "exact" });
    const outcome = (load: () => unknown): string => {
      try {
        return `value ${encodeYamlValue(load())}`;
      } catch (error) {
        if (!isMergeError(error)) throw error;
        return `error ${error.code} ${error.message} ${error.source?.file}:${error.source?.line}`;
      }
    };
    const seen: string[] = [];
    for (const id of hosts) {
      const host = { minionId: id, pillar: { role: "web" } };
      // A loader with nothing cached reads every text whole.
      const fresh = createStackLoader({ config: "stack.cfg", cwd: root, values: "exact", cache: false });
      const expected = outcome(() => fresh.load(host).data);
      expect(outcome(() => cached.load(host).data)).toBe(expected);
      seen.push(expected.startsWith("value ") ? "value" : expected.split(" ", 2)[1]!);
    }
    // Both kinds of outcome were compared: values, a refused YAML text and a repeated key.
    expect(seen).toContain("YAML_PARSE");
    expect(seen).toContain("YAML_DUPLICATE_KEY");
    expect(seen.filter((kind) => kind === "value")).toHaveLength(hosts.length - 2);
  });
});
