/**
 * Where a tag's handle ends. The `yaml` package takes everything up to a tag's last `!` for its handle, so
 * `!!!int`, `!!n!ull` and `!!str!` name handles that no document declares (or have no suffix) and are syntax
 * errors there. PyYAML's scanner takes the first `!word!` for the handle and the rest, `!` included, for the suffix
 * (`!!!int` is `tag:yaml.org,2002:!int`, a tag SafeLoader has no constructor for); libyaml does too, except that
 * when no `!word!` opens the tag the whole of it is a local tag (`!a.b!c`), where PyYAML stops at the `.`.
 */

const WORD = /[0-9A-Za-z_-]/;

/**
 * The tag's source spelt so that the `yaml` package splits it where PyYAML (or, `libyaml`, Salt's libyaml) does:
 * each `!` of the suffix written `%21`, which both decode to `!`; a local tag (handle `!`, whose suffix the package
 * does not decode) written verbatim, decoded as libyaml decodes it. Undefined when the split is already the same,
 * or when PyYAML refuses the tag (the parser's error is then moved to PyYAML's mark, as for any syntax error).
 */
export function tagAsPyyamlSplits(source: string, libyaml: boolean): string | undefined {
  // Verbatim (`!<...>`) and non-specific (`!`) tags have no handle to split.
  if (source.startsWith("!<") || source.length < 2) return undefined;
  let end = 1;
  while (end < source.length && WORD.test(source[end]!)) end++;
  let handle: string;
  if (source[end] === "!") handle = source.slice(0, end + 1);
  else if (libyaml || !source.includes("!", 1)) handle = "!";
  else return undefined;
  const suffix = source.slice(handle.length);
  if (!suffix.includes("!")) return undefined;
  if (handle !== "!") return handle + suffix.replaceAll("!", "%21");
  try {
    return `!<!${decodeURIComponent(suffix)}>`;
  } catch {
    // Not UTF-8 once decoded: left to the parser, which refuses it too.
    return undefined;
  }
}
