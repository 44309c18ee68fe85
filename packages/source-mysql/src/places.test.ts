import { toPlain } from "@merge/core";
import { describe, expect, it } from "vitest";
import { createShaper, type Row, type ShapedValue, type ShapeOptions } from "./shape.js";

interface Query {
  readonly root?: string;
  readonly fields: readonly string[];
  readonly rows: readonly Row[];
  readonly options?: ShapeOptions;
}

/** Shapes the queries of one entry and says, per value written, `row N: value at PLACE` (PLACE from `places()`). */
function shaped(queries: readonly Query[]): { data: unknown; values: string[] } {
  const shaper = createShaper();
  const writes: [number, ShapedValue][] = [];
  queries.forEach((query, index) => {
    shaper.enterRoot(query.root);
    const sink = shaper.begin(query.fields, {
      ...query.options,
      onValue: (write) => writes.push([index + 1, write]),
    });
    for (const row of query.rows) sink.push(row);
    sink.end();
  });
  const places = shaper.places();
  return {
    data: toPlain(shaper.result()),
    values: writes.map(([query, write], index) => {
      const place = places[index];
      const where = place === undefined ? "(gone)" : place.at.map(String).join(".");
      const within =
        place?.within === undefined ? "" : ` in #${place.within.id} at ${place.within.at.join(".")}`;
      return `q${query} row ${write.row}: ${JSON.stringify(toPlain(write.value))} at ${where}${within}`;
    }),
  };
}

describe("where each value a row wrote ends up", () => {
  it("gives a value a later row of the same query overwrote the place it lost at", () => {
    const { data, values } = shaped([
      {
        fields: ["pillar", "value"],
        rows: [
          ["role", "web"],
          ["env", "staging"],
          ["env", "prod"],
        ],
      },
    ]);
    expect(data).toEqual({ role: "web", env: "prod" });
    expect(values).toEqual([
      'q1 row 1: "web" at role',
      'q1 row 2: "staging" at env',
      'q1 row 3: "prod" at env',
    ]);
  });

  it("follows values into the lists with_lists makes (Salt's documented example, depth 5, as_list, 1,3)", () => {
    const rows: Row[] = [
      ["a", "b", "c", "d", "e", 1, "one"],
      ["a", "b", "c", "f", "g", 2, "two"],
      ["a", "z", "h", "y", "j", 3, "three"],
      ["a", "z", "h", "y", "k", 4, "four"],
      ["a", "z", "h", "y", "k", 5, "five"],
    ];
    const { data, values } = shaped([
      {
        root: "fromdb",
        fields: ["col1", "col2", "col3", "col4", "col5", "col6", "col7"],
        rows,
        options: { depth: 5, asList: true, withLists: [1, 3] },
      },
    ]);
    // As examples/mysql/expected/web01.json has it: b and z, then c and h, became lists of their values.
    expect(data).toEqual({
      fromdb: {
        a: [
          { c: [{ e: { col6: 1, col7: "one" } }, { g: { col6: 2, col7: "two" } }] },
          { h: [{ j: { col6: 3, col7: "three" }, k: { col6: [4, 5], col7: ["four", "five"] } }] },
        ],
      },
    });
    expect(values).toEqual([
      "q1 row 1: 1 at fromdb.a.0.c.0.e.col6",
      'q1 row 1: "one" at fromdb.a.0.c.0.e.col7',
      "q1 row 2: 2 at fromdb.a.0.c.1.g.col6",
      'q1 row 2: "two" at fromdb.a.0.c.1.g.col7',
      "q1 row 3: 3 at fromdb.a.1.h.0.j.col6",
      'q1 row 3: "three" at fromdb.a.1.h.0.j.col7',
      // Row 4's values were alone at their keys until row 5 came (as_list): then item 0.
      "q1 row 4: 4 at fromdb.a.1.h.0.k.col6.0",
      'q1 row 4: "four" at fromdb.a.1.h.0.k.col7.0',
      "q1 row 5: 5 at fromdb.a.1.h.0.k.col6.1",
      'q1 row 5: "five" at fromdb.a.1.h.0.k.col7.1',
    ]);
  });

  it("numbers the items of a level made a list in the order of its keys, a repeated key keeping its place", () => {
    const { data, values } = shaped([
      {
        fields: ["group", "name", "ip"],
        rows: [
          ["hosts", "web", "10.0.0.1"],
          ["hosts", "db", "10.0.0.2"],
          ["hosts", "web", "10.0.0.3"],
        ],
        options: { withLists: [1] },
      },
    ]);
    expect(data).toEqual({ hosts: ["10.0.0.3", "10.0.0.2"] });
    expect(values).toEqual([
      'q1 row 1: "10.0.0.1" at hosts.0',
      'q1 row 2: "10.0.0.2" at hosts.1',
      'q1 row 3: "10.0.0.3" at hosts.0',
    ]);
  });

  it("says a named query's values a later query of the same keyword replaced were in a mapping replaced whole", () => {
    const { data, values } = shaped([
      { root: "main", fields: ["k", "v"], rows: [["a", 1]] },
      { root: "main", fields: ["k", "v"], rows: [["b", 2]] },
    ]);
    expect(data).toEqual({ main: { b: 2 } });
    expect(values).toEqual(["q1 row 1: 1 at main.a in #1 at main", "q2 row 1: 2 at main.b"]);
  });

  it("follows values a later query's with_lists moves", () => {
    const { data, values } = shaped([
      { fields: ["a", "b", "v"], rows: [["x", "p", 1]] },
      { fields: ["a", "b", "v"], rows: [["x", "q", 2]], options: { withLists: [1] } },
    ]);
    // The second query's with_lists makes a list of the values of x, the first query's included.
    expect(data).toEqual({ x: [1, 2] });
    expect(values).toEqual(["q1 row 1: 1 at x.0", "q2 row 1: 2 at x.1"]);
  });

  it("lists every value of an as_json row's object, and the place a later row's object replaced", () => {
    const { data, values } = shaped([
      {
        fields: ["doc"],
        rows: [
          ['{"a": 1, "b": {"c": 2}, "l": [1, {"m": 3}], "e": {}}'],
          ['{"a": 4, "b": {"d": 5}, "l": [6]}'],
        ],
        options: { asJson: true },
      },
    ]);
    expect(data).toEqual({ a: 4, b: { c: 2, d: 5 }, l: [6], e: {} });
    expect(values).toEqual([
      "q1 row 1: 1 at a",
      "q1 row 1: 2 at b.c",
      // Row 2's list replaced row 1's as a whole.
      "q1 row 1: 1 at l.0 in #1 at l",
      "q1 row 1: 3 at l.1.m in #1 at l",
      "q1 row 1: {} at e",
      "q1 row 2: 4 at a",
      "q1 row 2: 6 at l.0",
      "q1 row 2: 5 at b.d",
    ]);
  });

  it("keeps the old items' rows when as_json joins lists (as_list), and a mapping replaced by a scalar", () => {
    const { data, values } = shaped([
      {
        root: "cfg",
        fields: ["doc"],
        rows: [['{"l": [1, 2], "m": {"x": 1}}'], ['{"l": [2, 3], "m": 7}']],
        options: { asJson: true, asList: true },
      },
    ]);
    expect(data).toEqual({ cfg: { l: [1, 2, 3], m: 7 } });
    expect(values).toEqual([
      "q1 row 1: 1 at cfg.l.0",
      "q1 row 1: 2 at cfg.l.1",
      "q1 row 1: 1 at cfg.m.x in #1 at cfg.m",
      "q1 row 2: 3 at cfg.l.2",
      "q1 row 2: 7 at cfg.m",
    ]);
  });
});
