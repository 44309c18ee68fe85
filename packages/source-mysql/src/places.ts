import {
  getItem,
  isMapping,
  keyIdentity,
  type Mapping,
  type MappingKey,
  mappingKeys,
  type PathKey,
} from "@merge/core";

/** Where a value is in the shaped data (`Shaper.places`). */
export interface ValuePlace {
  /** The path from the top, list indexes included. */
  readonly at: PathKey[];
  /**
   * Set when the value was inside a mapping or list that a later row or query replaced as a whole (a JSON list
   * replaced by the next row's list, a named query's mapping by a later query of the same keyword): where that
   * mapping or list was (a start of `at`), the mapping or list itself, and a number that tells such mappings and lists
   * of one shaper apart.
   */
  readonly within?: { readonly at: PathKey[]; readonly value: object; readonly id: number };
}

/** A place in the shaped data: a key of a mapping, or an index of a list, by the container's identity. */
export interface Place {
  readonly container: object;
  readonly key: MappingKey;
}

// A chain of moves is one step per conversion; this only guards against a cycle by mistake.
const MAX_HOPS = 10_000;

/**
 * Follows every value a row wrote to where it is once all queries of an entry ran. Rows write into mappings (and
 * lists) that later steps move: `as_list` puts a value that was alone at a key into a new list, `with_lists` turns a
 * mapping into the list of its values (or a list into a list holding it), an `as_json` list merge builds a new list
 * of the old items, a named query replaces its keyword's mapping. Each write is remembered by its container and key,
 * each move as it happens, and the final paths are read from the containers' places in the finished data (one walk
 * of the data, and one step per container a conversion replaced).
 */
export class PlaceTracker {
  // One entry per write, in the order written (parallel arrays: no object per write).
  private readonly containers: object[] = [];
  private readonly keys: MappingKey[] = [];
  /** The write whose value is at a place now (its number), by container and key identity. */
  private readonly occupants = new Map<object, Map<unknown, number>>();
  private readonly listed = new Map<
    object,
    { readonly list: object; readonly index: Map<unknown, number> }
  >();
  private readonly copies = new Map<object, object>();
  private readonly born = new Map<object, Place>();

  /** A row wrote a value at `key` of `container` (replacing what was there); writes are numbered from 0. */
  wrote(container: object, key: MappingKey): void {
    const write = this.containers.length;
    this.containers.push(container);
    this.keys.push(key);
    this.occupy(container, key, write);
  }

  /**
   * The value at `from` now is at `to` (a value alone at a key put into a new list with `as_list`, a list put into a
   * list by `with_lists`). Values `from` had before it, which lost there, stay where they lost.
   */
  moved(from: Place, to: Place): void {
    const slots = this.occupants.get(from.container);
    const id = keyIdentity(from.key);
    const write = slots?.get(id);
    if (write === undefined) return;
    slots!.delete(id);
    this.containers[write] = to.container;
    this.keys[write] = to.key;
    this.occupy(to.container, to.key, write);
  }

  /** `with_lists` replaced a mapping by the list of its values, in its key order. */
  listedAs(mapping: object, list: object, keys: readonly MappingKey[]): void {
    const index = new Map<unknown, number>();
    keys.forEach((key, at) => {
      index.set(keyIdentity(key), at);
    });
    this.listed.set(mapping, { list, index });
  }

  /** A list was replaced by a new one holding its items at the same indexes (and more after them). */
  copiedAs(old: object, copy: object): void {
    this.copies.set(old, copy);
  }

  /** A container was put at a place: where its values would be if something later replaced it. */
  placed(container: object, at: Place): void {
    this.born.set(container, at);
  }

  /**
   * The place of every write, in the order written, from the top of `root`, list indexes included: where the value
   * is, or for a value a later row or query overwrote, the place it lost at. Undefined only when no place of the
   * value, nor of any container that held it, can be found in `root`.
   */
  paths(root: object): (ValuePlace | undefined)[] {
    const at = containerPaths(root);
    const ids = new Map<object, number>();
    const out = new Array<ValuePlace | undefined>(this.containers.length);
    for (let write = 0; write < out.length; write++) {
      const container = this.containers[write]!;
      const key = this.keys[write]!;
      // The common case first: the container is still in the data.
      const path = at.get(container);
      out[write] = path === undefined ? this.resolve({ container, key }, at, ids, 0) : { at: [...path, key] };
    }
    return out;
  }

  private occupy(container: object, key: MappingKey, write: number): void {
    let slots = this.occupants.get(container);
    if (slots === undefined) {
      slots = new Map();
      this.occupants.set(container, slots);
    }
    slots.set(keyIdentity(key), write);
  }

  private resolve(
    start: Place,
    at: Map<object, PathKey[]>,
    ids: Map<object, number>,
    nesting: number,
  ): ValuePlace | undefined {
    let place: Place | undefined = start;
    for (let hops = 0; place !== undefined && hops < MAX_HOPS; hops++) {
      const path = at.get(place.container);
      if (path !== undefined) return { at: [...path, place.key] };
      place = this.next(place);
    }
    if (nesting > MAX_HOPS) return undefined;
    // The container is not in the data any more (something replaced it whole): the place the value had, below where
    // its container was put.
    const origin = this.born.get(start.container);
    if (origin === undefined) return undefined;
    const above = this.resolve(origin, at, ids, nesting + 1);
    if (above === undefined) return undefined;
    let within = above.within;
    if (within === undefined) {
      let id = ids.get(start.container);
      if (id === undefined) {
        id = ids.size + 1;
        ids.set(start.container, id);
      }
      within = { at: above.at, value: start.container, id };
    }
    return { at: [...above.at, start.key], within };
  }

  /** Where the values of a container that is gone went: a mapping made a list, a list copied. */
  private next(place: Place): Place | undefined {
    const listed = this.listed.get(place.container);
    if (listed !== undefined) {
      const index = listed.index.get(keyIdentity(place.key));
      return index === undefined ? undefined : { container: listed.list, key: index };
    }
    const copy = this.copies.get(place.container);
    return copy === undefined ? undefined : { container: copy, key: place.key };
  }
}

/** The path of every mapping and list in `root`, by identity (scalars cost nothing: only containers are queued). */
function containerPaths(root: object): Map<object, PathKey[]> {
  const out = new Map<object, PathKey[]>([[root, []]]);
  const work: object[] = [root];
  const visit = (child: unknown, path: PathKey[], key: PathKey) => {
    if (typeof child !== "object" || child === null || out.has(child)) return;
    if (!Array.isArray(child) && !isMapping(child)) return;
    out.set(child, [...path, key]);
    work.push(child);
  };
  for (let node = work.pop(); node !== undefined; node = work.pop()) {
    const path = out.get(node)!;
    if (Array.isArray(node)) {
      for (let index = 0; index < node.length; index++) visit(node[index], path, index);
    } else {
      for (const key of mappingKeys(node as Mapping)) visit(getItem(node as Mapping, key), path, key);
    }
  }
  return out;
}
