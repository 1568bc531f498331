/**
 * Competitors of a syllable in the context competition (context.ts). Decoding a character
 * free among all ~420 syllables costs about five times a decode among 40, and nearly all of
 * that cost is the number of alternatives, so each character competes against a shortlist:
 *   - syllables sharing its first or its last model phone (same initial, other final; same
 *     final, other initial), which covers the near misses a toneless model can tell apart;
 *   - the learner confusions of the text layer (z/zh, n/l, an/ang, …, both at once);
 *   - syllables ending in a phone the free phone loop heard over the character's frames (the
 *     final, the long and reliably heard part), which covers syllables unrelated to the
 *     reference, e.g. another character read in its place. On 40 S0150 sentences with random
 *     substitutions, requiring the initial to be heard too lost 4 of 36 detected ones (fen
 *     read as le, kou as ai, kao as fang, guang as chang).
 * The reference itself is in the list, so a decode that picks it needs no forced decode.
 */
import type { PhoneSegment } from '../../acoustic/types.js';
import { confusableSyllables } from '../text/index.js';
import type { SyllableTable } from './syllables.js';

export interface CandidateIndex {
  /** Syllables with a pronunciation starting with the phone. */
  byFirst: ReadonlyMap<string, readonly string[]>;
  /** Syllables with a pronunciation ending with the phone. */
  byLast: ReadonlyMap<string, readonly string[]>;
}

const indexes = new WeakMap<SyllableTable, CandidateIndex>();

export function candidateIndex(table: SyllableTable): CandidateIndex {
  const hit = indexes.get(table);
  if (hit) return hit;
  const byFirst = new Map<string, string[]>();
  const byLast = new Map<string, string[]>();
  const add = (m: Map<string, string[]>, phone: string, s: string) => {
    const list = m.get(phone) ?? [];
    if (!list.includes(s)) list.push(s);
    m.set(phone, list);
  };
  for (const s of table.syllables) {
    for (const p of table.prons.get(s)!) {
      if (p.length === 0) continue;
      add(byFirst, p[0], s);
      add(byLast, p[p.length - 1], s);
    }
  }
  const index = { byFirst, byLast };
  indexes.set(table, index);
  return index;
}

/**
 * The shortlist for `syllable` over frames [startFrame, endFrame), given the free phone loop
 * of the utterance (speech phones only; an empty loop leaves the phone-sharing and learner
 * candidates).
 */
export function candidates(table: SyllableTable, syllable: string, loop: readonly PhoneSegment[], startFrame: number, endFrame: number): string[] {
  const index = candidateIndex(table);
  const out = new Set<string>([syllable]);
  for (const p of table.prons.get(syllable) ?? []) {
    if (p.length === 0) continue;
    for (const s of index.byFirst.get(p[0]) ?? []) out.add(s);
    for (const s of index.byLast.get(p[p.length - 1]) ?? []) out.add(s);
  }
  for (const c of confusableSyllables(syllable)) if (table.prons.has(c.syllable)) out.add(c.syllable);
  const heard = new Set(loop.filter((p) => p.endFrame > startFrame && p.startFrame < endFrame).map((p) => p.phone));
  for (const phone of heard) for (const s of index.byLast.get(phone) ?? []) out.add(s);
  return [...out];
}
