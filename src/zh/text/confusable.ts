/**
 * Syllables a learner is likely to produce instead of the expected one, for competitor sets
 * in pronunciation checks. Built from the contrasts that the teaching literature and the
 * assessment rubric single out for Mandarin learners (native dialect speakers and L2):
 *   initials: z/zh, c/ch, s/sh (flat vs retroflex), n/l, f/h, r/l, and aspiration
 *             b/p, d/t, g/k, j/q, z/c, zh/ch;
 *   finals:   an/ang, en/eng, in/ing, ian/iang, uan/uang (front vs back nasal),
 *             eng/ong, uen/ong, ü/i and ü/u (ju/ji, lü/lu), üe/ie, üan/ian, ün/in,
 *             uo/o, e/o, ie/ei.
 * Only combinations that are real syllables are returned (see syllables.ts).
 */
import { composeSyllable, isSyllable, splitSyllable } from './syllables.js';

const APICAL = ['zh', 'ch', 'sh', 'r', 'z', 'c', 's'];

export type ConfusionKind = 'initial' | 'final' | 'both';

const INITIAL_PAIRS: [string, string][] = [
  ['z', 'zh'], ['c', 'ch'], ['s', 'sh'], ['n', 'l'], ['f', 'h'], ['r', 'l'],
  ['b', 'p'], ['d', 't'], ['g', 'k'], ['j', 'q'], ['z', 'c'], ['zh', 'ch'],
];

const FINAL_PAIRS: [string, string][] = [
  ['an', 'ang'], ['en', 'eng'], ['in', 'ing'], ['ian', 'iang'], ['uan', 'uang'],
  ['eng', 'ong'], ['uen', 'ong'], ['v', 'i'], ['v', 'u'], ['ve', 'ie'], ['van', 'ian'], ['vn', 'in'],
  ['uo', 'o'], ['e', 'o'], ['ie', 'ei'],
];

function partners(value: string, pairs: [string, string][]): string[] {
  const out: string[] = [];
  for (const [a, b] of pairs) {
    if (value === a) out.push(b);
    else if (value === b) out.push(a);
  }
  return out;
}

export interface Confusable {
  syllable: string;
  kind: ConfusionKind;
}

/**
 * Likely confusions of a toneless syllable, nearest first: initial swaps, final swaps, then
 * both at once (e.g. zhang → zang, zhan, zan). The syllable itself is not included.
 */
export function confusableSyllables(syllable: string): Confusable[] {
  const parts = splitSyllable(syllable);
  if (!parts || parts.final === '') return [];
  const seen = new Set<string>([syllable]);
  const out: Confusable[] = [];
  const add = (initial: string, final: string, kind: ConfusionKind) => {
    // i after z c s zh ch sh r is the apical vowel: swapping zhi ↔ zi ↔ ji keeps the letter i.
    const f = final === '-i' || final === 'i' ? (APICAL.includes(initial) ? '-i' : 'i') : final;
    const s = composeSyllable(initial, f);
    if (!seen.has(s) && isSyllable(s)) {
      seen.add(s);
      out.push({ syllable: s, kind });
    }
  };
  const initials = partners(parts.initial, INITIAL_PAIRS);
  const finals = partners(parts.final, FINAL_PAIRS);
  for (const i of initials) add(i, parts.final, 'initial');
  for (const f of finals) add(parts.initial, f, 'final');
  for (const i of initials) for (const f of finals) add(i, f, 'both');
  // f/h across the medial u: hui ↔ fei, huang ↔ fang, huo ↔ fo.
  if (parts.initial === 'h' && parts.final.startsWith('u') && parts.final.length > 1) add('f', parts.final.slice(1), 'both');
  if (parts.initial === 'f' && parts.final !== 'u') add('h', 'u' + parts.final, 'both');
  return out;
}
