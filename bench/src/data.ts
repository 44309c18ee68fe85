/**
 * Deterministic input generators. Every workload builds its inputs from a seed so runs are comparable and the
 * self-check test sees the same shapes as the benchmark, only smaller.
 */

export type Tree = Record<string, unknown>;

/** mulberry32: a tiny seeded PRNG; quality is plenty for shaping test data. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Key names of real configuration files: a modest vocabulary that repeats across mappings, as in YAML pillars.
const WORDS = [
  "name",
  "enabled",
  "port",
  "host",
  "user",
  "group",
  "mode",
  "path",
  "source",
  "target",
  "version",
  "timeout",
  "retries",
  "level",
  "format",
  "options",
  "servers",
  "packages",
  "services",
  "files",
  "users",
  "roles",
  "limits",
  "logging",
  "network",
  "storage",
  "backup",
  "cache",
  "proxy",
  "tls",
  "dns",
  "ntp",
  "mounts",
  "env",
  "labels",
  "tags",
  "watch",
  "require",
  "listen",
  "upstream",
];

function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)]!;
}

function scalar(rand: () => number, salt: number): unknown {
  const r = rand();
  if (r < 0.45) return `v${Math.floor(rand() * 100000)}-${salt}`;
  if (r < 0.75) return Math.floor(rand() * 65536);
  if (r < 0.9) return rand() < 0.5;
  return `/srv/${pick(rand, WORDS)}/${Math.floor(rand() * 1000)}`;
}

/** Counts mappings, lists and scalars (every value is a node), the unit of the tree workloads. */
export function countNodes(value: unknown): number {
  if (Array.isArray(value)) {
    let n = 1;
    for (const item of value) n += countNodes(item);
    return n;
  }
  if (typeof value === "object" && value !== null) {
    let n = 1;
    for (const key of Object.keys(value)) n += countNodes((value as Tree)[key]);
    return n;
  }
  return 1;
}

/**
 * A configuration-like tree of about `nodes` nodes: mappings of 4–12 keys (vocabulary words plus numbered names
 * such as `web12`), scalar leaves, and short lists, up to 7 levels deep.
 */
export function configTree(nodes: number, seed: number): Tree {
  const rand = random(seed);
  let budget = nodes - 1;
  const build = (depth: number): Tree => {
    const out: Tree = {};
    const width = 4 + Math.floor(rand() * 9);
    for (let i = 0; i < width && budget > 0; i++) {
      const key = rand() < 0.7 ? pick(rand, WORDS) : `${pick(rand, WORDS)}${Math.floor(rand() * 50)}`;
      if (Object.hasOwn(out, key)) continue;
      const r = rand();
      budget--;
      if (depth < 7 && r < 0.3 && budget > 4) {
        out[key] = build(depth + 1);
      } else if (r < 0.38) {
        const size = 1 + Math.floor(rand() * 4);
        const list: unknown[] = [];
        for (let j = 0; j < size && budget > 0; j++, budget--) list.push(scalar(rand, j));
        out[key] = list;
      } else {
        out[key] = scalar(rand, depth);
      }
    }
    return out;
  };
  const root: Tree = {};
  let index = 0;
  while (budget > 0) {
    budget--;
    root[`section${index++}`] = build(1);
  }
  return root;
}

// A replacement of the same type as `old` (for mergers such as cloud-init's `str(append)` that reject a type change).
function sameType(old: unknown, next: unknown): unknown {
  if (typeof old === "string") return typeof next === "string" ? next : `${old}-new`;
  if (typeof old === "number") return typeof next === "number" ? next : old + 1;
  if (typeof old === "boolean") return !old;
  return old;
}

/**
 * An overlay for `base` of about `nodes` nodes, like a later layer of configuration: it revisits about half of the
 * base's keys (recursing into mappings, appending to lists, replacing scalars), adds new keys, and (unless
 * `typeChanges` is false) sometimes changes a value's type.
 */
export function overlayTree(base: Tree, nodes: number, seed: number, typeChanges = true): Tree {
  const rand = random(seed);
  let budget = nodes - 1;
  const fresh = configTree(Math.max(nodes, 16), seed + 7);
  const freshKeys = Object.keys(fresh);
  let freshIndex = 0;
  const overlay = (node: Tree, depth: number): Tree => {
    const out: Tree = {};
    for (const key of Object.keys(node)) {
      if (budget <= 0) break;
      const value = node[key];
      // Mappings are always revisited (layers refine the same sections); a fifth of the leaves are left alone.
      const isMapping = typeof value === "object" && value !== null && !Array.isArray(value);
      if (!isMapping && rand() < 0.2) continue;
      budget--;
      if (Array.isArray(value)) {
        const list: unknown[] = [];
        const size = 1 + Math.floor(rand() * 3);
        for (let j = 0; j < size && budget > 0; j++, budget--) list.push(scalar(rand, j + 10));
        out[key] = list;
      } else if (typeof value === "object" && value !== null) {
        out[key] = typeChanges && rand() < 0.05 ? scalar(rand, depth) : overlay(value as Tree, depth + 1);
      } else {
        const next = rand() < 0.05 ? { replaced: scalar(rand, depth) } : scalar(rand, depth + 20);
        out[key] = typeChanges ? next : sameType(value, next);
      }
    }
    if (budget > 0 && rand() < 0.3 && depth < 6) {
      budget--;
      out[`added${Math.floor(rand() * 1000)}`] = scalar(rand, depth);
    }
    return out;
  };
  const root = overlay(base, 0);
  // Whatever budget is left becomes new top-level sections.
  while (budget > 0 && freshIndex < freshKeys.length) {
    const key = freshKeys[freshIndex++]!;
    const value = fresh[key];
    budget -= countNodes(value);
    root[`new_${key}`] = value;
  }
  return root;
}

/**
 * `count` documents of `keys` top-level keys each, drawn from a shared pool so later documents override, extend
 * and append to earlier ones (a fold of configuration layers).
 */
export function foldDocuments(count: number, keys: number, seed: number): Tree[] {
  const rand = random(seed);
  const pool = Math.max(keys * 2, 10);
  const docs: Tree[] = [];
  for (let d = 0; d < count; d++) {
    const doc: Tree = {};
    for (let k = 0; k < keys; k++) {
      const slot = Math.floor(rand() * pool);
      const key = `key${slot}`;
      // The kind of a key is fixed by its slot, so documents agree on shapes as real layers mostly do.
      const kind = slot % 100;
      if (kind < 60) {
        doc[key] = scalar(rand, d);
      } else if (kind < 97) {
        const nested: Tree = {};
        for (let j = 0; j < 4; j++) nested[pick(rand, WORDS)] = scalar(rand, d);
        doc[key] = nested;
      } else if (rand() < 0.1) {
        // Lists are appended to by one layer in ten, so they end at about a hundred items, not thousands.
        doc[key] = [scalar(rand, d), scalar(rand, d)];
      }
    }
    docs.push(doc);
  }
  return docs;
}

/** Two documents whose lists of `items` entries are concatenated: a list of mappings and a list of strings. */
export function listPair(items: number, seed: number): [Tree, Tree] {
  const rand = random(seed);
  const make = (offset: number): Tree => {
    const records: unknown[] = [];
    const names: unknown[] = [];
    for (let i = 0; i < items; i++) {
      records.push({ id: i + offset, name: `item${i + offset}`, port: Math.floor(rand() * 65536) });
      names.push(`pkg-${Math.floor(rand() * 1e6)}`);
    }
    return { records, packages: names, meta: { count: items } };
  };
  return [make(0), make(items)];
}

/**
 * Seven tiny merges of the shapes @fastify/deepmerge's comparison benchmark uses (flat, nested, scalar over a
 * mapping, short lists, lists of mappings, mapping over a scalar), written for these semantics.
 */
export function smallPairs(): [unknown, unknown][] {
  const flatOld = { alpha: "one", beta: "two" };
  const flatNew = { alpha: "uno", gamma: "three" };
  const nestedOld = { server: "plain", mode: "fast" };
  const nestedNew = { server: { host: "example.org", port: 8080 } };
  const listOld = ["a1", "b1", "c1", "d1", "e1"];
  const listNew = ["f2", "g2", "h2", "i2", "j2", "k2"];
  const recordsOld = [flatOld, { ...flatOld }, { ...flatOld }, { ...flatOld }, { ...flatOld }];
  const recordsNew = [flatNew, { ...flatNew }, { ...flatNew }, { ...flatNew }, { ...flatNew }];
  return [
    [flatOld, flatNew],
    [flatOld, "replacement"],
    [listOld, listNew],
    [recordsOld, recordsNew],
    [{ db: { user: "app", pool: { min: 1, max: 4 } } }, { db: { pool: { max: 16 }, tls: true } }],
    [nestedOld, nestedNew],
    [nestedNew, nestedOld],
  ];
}

/**
 * Builds two 10^5-node trees whose keys are random strings and keeps them reachable: V8 then has thousands of
 * object shapes, which is the state of a process that has loaded real configuration (see PERFORMANCE.md).
 */
export function pollute(seed = 99): unknown {
  const rand = random(seed);
  const key = () => Math.floor(rand() * 2 ** 40).toString(36);
  const build = (nodes: number): Tree => {
    let budget = nodes;
    const make = (depth: number): Tree => {
      const out: Tree = {};
      const width = 3 + Math.floor(rand() * 8);
      for (let i = 0; i < width && budget > 0; i++) {
        budget--;
        out[key()] = depth < 6 && rand() < 0.35 ? make(depth + 1) : key();
      }
      return out;
    };
    const root: Tree = {};
    while (budget > 0) root[key()] = make(1);
    return root;
  };
  return [build(100_000), build(100_000)];
}
