import { describe, expect, it } from "vitest";
import { catchMergeError as failure } from "../../../test-kit/errors.js";
import { renderCase } from "./test-vars.js";

describe("comment delimiters", () => {
  it("print a stray #} in template text as text, as Jinja does", () => {
    expect(
      renderCase("a #} b|{# c #}#}{# d #}|{{ 1 }}#}|{% if true %}#}{% endif %}|{% raw %}#}{% endraw %}"),
    ).toBe("a #} b|#}|1#}|#}|#}");
  });

  it("still end a comment at its first #}, and refuse a comment that never ends", () => {
    expect(renderCase("{# a #} b #}")).toBe(" b #}");
    expect(failure(() => renderCase("text {# open")).code).toBe("TEMPLATE_SYNTAX");
  });
});

describe("adjacent string literals", () => {
  // Jinja 3.1.6's output for each (recorded with Python's jinja2): its parser joins them, as Python does.
  it.each([
    [`{{ "a" "b" }}`, "ab"],
    [`{{ "a" 'b' ~ "c" }}`, "abc"],
    [`{{ ("a" "b")|upper }}`, "AB"],
    ["{{ 'x' 'y' 'z' }}", "xyz"],
    ["{% set v = 'p' 'q' %}{{ v }}", "pq"],
    ["{{ ['a' 'b', 'c'] }}", "['ab', 'c']"],
    ["{{ {'k' 'ey': 1} }}", "{'key': 1}"],
    ["{{ 'a' 'b' in 'xaby' }}", "True"],
    ["{{ 'a''b' }}", "ab"],
    ["{{ 'a'\n'b' }}", "ab"],
    [`{{ 'é' "\\u00e9" }}`, "éé"],
  ])("%s is %s", (template, expected) => {
    expect(renderCase(template)).toBe(expected);
  });
});
