import { PyDict } from "@merge/core";

/**
 * Freezes the mappings and lists of a parsed document, all the way down, when the loader shares its parsed files
 * with the results (`sharedValues`): nothing can then change the cache through a result by mistake, and writers
 * may keep the text of a frozen part to write it again for the next host (`formatJson`'s `frozenTexts`). A part
 * already frozen (a top-level piece reused from the file's previous text) is not walked again. Without recursion: a
 * document nests up to YAML's depth limit.
 */
export function freezeDocument(doc: unknown): void {
  const pending: unknown[] = [doc];
  while (pending.length > 0) {
    const value = pending.pop();
    if (value instanceof PyDict) {
      if (value.isFrozen) continue;
      for (const child of value.values())
        if (typeof child === "object" && child !== null) pending.push(child);
      value.freeze();
    } else if (Array.isArray(value)) {
      if (Object.isFrozen(value)) continue;
      for (const item of value) if (typeof item === "object" && item !== null) pending.push(item);
      Object.freeze(value);
    }
  }
}
