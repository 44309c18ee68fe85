import { markOpaque } from "@merge/jinja";
import { describe, expect, it } from "vitest";
import { itemPattern, markHostValues, showItem } from "./taint.js";

const m = (s: string) => markOpaque(s) as string;

describe("config items holding minion text", () => {
  it("keeps the author's glob characters and escapes the minion's", () => {
    expect(itemPattern(`roles/*/${m("web*?[x]")}.yml`)).toEqual({ pattern: "roles/*/web[*][?][[]x[]].yml" });
    expect(itemPattern("plain/*.yml")).toEqual({ pattern: "plain/*.yml" });
  });

  it("refuses exactly the characters of Unicode's control, format, separator, unassigned and surrogate classes", () => {
    const refused = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cn}\p{Cs}]/u;
    for (let code = 0; code <= 0xffff; code++) {
      const ch = String.fromCharCode(code);
      // Characters the marking leaves as they are are no minion text here.
      if (ch === "/" || m(ch) === ch) continue;
      const read = itemPattern(`minions/${m(ch)}.yml`);
      if ("refused" in read && read.refused.includes("cannot be named")) continue;
      expect("refused" in read, `U+${code.toString(16)}`).toBe(refused.test(ch));
    }
  });

  it("keeps spaces, quotes, backslashes and the like as literal characters", () => {
    expect(itemPattern(`os/${m('Debian "x" \\y #z')}.yml`)).toEqual({ pattern: 'os/Debian "x" \\y #z.yml' });
  });

  it("refuses a minion's `/`, line breaks, controls and format characters", () => {
    for (const value of [
      "a/b",
      "a\nb",
      "a\u2028b",
      "a\u0085b",
      "a\0b",
      "a\tb",
      "a\u202eb",
      "a\ufeffb",
      "\ud800",
    ]) {
      expect(itemPattern(`minions/${m(value)}.yml`)).toHaveProperty("refused");
    }
  });

  it("refuses a `.` or `..` segment holding a minion's dot, and only that", () => {
    expect(itemPattern(`minions/${m("..")}/web1.yml`)).toHaveProperty("refused");
    expect(itemPattern(`minions/${m(".")}/web1.yml`)).toHaveProperty("refused");
    expect(itemPattern(`${m("..")}`)).toHaveProperty("refused");
    expect(itemPattern(`a/${m(".")}.`)).toHaveProperty("refused");
    expect(itemPattern(`minions/${m("..x")}.yml`)).toEqual({ pattern: "minions/..x.yml" });
    expect(itemPattern(`sub/../${m("web1")}.yml`)).toEqual({ pattern: "sub/../web1.yml" });
  });

  it("shows an item without raw line breaks, controls or invisible characters", () => {
    expect(showItem(`minions/${m('x\n"\\\u2028\u200b\u0085y z')}.yml`)).toBe(
      'minions/x\\u000a\\"\\\\\\u2028\\u200b\\u0085y z.yml',
    );
  });

  it("marks the minion id, grains and Salt's copies of them in opts, nothing else", () => {
    const host = markHostValues("a b", { "k y": ["v w"] }, { id: "a b", grains: { g: "x/y" }, other: "p q" });
    expect(host.minionId).toBe(m("a b"));
    expect(host.grains).toEqual({ [m("k y")]: [m("v w")] });
    expect(host.opts).toEqual({ id: m("a b"), grains: { g: m("x/y") }, other: "p q" });
    const plainOpts = { other: "p q" };
    expect(markHostValues("x", {}, plainOpts).opts).toBe(plainOpts);
  });
});
