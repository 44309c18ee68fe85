// Python's `sorted()`/`list.sort()` as CPython 3.11 runs it, for the filters that sort (`sort`, `dictsort`,
// `groupby`, `|json` and `|tojson` with sorted keys). Any stable sort gives the same order; what this adds is the order
// in which items are compared, which decides the message when two of them cannot be compared: CPython only ever asks
// `later < earlier` (an item that came later in the list on the left), runs are found and extended by binary
// insertion exactly as `count_run` and `binarysort` do, and `reverse=True` reverses the list before and after the
// sort (so equal items keep their order). `{8080: 'a', 'b': 1}|json` therefore fails with `'<' not supported
// between instances of 'str' and 'int'`, and `{'b': 1, 8080: 'a'}|json` with `'int' and 'str'`, as in Python.
// Runs are merged without CPython's galloping, which only matters for which pair of a long list fails first.

/** Sorts `items` by `key` (computed once per item, first to last, as Python does) with the order `lt`. */
export function pySorted<T, K>(
  items: readonly T[],
  key: (item: T) => K,
  lt: (a: K, b: K) => boolean,
  reverse = false,
): T[] {
  const n = items.length;
  const keys: K[] = new Array(n);
  const values: T[] = new Array(n);
  for (let i = 0; i < n; i++) {
    values[i] = items[i] as T;
    keys[i] = key(values[i] as T);
  }
  if (reverse) {
    keys.reverse();
    values.reverse();
  }
  if (n > 1) new TimSort(keys, values, lt).sort();
  if (reverse) values.reverse();
  return values;
}

/** `merge_compute_minrun`: the run length below which runs are extended by binary insertion. */
function minRun(length: number): number {
  let n = length;
  let r = 0;
  while (n >= 64) {
    r |= n & 1;
    n >>= 1;
  }
  return n + r;
}

class TimSort<K, T> {
  constructor(
    private readonly keys: K[],
    private readonly values: T[],
    private readonly lt: (a: K, b: K) => boolean,
  ) {}

  sort(): void {
    const n = this.keys.length;
    const min = minRun(n);
    const runs: [number, number][] = [];
    let lo = 0;
    while (lo < n) {
      let length = this.countRun(lo, n);
      if (length < min) {
        const forced = Math.min(n - lo, min);
        this.binarySort(lo, lo + forced, lo + length);
        length = forced;
      }
      runs.push([lo, length]);
      // Keep run lengths decreasing up the stack, so merges stay balanced.
      while (runs.length > 1) {
        const b = runs[runs.length - 1] as [number, number];
        const a = runs[runs.length - 2] as [number, number];
        if (a[1] > b[1] && lo + length < n) break;
        this.merge(a[0], a[1], b[1]);
        runs.pop();
        a[1] += b[1];
      }
      lo += length;
    }
  }

  /** `count_run`: the length of the run starting at `lo`; a strictly descending run is reversed in place. */
  private countRun(lo: number, hi: number): number {
    const { keys, lt } = this;
    if (lo + 1 === hi) return 1;
    let i = lo + 2;
    if (lt(keys[lo + 1] as K, keys[lo] as K)) {
      while (i < hi && lt(keys[i] as K, keys[i - 1] as K)) i++;
      this.reverseRange(lo, i);
    } else {
      while (i < hi && !lt(keys[i] as K, keys[i - 1] as K)) i++;
    }
    return i - lo;
  }

  private reverseRange(lo: number, hi: number): void {
    for (let a = lo, b = hi - 1; a < b; a++, b--) {
      const k = this.keys[a] as K;
      this.keys[a] = this.keys[b] as K;
      this.keys[b] = k;
      const v = this.values[a] as T;
      this.values[a] = this.values[b] as T;
      this.values[b] = v;
    }
  }

  /** `binarysort`: inserts the items from `start` to `hi` into the sorted range from `lo` to `start`. */
  private binarySort(lo: number, hi: number, start: number): void {
    const { keys, values, lt } = this;
    for (let s = start; s < hi; s++) {
      const pivot = keys[s] as K;
      const value = values[s] as T;
      let l = lo;
      let r = s;
      while (l < r) {
        const p = l + ((r - l) >> 1);
        if (lt(pivot, keys[p] as K)) r = p;
        else l = p + 1;
      }
      for (let j = s; j > l; j--) {
        keys[j] = keys[j - 1] as K;
        values[j] = values[j - 1] as T;
      }
      keys[l] = pivot;
      values[l] = value;
    }
  }

  /** Merges the adjacent sorted runs at `lo` (length `na`) and right after it (length `nb`), stably. */
  private merge(lo: number, na: number, nb: number): void {
    const { keys, values, lt } = this;
    const ak = keys.slice(lo, lo + na);
    const av = values.slice(lo, lo + na);
    let i = 0;
    let j = lo + na;
    const end = lo + na + nb;
    let out = lo;
    while (i < na && j < end) {
      // Python's merge asks whether the later run's item is smaller: ties keep the earlier run's item first.
      if (lt(keys[j] as K, ak[i] as K)) {
        keys[out] = keys[j] as K;
        values[out++] = values[j++] as T;
      } else {
        keys[out] = ak[i] as K;
        values[out++] = av[i++] as T;
      }
    }
    while (i < na) {
      keys[out] = ak[i] as K;
      values[out++] = av[i++] as T;
    }
  }
}
