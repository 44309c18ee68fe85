// Issue 17: a minion must never select another host's files. The minion `evil` controls its id and its grains; the
// stack holds `minions/web1.yml`. Every way the config template can interpolate a minion value, with every kind of
// character that means something to a later reader, must leave `evil` without web1's file.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Dict, isMergeError, PyDict } from "@merge/core";
import { afterAll, describe, expect, it } from "vitest";
import { createStackLoader, loadStack, type StackHost, type StackLoader } from "../../src/index.js";
import { figure, reportCounts, tally } from "../../../../test-kit/tally.js";

reportCounts("@merge/source-stack", import.meta.url);

const root = mkdtempSync(join(tmpdir(), "merge-hardening-minion-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const write = (path: string, text: string) => {
  mkdirSync(join(root, path, ".."), { recursive: true });
  writeFileSync(join(root, path), text);
};
write("minions/web1.yml", "web1_secret: only for web1\n");
write("minions/sub/keep", "");
write("minions/x.yml", "x: 1\n");

/** Where a minion value sits: the expression that reads it, and a host carrying `value` there. */
const PLACES: Record<string, { expr: string; host: (value: string) => StackHost }> = {
  "minion id": { expr: "minion_id", host: (value) => ({ minionId: value }) },
  grain: { expr: "__grains__.g", host: (value) => ({ minionId: "evil", grains: { g: value } }) },
  "nested grain": {
    expr: "__grains__.a.b",
    host: (value) => ({ minionId: "evil", grains: { a: { b: value } } }),
  },
  "grain list item": {
    expr: "__grains__.roles[0]",
    host: (value) => ({ minionId: "evil", grains: { roles: [value] } }),
  },
  "dict key of grains": {
    expr: "(__grains__.d|list)[0]",
    host: (value) => ({ minionId: "evil", grains: { d: { [value]: true } } }),
  },
  "__opts__.id": { expr: "__opts__.id", host: (value) => ({ minionId: "evil", opts: { id: value } }) },
  // The exact model (what `merge stack --opts` hands over): a PyDict's `id` and `grains` are minion text too.
  "__opts__.id of a PyDict": {
    expr: "__opts__.id",
    host: (value) => ({ minionId: "evil", opts: new PyDict([["id", value]]) as unknown as Dict }),
  },
  "__opts__.grains of a PyDict": {
    expr: "__opts__.grains.g",
    host: (value) => ({
      minionId: "evil",
      opts: new PyDict([["grains", new PyDict([["g", value]])]]) as unknown as Dict,
    }),
  },
};

/** How a config template can put an expression `e` into its listing. */
const FORMS: Record<string, (e: string) => string> = {
  "line listing": (e) => `minions/{{ ${e} }}.yml\n`,
  "YAML list": (e) => `- minions/{{ ${e} }}.yml\n`,
  "YAML flow list": (e) => `[minions/{{ ${e} }}.yml]\n`,
  "double-quoted YAML": (e) => `- "minions/{{ ${e} }}.yml"\n`,
  "single-quoted YAML": (e) => `- 'minions/{{ ${e} }}.yml'\n`,
  "{{ x }} in a for loop": (e) => `{% for x in [${e}] %}\nminions/{{ x }}.yml\n{% endfor %}\n`,
  "|join": (e) => `{{ ['minions/', ${e}, '.yml'] | join }}\n`,
  "~": (e) => `{{ 'minions/' ~ ${e} ~ '.yml' }}\n`,
  "%-format": (e) => `{{ 'minions/%s.yml' % ${e} }}\n`,
  ".format": (e) => `{{ 'minions/{}.yml'.format(${e}) }}\n`,
  "|replace": (e) => `{{ 'minions/NAME.yml' | replace('NAME', ${e}) }}\n`,
  ".split()[0]": (e) => `minions/{{ (${e}).split()[0] }}.yml\n`,
  "|json list": (e) => `{{ ['minions/' ~ ${e} ~ '.yml'] | json }}\n`,
  "|yaml list": (e) => `{{ ['minions/' ~ ${e} ~ '.yml'] | yaml }}\n`,
  "|trim": (e) => `minions/{{ ${e} | trim }}.yml\n`,
};

const LINE_BREAKS = ["\n", "\r", "\r\n", "\v", "\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"];

/**
 * Hostile values by the kind of character they abuse. In each, `web1` is reached only through the abused
 * character: the plain reading of the value (its first word, the value trimmed) is never `web1` itself.
 */
const CLASSES: Record<string, string[]> = {
  "line break": LINE_BREAKS.flatMap((nl) => [
    `x${nl}minions/web1`,
    `x${nl}- minions/web1`,
    `x.yml${nl}minions/web1`,
    `x"${nl}- "minions/web1`,
    `x'${nl}- 'minions/web1`,
  ]),
  glob: ["web*", "web?", "web[1]", "w*1", "*1", "[w]eb1", "*", "[!x]eb1", "web[0-9]"],
  "YAML escape": ["web\\x31", "web\\u0031", "web\\U00000031", "\\x2a", "web\\x2a", "we\\x62\\x31", "web\\N1"],
  quote: [`x", "minions/web1`, `x', 'minions/web1`, `x"]\n["minions/web1`, `x''`, `x"`],
  "YAML structure": [
    "x, minions/web1",
    "x] [minions/web1",
    "x}, {a: minions/web1",
    "web1.yml #",
    "web1.yml\t#",
    "&a x",
  ],
  path: [
    "../minions/web1",
    "sub/../web1",
    "./web1",
    "sub/../../minions/web1",
    "..",
    "../web1",
    "sub/./../web1",
  ],
  control: ["web1\0", "sub\0/../web1", "x\tweb1", "web1\x7f", "web1\x1b", "\x08web1"],
  "format character": ["web1\u200b", "web\u202e1", "\ufeffweb1", "web1\u2060", "web1\u00ad"],
  "mark forgery": [
    "web\ue02a",
    "x\ue00aminions\ue02fweb1",
    "\ue02e\ue02e\ue02fminions\ue02fweb1",
    "web\ue1ff",
    "web1\ue000",
  ],
  "template syntax": ["{{ 'web1' }}", "{% raw %}web1", "{# x #}web1", "%s", "{}", "{0}"],
};

function outcome(
  loader: StackLoader,
  host: StackHost,
): { files: readonly string[]; data: Record<string, unknown> } | string {
  try {
    const result = loader.load(host);
    return { files: result.files, data: result.data };
  } catch (error) {
    if (!isMergeError(error)) throw error;
    return error.code;
  }
}

const gotWeb1 = (o: ReturnType<typeof outcome>) =>
  typeof o !== "string" && (o.files.some((f) => f.endsWith("minions/web1.yml")) || "web1_secret" in o.data);

describe("a minion's values never select another host's files", () => {
  it("named attacks of issue 17: {} and a STACK_NO_MATCH warning", () => {
    write("attack-lines.cfg", "minions/{{ minion_id }}.yml\n");
    write("attack-dq.cfg", '- "minions/{{ minion_id }}.yml"\n');
    write("attack-grain.cfg", "minions/{{ __grains__.x }}.yml\n");
    const attacks: [string, StackHost][] = [
      ...LINE_BREAKS.map((nl): [string, StackHost] => [
        "attack-lines.cfg",
        { minionId: `x${nl}minions/web1` },
      ]),
      ["attack-dq.cfg", { minionId: "\\x2a" }],
      ["attack-dq.cfg", { minionId: "web\\x31" }],
      ["attack-grain.cfg", { minionId: "evil", grains: { x: "../minions/web1" } }],
    ];
    for (const [config, host] of attacks) {
      const result = loadStack({ config, cwd: root, ...host });
      expect(result.data).toEqual({});
      expect(result.warnings.map((w) => w.code)).toEqual(["STACK_NO_MATCH"]);
      // the warning shows the item without a raw line break or control character
      expect(result.warnings[0]?.message).not.toMatch(/[\p{Cc}\p{Zl}\p{Zp}]/u);
      // as Salt, with saltGlobs, the same value does reach web1's file
      const salt = loadStack({ config, cwd: root, saltGlobs: true, ...host });
      expect(salt.data).toHaveProperty("web1_secret");
    }
    tally("paths", attacks.length * 2);
  });

  it("for every character class × place × config form (generated)", () => {
    let cases = 0;
    let saltSelects = 0;
    const failures: string[] = [];
    for (const [formName, form] of Object.entries(FORMS)) {
      for (const [placeName, place] of Object.entries(PLACES)) {
        const config = `gen-${Object.keys(FORMS).indexOf(formName)}-${Object.keys(PLACES).indexOf(placeName)}.cfg`;
        write(config, form(place.expr));
        const safe = createStackLoader({ config, cwd: root });
        const salt = createStackLoader({ config, cwd: root, saltGlobs: true });
        for (const [className, values] of Object.entries(CLASSES)) {
          for (const value of values) {
            const host = place.host(value);
            const got = outcome(safe, host);
            if (gotWeb1(got))
              failures.push(`${className} ${JSON.stringify(value)} as ${placeName} in ${formName}`);
            if (typeof got === "string")
              expect(got).toMatch(/^(STACK_[A-Z_]+|TEMPLATE_RENDER|YAML_[A-Z_]+)$/);
            if (gotWeb1(outcome(salt, host))) saltSelects++;
            cases++;
          }
        }
      }
    }
    expect(failures).toEqual([]);
    // The generated values are real attacks: with Salt's reading (saltGlobs) many of them do reach web1's file.
    expect(saltSelects).toBeGreaterThan(cases / 10);
    figure("source-stack: generated minion attacks (class × place × form)", cases);
    figure("source-stack: of them, selecting web1 under Salt's reading (saltGlobs)", saltSelects);
    tally("paths", cases);
  });
});

describe("ordinary minion values read as in Salt", () => {
  write("minions/web-1_a.example.com.yml", "fqdn: true\n");
  write("os/Debian.yml", "os: Debian\n");
  write("os/debian-gnu-linux.yml", "family: gnu\n");
  write("roles/db.yml", "roles: [db]\n");
  write("roles/web.yml", "roles: [web]\n");
  write(
    "ordinary.cfg",
    [
      "minions/{{ minion_id }}.yml",
      "{% if __grains__.osfullname == 'Debian GNU/Linux' %}os/{{ __grains__.os }}.yml{% endif %}",
      "{% if 'GNU/Linux' in __grains__.osfullname %}os/{{ __grains__.osfullname|lower|replace(' ', '-')|replace('/', '-') }}.yml{% endif %}",
      "{% for r in __grains__.roles|sort %}roles/{{ r }}.yml",
      "{% endfor %}{% if __grains__.fqdn.split('.')[0] == 'web-1_a' %}minions/{{ __grains__.fqdn }}.yml{% endif %}",
      "",
    ].join("\n"),
  );
  const host: StackHost = {
    minionId: "web-1_a.example.com",
    grains: {
      os: "Debian",
      osfullname: "Debian GNU/Linux",
      fqdn: "web-1_a.example.com",
      roles: ["web", "db"],
    },
  };

  it("selects the same files with and without opaque text", () => {
    const safe = loadStack({ config: "ordinary.cfg", cwd: root, ...host });
    const salt = loadStack({ config: "ordinary.cfg", cwd: root, saltGlobs: true, ...host });
    expect(safe.files).toEqual([
      "minions/web-1_a.example.com.yml",
      "os/Debian.yml",
      "os/debian-gnu-linux.yml",
      "roles/db.yml",
      "roles/web.yml",
      "minions/web-1_a.example.com.yml",
    ]);
    expect(safe).toEqual(salt);
    tally("paths", 2);
  });
});
