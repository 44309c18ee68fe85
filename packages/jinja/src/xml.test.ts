// Expected strings were produced by Python 3.11's ElementTree and minidom running the tree walk of Salt's
// SerializerExtension.format_xml (test/oracle has hundreds more generated cases).
import { describe, expect, it } from "vitest";
import { catchMergeError as failure } from "../../../test-kit/errors.js";
import { renderCase } from "./test-vars.js";

describe("Salt's |xml", () => {
  it("renders the example of Salt's SerializerExtension docstring (attributes in insertion order, Python 3.8+)", () => {
    const data = { foo: true, bar: 42, baz: [1, 2, 3], qux: 2.5 };
    expect(renderCase("{{ {'root_node': data}|xml }}", {}, { data })).toBe(
      '<?xml version="1.0" ?>\n<root_node foo="True" bar="42" qux="2.5">\n <baz>1</baz>\n <baz>2</baz>\n <baz>3</baz>\n</root_node>\n',
    );
  });

  it("escapes text and attributes as minidom does, and turns carriage returns in text into line feeds", () => {
    const v = { r: { a: "<&>\"'", t: "x\r\ny", c: { q: 'a"b\nc' } } };
    expect(renderCase("{{ v|xml }}", {}, { v })).toBe(
      '<?xml version="1.0" ?>\n<r a="&lt;&amp;&gt;&quot;\'" t="x\r\ny">\n <c q="a&quot;b\nc"/>\n</r>\n',
    );
    expect(renderCase("{{ {'r': 'x\\r\\ny é😀'}|xml }}")).toBe('<?xml version="1.0" ?>\n<r>x\ny é😀</r>\n');
  });

  it("keeps Salt's quirks: only the last top-level element, lists of strings, namespaces", () => {
    expect(renderCase("{{ {'a': 1, 'b': 2}|xml }}")).toBe('<?xml version="1.0" ?>\n<b>2</b>\n');
    expect(renderCase("{{ {'r': {'i': ['ab', 'cd']}}|xml }}")).toBe(
      '<?xml version="1.0" ?>\n<r>\n <i>ab</i>\n <i>cd</i>\n</r>\n',
    );
    expect(renderCase("{{ {'r': {'xmlns:p': 'urn:x', 'p:a': {'b': ''}}}|xml }}")).toBe(
      '<?xml version="1.0" ?>\n<r xmlns:p="urn:x">\n <p:a b=""/>\n</r>\n',
    );
  });

  it("fails where Salt's filter fails", () => {
    for (const v of [
      "{'r': None}",
      "[]",
      "'text'",
      "{'r': ['x']}",
      "{'é': 1}",
      "{'1a': 1}",
      "{'p:a': 1}",
      "{'r': '\\x01'}",
      "{'r': []}",
    ]) {
      expect(failure(() => renderCase(`{{ ${v}|xml }}`)).code, v).toBe("TEMPLATE_RENDER");
    }
  });
});
