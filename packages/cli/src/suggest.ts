import leven from "leven";

/**
 * The candidate a mistyped word most likely meant (`doc` → `docs`, `--fromat` → `--format`, `apend` → `append`), or
 * undefined when none is close: at most a third of the word's length in edits (at least 1, 2 from 5 characters on),
 * a swap of two neighbouring letters counting as one. Ties go to the earlier candidate; a candidate that starts with
 * the word (`mer` → `mergers`) counts as close too.
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  const limit = Math.max(1, Math.min(3, Math.floor(lower.length / 3)), lower.length >= 5 ? 2 : 1);
  for (const candidate of candidates) {
    const other = candidate.toLowerCase();
    if (other === lower) return candidate;
    let distance = Math.min(leven(lower, other), swapDistance(lower, other));
    if (distance > limit && lower.length >= 2 && other.startsWith(lower)) distance = limit;
    if (distance <= limit && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** 1 when `a` is `b` with two neighbouring characters swapped, else infinity (leven counts a swap as 2). */
function swapDistance(a: string, b: string): number {
  if (a.length !== b.length) return Number.POSITIVE_INFINITY;
  let first = -1;
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue;
    if (first >= 0) {
      return i === first + 1 && a[first] === b[i] && a[i] === b[first] && a.slice(i + 1) === b.slice(i + 1)
        ? 1
        : Number.POSITIVE_INFINITY;
    }
    first = i;
  }
  return Number.POSITIVE_INFINITY;
}

/** ` (did you mean "docs"?)`, or "" when nothing is close. */
export function didYouMean(word: string, candidates: readonly string[], quote = true): string {
  const best = closest(word, candidates);
  if (best === undefined) return "";
  return quote ? ` (did you mean "${best}"?)` : ` (did you mean ${best}?)`;
}
