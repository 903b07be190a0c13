/**
 * "Did you mean …?": the one place that finds the known name a typo was meant to be, for flags,
 * rule names and construct paths alike. Pure: a word and the known names in, the nearest name out.
 *
 * A candidate is near when it equals the word ignoring case, or is within a small edit distance
 * of it (insertions, deletions, substitutions and swaps of two neighbouring letters, compared
 * without case): at most a third of the candidate's letters, and at least one. The nearest wins;
 * on a tie, the first in the order given.
 */

/** The known name a typo of `word` most likely meant, or undefined when none is near. */
export function suggest(word: string, candidates: Iterable<string>): string | undefined {
  const target = word.toLowerCase();
  if (target === "") return undefined;
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    if (name === word) continue;
    const lower = name.toLowerCase();
    const limit = Math.max(1, Math.floor(lower.length / 3));
    // a cheap lower bound first: lengths further apart than the limit can never be near
    if (Math.abs(lower.length - target.length) > limit) continue;
    const distance = lower === target ? 0 : editDistance(target, lower, limit);
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** ` Did you mean 'X'?` for a message, or "" when nothing is near. */
export function didYouMean(word: string, candidates: Iterable<string>, quote: (name: string) => string = (name) => `'${name}'`): string {
  const near = suggest(word, candidates);
  return near === undefined ? "" : ` Did you mean ${quote(near)}?`;
}

/**
 * Optimal string alignment distance (Levenshtein plus the swap of two neighbouring letters, each
 * one edit). Stops early, returning `limit + 1`, once every alignment costs more than `limit`.
 */
export function editDistance(a: string, b: string, limit = Number.POSITIVE_INFINITY): number {
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, beforePrevious[j - 2]! + 1);
      current[j] = value;
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length]!;
}
