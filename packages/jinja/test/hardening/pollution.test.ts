// Issue 17: keys that come from data (grains, pillar, JSON or YAML read by a template) are data. Every template
// helper that builds a mapping must write them as own keys: `__proto__` must neither change a prototype nor get
// lost, whatever the depth or the helper.
import { toPlain } from "@merge/core";
import { describe, expect, it } from "vitest";
import { expectPristine, hostileJsonTexts, ownHostileKeys } from "../../../../test-kit/hostile.js";
import { reportCounts, tally } from "../../../../test-kit/tally.js";
import { createRenderer } from "../../src/index.js";

reportCounts("@merge/jinja", import.meta.url);

/** Templates that copy `g` (a hostile grain) into `stack.out` through one helper each. */
const BUILDERS = [
  "{% do stack.update({'out': dict(g)}) %}",
  "{% do stack.update({'out': dict(g.items())}) %}",
  "{% do stack.update({'out': dict(g.items()|list)}) %}",
  "{% do stack.update({'out': dict(**g)}) %}",
  "{% do stack.update({'out': dict({}, **g)}) %}",
  "{% set d = {} %}{% do d.update(g) %}{% do stack.update({'out': d}) %}",
  "{% set d = {} %}{% do d.update(**g) %}{% do stack.update({'out': d}) %}",
  "{% set d = {} %}{% for k, v in g.items() %}{% do d.__setitem__(k, v) %}{% endfor %}{% do stack.update({'out': d}) %}",
  "{% set d = {} %}{% for k, v in g.items() %}{% do d.setdefault(k, v) %}{% endfor %}{% do stack.update({'out': d}) %}",
  "{% set d = dict.fromkeys(g) %}{% for k in g %}{% do d.update({k: g[k]}) %}{% endfor %}{% do stack.update({'out': d}) %}",
  "{% do stack.update({'out': text|load_json}) %}",
  "{% load_json as x %}{{ text }}{% endload %}{% do stack.update({'out': x}) %}",
  "{% macro m() %}{% do stack.update({'out': kwargs}) %}{% endmacro %}{% do m(**g) %}",
  "{% do stack.update(dict(out=dict(g))) %}",
  "{% do stack.update(g) %}{% do stack.update({'out': g}) %}",
];

describe("mappings built by templates", () => {
  it("keep hostile keys as own data keys, at every depth, through every helper", () => {
    const renderer = createRenderer();
    let cases = 0;
    for (const text of hostileJsonTexts()) {
      const g = JSON.parse(text);
      const want = ownHostileKeys(g).sort();
      for (const src of BUILDERS) {
        const stack: Record<string, unknown> = {};
        renderer.render(src, "/srv/stack/a.yml", { g, text, stack }, "/srv/stack/config.cfg");
        // What templates build is a PyDict; its plain form shows the keys as own properties.
        expect(ownHostileKeys(toPlain(stack.out)).sort(), `${src} ${text}`).toEqual(want);
        expect(JSON.stringify(stack.out)).toBe(JSON.stringify(g));
        expectPristine();
        cases++;
      }
      const probe = renderer.render(
        "{{ dict(g).polluted is defined }}|{{ dict(g).isAdmin is defined }}|{{ namespace(g).hacked is defined }}",
        "/srv/stack/a.yml",
        { g },
        "/srv/stack/config.cfg",
      );
      expect(probe).toBe("False|False|False");
      cases++;
    }
    tally("pollution", cases);
  });
});
