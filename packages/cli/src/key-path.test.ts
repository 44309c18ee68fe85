import { PyDict, PyFloat } from "@merge/core";
import { describe, expect, it } from "vitest";
import { keyNotFound, lookupKey, parseKey } from "./key-path.js";

describe("parseKey", () => {
  it("reads Salt's a:b:c, dotted a.b.c, brackets and quoted keys", () => {
    const texts = (key: string) => parseKey(key).map((step) => step.text);
    expect(texts("a:b:c")).toEqual(["a", "b", "c"]);
    expect(texts("a.b.0")).toEqual(["a", "b", "0"]);
    expect(texts("users[0].name")).toEqual(["users", "0", "name"]);
    expect(texts('servers["web.example.com"].port')).toEqual(["servers", "web.example.com", "port"]);
    expect(() => parseKey("a['b")).toThrow(/not closed/);
  });
});

describe("lookupKey", () => {
  const root = new PyDict<unknown>([
    ["mysql.host", "db1"],
    ["sshd", new PyDict<unknown>([["port", 22]])],
    [8080, "int key"],
    ["version", new PyFloat(9)],
    ["users", [new PyDict<unknown>([["name", "root"]]), new PyDict<unknown>([["name", "deploy"]])]],
  ]);

  it("finds a key holding a dot before splitting it, int keys by their text, list items by index", () => {
    expect(lookupKey(root, "mysql.host")).toMatchObject({ found: true, value: "db1", path: ["mysql.host"] });
    expect(lookupKey(root, "sshd:port")).toMatchObject({ found: true, value: 22 });
    expect(lookupKey(root, "8080")).toMatchObject({ found: true, value: "int key", path: [8080] });
    expect(lookupKey(root, "users.1.name")).toMatchObject({
      found: true,
      value: "deploy",
      path: ["users", 1, "name"],
    });
    expect(lookupKey(root, "users:-1:name")).toMatchObject({
      found: true,
      value: "deploy",
      path: ["users", 1, "name"],
    });
  });

  it("steps through a list into the first mapping item that has the key, as Salt's traverse_dict_and_list", () => {
    expect(lookupKey(root, "users:name")).toMatchObject({
      found: true,
      value: "root",
      path: ["users", 0, "name"],
    });
  });

  it("says where it stopped, and the error names the nearest key", () => {
    const miss = lookupKey(root, "sshd.prot");
    expect(miss).toMatchObject({ found: false, nearest: ["sshd"], missing: "prot" });
    if (miss.found) throw new Error("unreachable");
    const error = keyNotFound("sshd.prot", miss);
    expect(error.code).toBe("KEY_NOT_FOUND");
    expect(error.message).toBe(
      'no value at "sshd.prot": sshd is a mapping with keys port (did you mean sshd.port?)',
    );
  });
});
