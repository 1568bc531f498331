/**
 * Seeded alterations of a reference for the validity protocol (tools/validity-zh.ts). Each one
 * returns the request's text or refPinyin and the read-character positions that a correct
 * engine must flag.
 */
import type { SyllableTable } from '../src/zh/engine/syllables.js';
import type { ZhText } from '../src/zh/engine/text.js';
import { JUDGED_INITIALS, PLACE_PARTNER } from '../src/zh/engine/sibilants.js';

export function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)];
}

/** Distinct random positions in [0, n), at least `gap` apart (so contexts do not overlap). */
export function positions(r: () => number, n: number, count: number, gap = 3): number[] {
  const out: number[] = [];
  for (let tries = 0; out.length < count && tries < 200; tries++) {
    const p = Math.floor(r() * n);
    if (out.every((q) => Math.abs(q - p) >= gap)) out.push(p);
  }
  return out.sort((a, b) => a - b);
}

function refSyllables(text: ZhText): { syllable: string; tone: number }[] {
  return text.read.map((i) => ({ syllable: text.tokens[i].syllable, tone: text.tokens[i].tone }));
}

const asPinyin = (xs: { syllable: string; tone: number }[]) => xs.map((x) => `${x.syllable}${x.tone}`).join(' ');

export type SubstitutionKind = 'initial' | 'final' | 'both';

/** The kinds of substitution, in the order the protocol cycles through them. */
export const SUBSTITUTION_KINDS: readonly SubstitutionKind[] = ['initial', 'final', 'both'];

/** A different syllable: new initial (same final), new final (same initial), or both changed. */
export function substitute(r: () => number, table: SyllableTable, syl: string, kind: SubstitutionKind): string {
  const ini = table.initialOf(syl);
  const fin = table.finalOf(syl);
  const candidates = table.syllables.filter((s) => {
    if (table.same(s, syl)) return false;
    const sameIni = table.initialOf(s) === ini;
    const sameFin = table.finalOf(s) === fin;
    return kind === 'initial' ? !sameIni && sameFin : kind === 'final' ? sameIni && !sameFin : !sameIni && !sameFin;
  });
  return candidates.length ? pick(r, candidates) : pick(r, table.syllables.filter((s) => !table.same(s, syl)));
}

export function substitutionCase(r: () => number, table: SyllableTable, text: ZhText, kinds: SubstitutionKind[]): { refPinyin: string; altered: number[] } {
  const syl = refSyllables(text);
  const altered = positions(r, syl.length, 2);
  altered.forEach((k, j) => (syl[k] = { syllable: substitute(r, table, syl[k].syllable, kinds[j % kinds.length]), tone: syl[k].tone }));
  return { refPinyin: asPinyin(syl), altered };
}

/**
 * One sibilant given at the other place in the reference: a character read with sh given as s,
 * with s as sh, with z as zh or with c as ch (the expected initials s, sh, zh, ch are the ones
 * the engine judges by their noise above 4 kHz). Null when the sentence has no such character.
 */
export function placeCase(r: () => number, table: SyllableTable, text: ZhText): { refPinyin: string; altered: number[]; kind: string } | null {
  const syl = refSyllables(text);
  const moved = (s: string) => {
    const ini = table.initialOf(s);
    const other = PLACE_PARTNER[ini];
    const to = other !== undefined && JUDGED_INITIALS.has(other) ? other + s.slice(ini.length) : '';
    return to && table.prons.has(to) && !table.same(to, s) ? to : null;
  };
  const ok = syl.flatMap((s, k) => (moved(s.syllable) ? [k] : []));
  if (ok.length === 0) return null;
  const k = pick(r, ok);
  const said = table.initialOf(syl[k].syllable);
  syl[k] = { syllable: moved(syl[k].syllable)!, tone: syl[k].tone };
  return { refPinyin: asPinyin(syl), altered: [k], kind: `${said} read, ${PLACE_PARTNER[said]} expected` };
}

/**
 * Wrong tones at positions whose realisation does not depend on sandhi: citation tone 1, 2 or 4
 * with no third-tone neighbour, not 一 or 不, replaced by a tone other than 3 (so the alteration
 * creates no new sandhi context).
 */
export function toneCase(r: () => number, text: ZhText): { refPinyin: string; altered: number[] } | null {
  const syl = refSyllables(text);
  const ok = syl.flatMap((s, k) => {
    const ch = text.tokens[text.read[k]].text;
    const neighbour3 = (k > 0 && syl[k - 1].tone === 3) || (k + 1 < syl.length && syl[k + 1].tone === 3);
    return s.tone !== 3 && s.tone !== 5 && !neighbour3 && ch !== '一' && ch !== '不' ? [k] : [];
  });
  if (ok.length < 2) return null;
  const altered = positions(r, ok.length, 2, 2).map((j) => ok[j]);
  for (const k of altered) syl[k] = { syllable: syl[k].syllable, tone: pick(r, [1, 2, 4].filter((t) => t !== syl[k].tone)) };
  return { refPinyin: asPinyin(syl), altered };
}

/** Two characters from another sentence inserted into the reference: they are not spoken. */
export function omissionCase(r: () => number, chars: string[], donor: string): { referenceText: string; altered: number[] } {
  const at = 1 + Math.floor(r() * Math.max(1, chars.length - 1));
  const d = [...donor].filter((c) => /\p{Script=Han}/u.test(c));
  const s = Math.floor(r() * Math.max(1, d.length - 2));
  const added = d.slice(s, s + 2);
  return { referenceText: [...chars.slice(0, at), ...added, ...chars.slice(at)].join(''), altered: [at, at + 1] };
}

/**
 * How many of the added characters the skipped ones account for when identical characters are
 * interchangeable. With 听歌 added before 听歌曲, skipping either 听歌 leaves the text that was
 * read, and the audio cannot tell which copy was left out. Counts the largest set T of skipped
 * positions such that T, completed with added positions, removes exactly the added text.
 */
export function omissionsAccounted(reference: readonly string[], altered: readonly number[], skipped: ReadonlySet<number>): number {
  const target = reference.filter((_, k) => !altered.includes(k)).join('');
  const without = (gone: ReadonlySet<number>) => reference.filter((_, k) => !gone.has(k)).join('');
  const pool = [...skipped];
  let best = altered.filter((k) => skipped.has(k)).length;
  const subsets = (from: number, size: number): number[][] =>
    size === 0 ? [[]] : pool.slice(from).flatMap((x, i) => subsets(from + i + 1, size - 1).map((rest) => [x, ...rest]));
  for (let size = best + 1; size <= altered.length; size++) {
    for (const t of subsets(0, size)) {
      const rest = altered.filter((k) => !t.includes(k));
      const fill = subsetsOf(rest, altered.length - size);
      if (fill.some((u) => without(new Set([...t, ...u])) === target)) best = size;
    }
  }
  return best;
}

function subsetsOf(xs: readonly number[], size: number): number[][] {
  if (size === 0) return [[]];
  return xs.flatMap((x, i) => subsetsOf(xs.slice(i + 1), size - 1).map((rest) => [x, ...rest]));
}

/** Two characters removed from the reference: they are spoken but not expected. */
export function insertionCase(r: () => number, chars: string[]): { referenceText: string; removedAfter: number } {
  const at = 1 + Math.floor(r() * Math.max(1, chars.length - 3));
  return { referenceText: [...chars.slice(0, at), ...chars.slice(at + 2)].join(''), removedAfter: at - 1 };
}
