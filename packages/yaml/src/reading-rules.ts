/**
 * The version of the rules by which `loadYaml` turns text into values. It goes up whenever some text may read to
 * another value, or to an error where it read before (or the reverse), so that a store of parsed documents kept
 * across an upgrade (`parsedDocuments` of `@merge/source-stack`) never serves a value read by older rules.
 * `reading-rules.test.ts` fails when the loader's results on the recorded corpus change while this number stays.
 */
export const YAML_READING_RULES = 3;
