import { describe, expect, it } from "vitest";
import type { DocumentError } from "./sequence.js";
import { mergeAll } from "./sequence.js";
import { createRegistry } from "./registry.js";
import { isPlainObject } from "./kinds.js";
import { concatList, deepDict, explosive, replaceScalar } from "./test-plugins.js";

const registry = createRegistry([deepDict(), concatList(), replaceScalar(), explosive()]);

// Documents declare mergers under `how`; the extractor returns a copy without it.
function extractHow(doc: unknown) {
  if (!isPlainObject(doc) || !("how" in doc)) return { doc };
  const { how, ...rest } = doc;
  return { doc: rest, spec: how as string };
}

describe("mergeAll", () => {
  it("folds documents left to right from {}", () => {
    expect(
      mergeAll([{ a: [1] }, { a: [2], b: 1 }, { b: 2 }], { registry, spec: "deep()+concat()+scalar()" }),
    ).toEqual({
      a: [1, 2],
      b: 2,
    });
    expect(mergeAll([], { registry, spec: "deep()" })).toEqual({});
  });

  it("scope self: a document's declared mergers decide its own merge", () => {
    const docs = [{ l: [1] }, { how: "deep()+concat(front)+scalar()", l: [2] }, { l: [3] }];
    expect(mergeAll(docs, { registry, spec: "deep()+concat()+scalar()", extract: extractHow })).toEqual({
      l: [2, 1, 3],
    });
  });

  it("scope following: a document's declared mergers decide how the next ones merge", () => {
    const docs = [{ how: "deep()+concat(front)+scalar()", l: [1] }, { l: [2] }, { l: [3] }];
    expect(
      mergeAll(docs, { registry, spec: "deep()+concat()+scalar()", extract: extractHow, scope: "following" }),
    ).toEqual({ l: [3, 2, 1] });
    const later = [{ l: [1] }, { l: [2], how: "deep()+concat(front)+scalar()" }, { l: [3] }];
    expect(
      mergeAll(later, {
        registry,
        spec: "deep()+concat()+scalar()",
        extract: extractHow,
        scope: "following",
      }),
    ).toEqual({ l: [3, 1, 2] });
  });

  it("removes the declaration from the output and leaves inputs alone", () => {
    const docs = [{ how: "deep()+scalar()", a: 1 }];
    expect(mergeAll(docs, { registry, spec: "deep()", extract: extractHow })).toEqual({ a: 1 });
    expect(docs[0]).toEqual({ how: "deep()+scalar()", a: 1 });
  });

  it("throws a located error, or skips the document whole when onError is given", () => {
    const docs = [{ a: "x", keep: 1 }, { a: "boom", lost: true }, { b: 2 }];
    const spec = "deep()+boom()+scalar()";
    expect(() => mergeAll(docs, { registry, spec })).toThrow(/cannot merge boom/);
    const failures: DocumentError[] = [];
    const value = mergeAll(docs, { registry, spec, onError: (failure) => failures.push(failure) });
    expect(value).toEqual({ a: "x", keep: 1, b: 2 });
    expect(failures).toHaveLength(1);
    expect(failures[0]!.index).toBe(1);
    expect(failures[0]!.error.source).toEqual({ document: 1 });
    expect(failures[0]!.error.path).toBe("a");
  });

  it("reports an unknown declared merger against its document", () => {
    const failures: DocumentError[] = [];
    mergeAll([{ how: "nope()", a: 1 }], {
      registry,
      spec: "deep()",
      extract: extractHow,
      sources: [{ file: "one.yml" }],
      onError: (failure) => failures.push(failure),
    });
    expect(failures[0]!.error.code).toBe("UNKNOWN_MERGER");
    expect(failures[0]!.error.source).toEqual({ file: "one.yml", document: 0 });
  });
});
