import { keyedList } from "./keyed.js";

export { DEFAULT_KEY_FIELD, type KeyedSettings, keyedList, mergeKeyed, readSettings } from "./keyed.js";

declare module "@merge/core" {
  interface MergerMap {
    // A field name is a free option, so any option is accepted.
    keyed: string;
  }
}

/** What `merge --plugin` loads: the default export is the factory, called once per run. */
export default keyedList;
