// A test-only model of Salt's PillarStack merge, written to mirror its control flow step by step: it mutates the
// stack and the document in place, as the Python does. Tests run it on deep copies and compare our pure and
// accumulating implementations against it.

type Data = Record<string, unknown>;
const STRATEGIES = ["overwrite", "merge-first", "merge-last", "remove"];

const isDict = (v: unknown): v is Data =>
  typeof v === "object" && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

// Python's type() names for YAML values; ints and floats are told apart by integrality, as the data we generate is.
function pyType(v: unknown): string {
  if (v === null) return "none";
  if (Array.isArray(v)) return "list";
  if (isDict(v)) return "dict";
  if (typeof v === "number") return Number.isInteger(v) ? "int" : "float";
  return typeof v;
}

export function modelCleanup(obj: unknown): unknown {
  if (isDict(obj) && Object.keys(obj).length > 0) {
    delete obj.__;
    for (const k of Object.keys(obj)) obj[k] = modelCleanup(obj[k]);
  } else if (Array.isArray(obj) && obj.length > 0 && isDict(obj[0]) && "__" in obj[0]) {
    obj.splice(0, 1);
  }
  return obj;
}

export function modelMergeDict(stack: Data, obj: Data): Data {
  const strategy = "__" in obj ? obj.__ : "merge-last";
  delete obj.__;
  if (!STRATEGIES.includes(strategy as string)) throw new Error(`Unknown strategy ${String(strategy)}`);
  if (strategy === "overwrite") return modelCleanup(obj) as Data;
  for (const k of Object.keys(obj)) {
    let v = obj[k];
    if (strategy === "remove") {
      delete stack[k];
      continue;
    }
    if (k in stack) {
      if (strategy === "merge-first") {
        const old = stack[k];
        stack[k] = modelCleanup(v);
        v = old;
      }
      if (pyType(stack[k]) !== pyType(v)) stack[k] = modelCleanup(v);
      else if (isDict(v)) stack[k] = modelMergeDict(stack[k] as Data, v);
      else if (Array.isArray(v)) stack[k] = modelMergeList(stack[k] as unknown[], v);
      else stack[k] = v;
    } else {
      stack[k] = modelCleanup(v);
    }
  }
  return stack;
}

function modelMergeList(stack: unknown[], obj: unknown[]): unknown[] {
  let strategy: unknown = "merge-last";
  if (obj.length > 0 && isDict(obj[0]) && "__" in obj[0]) {
    strategy = obj[0].__;
    obj.splice(0, 1);
  }
  if (!STRATEGIES.includes(strategy as string)) throw new Error(`Unknown strategy ${String(strategy)}`);
  if (strategy === "overwrite") return obj;
  if (strategy === "remove") return stack.filter((item) => !obj.some((o) => pyEq(item, o)));
  if (strategy === "merge-first") return [...obj, ...stack];
  return [...stack, ...obj];
}

function pyEq(a: unknown, b: unknown): boolean {
  const num = (v: unknown) => (typeof v === "boolean" ? Number(v) : v);
  if (typeof num(a) === "number" && typeof num(b) === "number") return num(a) === num(b);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => pyEq(x, b[i]));
  if (isDict(a) && isDict(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && pyEq(a[k], b[k]));
  }
  return a === b;
}
