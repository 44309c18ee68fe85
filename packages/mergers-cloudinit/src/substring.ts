import type { MergerOptions } from "@merge/core";

/**
 * When the list form gave a merger's settings as one text (`{name: dict, settings: "no_replace"}`), cloud-init tests
 * each option by substring, so `no_replace` also turns on `replace`. For `--explain`: the note that says so when the
 * option that decided (one of `names`) is in the text only as part of another word; undefined otherwise.
 */
export function substringNote(options: MergerOptions, names: readonly string[]): string | undefined {
  const text = options.text;
  if (text === undefined) return undefined;
  const name = names.find((option) => options.has(option));
  if (name === undefined || options.list.includes(name)) return undefined;
  return `settings "${text}" contain "${name}": cloud-init tests a settings text by substring`;
}

/** `detail` and `note` joined for a trace event; undefined when both are. */
export function withNote(detail: string | undefined, note: string | undefined): string | undefined {
  if (note === undefined) return detail;
  return detail === undefined ? note : `${detail}; ${note}`;
}
