/**
 * Grapheme-to-phoneme alignment into phonics blocks ("thought" → th/TH, ough/AO, t/T).
 *
 * Method: a minimum-cost dynamic programme over (letters used, phones used), in the spirit of
 * the many-to-many letter-phoneme alignment of Jiampojamarn, Kondrak and Sherif (NAACL 2007),
 * but with a fixed table of known correspondences (phonics-table.ts) instead of learnt
 * probabilities. Each step takes one grapheme (1-4 letters) and 0-3 phones. A table pair costs
 * 1 per block, so the longest known graphemes win ("ough" over o+u+gh); anything outside the
 * table is still possible at a high cost (one letter to one phone 6, silent letter 5, one letter
 * to two phones 9), so every word aligns and the spells always concatenate to the word.
 * Apostrophes and hyphens are silent at no cost.
 */
import { GRAPHEME_PHONES } from './phonics-table.js';

export interface PhonicsBlock {
  /** Letters of the block, as written (case kept). */
  spell: string;
  /** Model phones the letters spell; empty for a silent letter. */
  phones: string[];
  /** Index in the pronunciation's phones of the block's first phone. */
  phoneStart: number;
}

const TABLE = new Map<string, string[][]>();
for (const [g, list] of Object.entries(GRAPHEME_PHONES)) {
  const key = g === 'y_vowel' ? 'y' : g;
  const prev = TABLE.get(key) ?? [];
  TABLE.set(key, [...prev, ...list.map((p) => (p === '' ? [] : p.split(' ')))]);
}
const MAX_GRAPHEME = 4;
const COST_TABLE = 1;
const COST_ONE_TO_ONE = 6;
const COST_SILENT = 5;
const COST_ONE_TO_TWO = 9;

interface Step { cost: number; fromI: number; fromJ: number }

function candidates(lower: string, i: number, phones: readonly string[], j: number): Array<[number, number, number]> {
  const out: Array<[number, number, number]> = []; // [letters, phones, cost]
  if (/['’\-.]/.test(lower[i])) out.push([1, 0, 0]);
  for (let g = 1; g <= MAX_GRAPHEME && i + g <= lower.length; g++) {
    const options = TABLE.get(lower.slice(i, i + g));
    if (!options) continue;
    for (const seq of options) {
      if (seq.every((p, k) => phones[j + k] === p) && j + seq.length <= phones.length) {
        out.push([g, seq.length, COST_TABLE]);
      }
    }
  }
  out.push([1, 0, COST_SILENT]);
  if (j < phones.length) out.push([1, 1, COST_ONE_TO_ONE]);
  if (j + 1 < phones.length) out.push([1, 2, COST_ONE_TO_TWO]);
  return out;
}

/** Aligns a written word with one pronunciation's phones. */
export function alignPhonics(word: string, phones: readonly string[]): PhonicsBlock[] {
  const lower = word.toLowerCase();
  const n = lower.length;
  const m = phones.length;
  const best: (Step | undefined)[][] = Array.from({ length: n + 1 }, () => new Array(m + 1));
  best[0][0] = { cost: 0, fromI: -1, fromJ: -1 };
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= m; j++) {
      const here = best[i][j];
      if (!here) continue;
      for (const [dl, dp, c] of candidates(lower, i, phones, j)) {
        const cell = best[i + dl][j + dp];
        if (!cell || here.cost + c < cell.cost) best[i + dl][j + dp] = { cost: here.cost + c, fromI: i, fromJ: j };
      }
    }
  }
  if (!best[n][m]) return [{ spell: word, phones: [...phones], phoneStart: 0 }];
  const blocks: PhonicsBlock[] = [];
  for (let i = n, j = m; i > 0;) {
    const s = best[i][j] as Step;
    blocks.push({ spell: word.slice(s.fromI, i), phones: phones.slice(s.fromJ, j), phoneStart: s.fromJ });
    i = s.fromI; j = s.fromJ;
  }
  return mergeSilentPunctuation(blocks.reverse());
}

/** An apostrophe or hyphen joins the block before it, so blocks stay letter groups. */
function mergeSilentPunctuation(blocks: PhonicsBlock[]): PhonicsBlock[] {
  const out: PhonicsBlock[] = [];
  for (const b of blocks) {
    if (/^['’\-.]$/.test(b.spell) && out.length > 0) out[out.length - 1].spell += b.spell;
    else out.push(b);
  }
  return out;
}
