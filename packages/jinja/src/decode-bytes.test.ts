import { describe, expect, it } from "vitest";
import { pythonUtf8Error } from "./decode-bytes.js";
import { outcome } from "./test-vars.js";

// Python 3's `bytes.decode('utf-8')` error for each, as CPython 3.11 words it (recorded with Debian's python3).
const PYTHON: readonly [bytes: number[], message: string][] = [
  [[255], "'utf-8' codec can't decode byte 0xff in position 0: invalid start byte"],
  [[195, 40], "'utf-8' codec can't decode byte 0xc3 in position 0: invalid continuation byte"],
  [[195], "'utf-8' codec can't decode byte 0xc3 in position 0: unexpected end of data"],
  [[226, 130], "'utf-8' codec can't decode bytes in position 0-1: unexpected end of data"],
  [[226, 130, 40], "'utf-8' codec can't decode bytes in position 0-1: invalid continuation byte"],
  [[237, 160, 128], "'utf-8' codec can't decode byte 0xed in position 0: invalid continuation byte"],
  [[240, 159, 152], "'utf-8' codec can't decode bytes in position 0-2: unexpected end of data"],
  [[240, 159, 152, 40], "'utf-8' codec can't decode bytes in position 0-2: invalid continuation byte"],
  [[97, 98, 224, 128], "'utf-8' codec can't decode byte 0xe0 in position 2: invalid continuation byte"],
  [[244, 144, 128, 128], "'utf-8' codec can't decode byte 0xf4 in position 0: invalid continuation byte"],
  [[192, 175], "'utf-8' codec can't decode byte 0xc0 in position 0: invalid start byte"],
  [[128], "'utf-8' codec can't decode byte 0x80 in position 0: invalid start byte"],
];

describe("bytes that are not UTF-8", () => {
  it.each(PYTHON)("%j gives Python's message", (bytes, message) => {
    expect(pythonUtf8Error(new Uint8Array(bytes))).toBe(message);
  });

  it("fail load_yaml with Python's UnicodeDecodeError, wherever they are in what it read", () => {
    expect(outcome("{% set v = 'a: [1, {b: !!binary 4oI=}]'|load_yaml %}")).toEqual({
      error: "UnicodeDecodeError: 'utf-8' codec can't decode bytes in position 0-1: unexpected end of data",
    });
  });
});

describe("|string of Markup text", () => {
  it("keeps it Markup, as Jinja's soft_str does, so load_yaml still refuses it", () => {
    expect(outcome("{{ ({'k': 1}|yaml|string)|load_yaml }}")).toEqual({
      error: expect.stringContaining("a string or stream input is required"),
    });
    expect(outcome("{{ (({'k': 1}|yaml) ~ '')|load_yaml }}")).toBe("{'k': 1}");
  });
});
