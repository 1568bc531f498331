/**
 * The grammar of a real-time progress session and the reading of its partial hypotheses.
 *
 * The grammar accepts any prefix of the reference, in order, where each unit may also be skipped
 * at a cost (a learner who leaves out a character should not stop the progress):
 *   <utt> = [ <u0> [ <u1> [ <u2> ... ] ] ];   <ui> = /1/ ( alternatives ) | /SKIP/ <NULL>
 * The nesting makes every point of the reference an acceptable end, so a reader who stops half
 * way still ends inside the grammar. Pronunciations become the same phone-named dictionary words
 * as in forced alignment (sphinx/grammar.ts), so the dictionary does not grow per session.
 * Pure functions: no decoder, no I/O.
 */
import type { AlignUnit } from './types.js';
import { isPronWord, pronWord } from './sphinx/grammar.js';

/**
 * Weight of skipping a unit against reading it (JSGF alternative weights become transition
 * probabilities, scaled by the language weight). Acoustic log-likelihood differences between
 * competing partial paths are large, so the weight must be tiny to matter: on four AISHELL
 * sentences fed in 40 ms chunks, 0.05 and 1e-5 let the partial path hop ahead (units reported up
 * to 1.7 s before they were spoken), 1e-20 did not, and still passed a unit missing from the
 * audio (a character added to the reference was skipped and the session reached the end).
 */
export const SKIP_WEIGHT = 1e-20;

export interface ProgressGrammar {
  jsgf: string;
  /** Dictionary words the grammar uses, with their phones. */
  words: Map<string, string[]>;
  /** Per reference unit: the dictionary words that stand for it. */
  unitWords: Set<string>[];
}

export function compileProgressGrammar(reference: readonly AlignUnit[], skipWeight = SKIP_WEIGHT): ProgressGrammar {
  if (reference.length === 0) throw new Error('a progress reference needs at least one unit');
  const words = new Map<string, string[]>();
  const unitWords = reference.map((unit, i) => {
    const set = new Set<string>();
    for (const pron of unit.prons) {
      if (pron.length === 0) continue;
      const w = pronWord(pron);
      words.set(w, [...pron]);
      set.add(w);
    }
    if (set.size === 0) throw new Error(`reference unit ${i} (${unit.label}) has no pronunciation`);
    return set;
  });
  const rules = unitWords.map((set, i) => `<u${i}> = /1/ ( ${[...set].join(' | ')} ) | /${skipWeight}/ <NULL>;`);
  // Built from the end: the body for unit i is "<ui> [ body(i+1) ]".
  let body = '';
  for (let i = unitWords.length - 1; i >= 0; i--) body = body ? `<u${i}> [ ${body} ]` : `<u${i}>`;
  const jsgf = ['#JSGF V1.0;', 'grammar progress;', `public <utt> = [ ${body} ];`, ...rules].join('\n') + '\n';
  return { jsgf, words, unitWords };
}

export interface ProgressReading {
  /** Units up to here are read (matched or skipped). */
  readUnits: number;
  matched: boolean[];
}

/**
 * Places a hypothesis (decoded words in order; silence and fillers are ignored) on the
 * reference: each word takes the earliest unit at or after the current position that it can
 * stand for. Earliest-first needs the fewest skips and never runs ahead of the reader when the
 * same sound occurs several times.
 */
export function readHypothesis(words: readonly string[], unitWords: readonly Set<string>[]): ProgressReading {
  const matched = new Array<boolean>(unitWords.length).fill(false);
  let pos = 0;
  for (const w of words) {
    if (!isPronWord(w)) continue;
    let j = pos;
    while (j < unitWords.length && !unitWords[j].has(w)) j++;
    if (j === unitWords.length) continue;
    matched[j] = true;
    pos = j + 1;
  }
  return { readUnits: pos, matched };
}

/**
 * Progress only moves forward: a unit once reported read stays read, and the position never
 * goes back, even when a later partial hypothesis revises the words (the compat layer sends
 * each newly read word exactly once).
 */
export function mergeReading(prev: ProgressReading, next: ProgressReading): ProgressReading {
  const matched = prev.matched.map((m, i) => m || next.matched[i]);
  return { readUnits: Math.max(prev.readUnits, next.readUnits), matched };
}
