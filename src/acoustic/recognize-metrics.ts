/**
 * Word and character error rates (Levenshtein distance between token sequences over the
 * reference length), the usual ASR accuracy measure. Used by tests and benchmarks.
 * Pure functions.
 */

/** Substitutions + deletions + insertions of the cheapest alignment of `hyp` to `ref`. */
export function editDistance<T>(ref: readonly T[], hyp: readonly T[]): number {
  let prev = Array.from({ length: hyp.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ref.length; i++) {
    const row = [i];
    for (let j = 1; j <= hyp.length; j++) {
      row.push(Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (ref[i - 1] === hyp[j - 1] ? 0 : 1)));
    }
    prev = row;
  }
  return prev[hyp.length];
}

/** English words: lower case, apostrophes kept, other punctuation dropped. */
export function englishWords(text: string): string[] {
  return text.toLowerCase().replace(/[^a-z0-9' ]+/g, ' ').split(/\s+/).filter((w) => w !== '');
}

/** Mandarin characters: everything except spaces and punctuation. */
export function chineseChars(text: string): string[] {
  return [...text.replace(/[\s\p{P}]/gu, '')];
}

/** Corpus error rate: total edits over total reference tokens. */
export function errorRate<T>(pairs: readonly { ref: readonly T[]; hyp: readonly T[] }[]): number {
  let edits = 0;
  let tokens = 0;
  for (const p of pairs) {
    edits += editDistance(p.ref, p.hyp);
    tokens += p.ref.length;
  }
  return tokens === 0 ? 0 : edits / tokens;
}
