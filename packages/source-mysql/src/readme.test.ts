import { readFileSync } from "node:fs";
import { toPlain } from "@merge/core";
import { expect, it } from "vitest";
import { type Row, shapeRows } from "./shape.js";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");

it("keeps the README's shaping example true", () => {
  const match = /<!-- readme-example:shape -->\s*```json\n([\s\S]*?)```/.exec(readme);
  expect(match).not.toBeNull();
  const example = JSON.parse(match![1]!) as {
    fields: string[];
    rows: Row[];
    options: { withLists: number[] };
    result: unknown;
  };
  expect(toPlain(shapeRows(example.fields, example.rows, example.options))).toEqual(example.result);
});

it("lists every error code the package throws in the README", () => {
  const source = ["errors.ts"].map((file) => readFileSync(new URL(file, import.meta.url), "utf8")).join("\n");
  const codes = [...source.matchAll(/"(SQL_[A-Z_]+)"/g)].map((m) => m[1]!);
  expect(codes.length).toBeGreaterThan(5);
  for (const code of new Set(codes)) expect(readme, code).toMatch(new RegExp(`\\|\\s*\`${code}\`\\s*\\|`));
});
