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
