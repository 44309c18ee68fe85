import type { MergerPlugin } from "@merge/core";
import { describe } from "./list.js";
import { substringNote } from "./substring.js";

/** The options of `str(...)`. */
export type StrOption = "append" | "recurse_dict" | "recurse_list" | "recurse_array" | "recurse_str";

/**
 * cloud-init's `str` merger (`m_str`). Handles string base values: with `append` the new string is concatenated
 * to the old one (a new value that is not a string is a `MERGE_TYPE` error, cloud-init's TypeError); without it
 * the new value is returned, whatever its type.
 */
export function strMerger(): MergerPlugin<"str", StrOption> {
  return {
    name: "str",
    kinds: ["string"],
    description: "cloud-init's string merger: take the new value, or append it to the old string",
    options: {
      append: "concatenate old + new instead of taking the new value",
      recurse_dict: "accepted as one of cloud-init's common options; no effect on strings",
      recurse_list: "accepted as one of cloud-init's common options; no effect on strings",
      recurse_array: "accepted as one of cloud-init's common options; no effect on strings",
      recurse_str: "accepted as one of cloud-init's common options; no effect on strings",
    },
    create(options, ctx) {
      const append = options.has("append");
      const note = append ? substringNote(options, ["append"]) : undefined;
      const string = (base: string, incoming: unknown): unknown => {
        if (!append) {
          if (ctx.tracing) ctx.explain("replaced");
          return incoming;
        }
        if (typeof incoming !== "string") {
          return ctx.fail("MERGE_TYPE", `${ctx.label} cannot append ${describe(incoming)} to a string`, {
            incoming: describe(incoming),
          });
        }
        if (ctx.tracing) ctx.explain("concatenated", undefined, note);
        return base + incoming;
      };
      return { string };
    },
  };
}
