import type { SetOption } from "./set.js";
import { setMerger } from "./set.js";

export { mergeSet, readSetSettings, type SetOption, type SetSettings, setMerger, valueKey } from "./set.js";

declare module "@merge/core" {
  interface MergerMap {
    set: SetOption;
  }
}

/** What `merge --plugin` loads: the default export is the factory, called once per run. */
export default setMerger;
