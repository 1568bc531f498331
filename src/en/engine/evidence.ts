/**
 * Acoustic evidence per reference word, read off one forced alignment: whether the aligner
 * used the word's slot or skipped it (omission evidence), the pronunciation it chose, its
 * phones with spans and GOP (Witt & Young 2000, nats per 10 ms frame, <= 0), and the silence
 * after it. Pure: alignment in, evidence out.
 */
import type { AlignFailure, AlignResult, UnitSegment } from '../../acoustic/types.js';
import type { Pronunciation, WordEntry } from '../lexicon/index.js';
import { isVowel } from '../lexicon/index.js';
import { chosenPronunciation, type ReadingPlan } from './plan.js';
import { shortWordLeniency } from './dimensions.js';

export interface PhoneEvidence {
  phone: string;
  /** Lexical stress for vowels (0, 1, 2), null for consonants. */
  stress: 0 | 1 | 2 | null;
  startFrame: number;
  endFrame: number;
  /** GOP in nats per frame (0 best); a phone without loop evidence gets the word's mean. */
  gop: number;
  /** Forced-alignment log-likelihood per frame (NaN for a skipped word). */
  forced: number;
  /**
   * What the whole band says of the phone (src/en/phone-spectrum): the log posterior of the
   * expected phone and its margin over the most probable other phone. Absent for a skipped
   * phone, on telephone-band audio, or without the classifier.
   */
  spectral?: readonly [logPosterior: number, margin: number];
}

export interface WordEvidence {
  index: number;
  entry: WordEntry;
  /** The aligner used the slot ('read') or skipped it ('omitted'). */
  status: 'read' | 'omitted';
  pron: Pronunciation;
  startFrame: number;
  endFrame: number;
  phones: PhoneEvidence[];
  /** Silence and fillers between this word's end and the next read word's start, frames. */
  pauseAfter: number;
  /**
   * Frames of extra speech (an insertion or a repetition) placed between this word and the next
   * read word, which are not a pause (insertions.ts `placeExtraSpeech`); absent when none.
   */
  extraAfter?: number;
}

export interface ReadingEvidence {
  ok: boolean;
  failure: AlignFailure | null;
  frames: number;
  words: WordEvidence[];
  /** First and last frame of aligned speech (0 when nothing aligned). */
  speechStart: number;
  speechEnd: number;
}

/** GOP given to the phones of a skipped word: far below any aligned phone (p1 of so762 ≈ −9). */
export const SKIPPED_GOP = -12;

export function readEvidence(plan: ReadingPlan, result: AlignResult): ReadingEvidence {
  const units = result.ok ? result.units.filter((u) => u.slot >= 0) : [];
  const bySlot = new Map<number, UnitSegment>();
  for (const u of units) bySlot.set(u.slot, u);
  const words = plan.entries.map((entry, i) => wordEvidence(entry, i, bySlot.get(i)));
  fillPauses(words);
  return { ok: result.ok, failure: result.ok ? null : result.reason, frames: result.ok ? result.frames : 0, words, ...speechSpan(words) };
}

/** First and last frame of the read words' speech (0 when none is read). */
export function speechSpan(words: readonly WordEvidence[]): Pick<ReadingEvidence, 'speechStart' | 'speechEnd'> {
  const read = words.filter((w) => w.status === 'read');
  return { speechStart: read[0]?.startFrame ?? 0, speechEnd: read[read.length - 1]?.endFrame ?? 0 };
}

/** The read word nearest to word `from`, itself included, going by `step` (−1 back, 1 on); −1 when there is none. */
export function readFrom(words: readonly WordEvidence[], from: number, step: -1 | 1): number {
  for (let k = from; k >= 0 && k < words.length; k += step) if (words[k].status === 'read') return k;
  return -1;
}

/**
 * Mean GOP (nats per frame) from which a word the first pass skipped counts as read after all,
 * lowered for a short word by the leniency its scoring gives it (shortWordLeniency): the mean
 * of a 6-frame "the" is as noisy for the rescue as for the judgement of a word read.
 */
export const RESCUE_GOP = -3;
/** ... provided no phone of it is worse than this (a short word can hide one bad vowel in its mean). */
export const RESCUE_PHONE_GOP = -5;
/** Clearly good words the required pass must add in a window to replace the first pass there. */
export const LOST_THREAD_WORDS = 3;

/**
 * Second look at skipped words. The optional-slot pass sometimes skips words that were said:
 * short function words, or a run of words after one that does not match (the search loses the
 * thread). `required` aligns the same text with every slot required, over `windows` (word
 * ranges; slots outside them are unaligned). Inside a window:
 * - a word skipped by the first pass is taken from the required pass when it is clearly good
 *   there (mean GOP at least RESCUE_GOP less the short-word leniency, no phone under
 *   RESCUE_PHONE_GOP); a word that really was not said is squeezed into a few frames of other
 *   speech by the required pass and mostly stays skipped (a one-phone "a" or "is" fitted into a
 *   neighbour's vowel can pass);
 * - when the required pass has LOST_THREAD_WORDS or more clearly good words than the first, the
 *   first pass lost the thread there: the window is taken from the required pass, every word
 *   read (and judged by its GOP like any other), so that its spans come from one alignment.
 *   One more good word is what a single rescue gives, and a required pass that squeezes a
 *   replaced word in can disturb a neighbour, so one is not enough.
 * A rescued word's span comes from the required pass; a read neighbour whose first-pass span
 * overlaps it or lies on its wrong side (the first pass had stretched that neighbour over the
 * skipped word's speech) is taken from the required pass too, and so on outwards, so that the
 * spans stay in reading order without overlapping. A window lies between the read words around
 * it, so its words taken from one alignment always fit. A neighbour that was clearly good in the
 * first pass must still be clearly good in the required pass, else the word stays skipped: a
 * word that was not said, squeezed in, pushes its neighbours off their speech.
 */
export function rescueSkipped(
  plan: ReadingPlan,
  first: ReadingEvidence,
  required: AlignResult,
  windows: readonly { first: number; end: number }[],
): ReadingEvidence {
  if (!required.ok || !first.ok) return first;
  const second = readEvidence(plan, required);
  const words = [...first.words];
  for (const win of windows) {
    const range = words.slice(win.first, win.end);
    const lost = countGood(second.words.slice(win.first, win.end)) >= countGood(range) + LOST_THREAD_WORDS;
    const taken = new Set<number>();
    for (let i = win.first; i < win.end; i++) {
      const alt = second.words[i];
      if (alt.status !== 'read') continue;
      if (lost) taken.add(i);
      else if (words[i].status === 'omitted' && clearlyGood(alt)) for (const k of displacedNeighbours(i, words, second.words, win) ?? []) taken.add(k);
    }
    for (const i of taken) words[i] = second.words[i];
  }
  if (words.every((w, i) => w === first.words[i])) return first;
  fillPauses(words);
  return { ...first, words, ...speechSpan(words) };
}

/**
 * Word `rescued` (taken from the required pass) with every read neighbour, inside the window,
 * whose span in `words` overlaps or crosses the span it would border: the nearest read word on
 * each side, repeated from each neighbour added. Null when such a neighbour was clearly good in
 * `words` and is not in the required pass.
 */
function displacedNeighbours(rescued: number, words: readonly WordEvidence[], second: readonly WordEvidence[], win: { first: number; end: number }): Set<number> | null {
  const taken = new Set([rescued]);
  const queue = [rescued];
  while (queue.length > 0) {
    const i = queue.pop()!;
    const own = second[i];
    for (const step of [-1, 1]) {
      let k = i + step;
      while (k >= win.first && k < win.end && !taken.has(k) && words[k].status !== 'read') k += step;
      if (k < win.first || k >= win.end || taken.has(k)) continue;
      const crosses = step < 0 ? words[k].endFrame > own.startFrame : words[k].startFrame < own.endFrame;
      if (!crosses) continue;
      if (clearlyGood(words[k]) && !clearlyGood(second[k])) return null;
      taken.add(k);
      queue.push(k);
    }
  }
  return taken;
}

/**
 * Words that competed for the same audio in the required pass and lost: in each window where
 * two or more words are still skipped after the rescue, the one with the lowest mean GOP in
 * the required pass. A word replaced by another in the text is squeezed into the audio of the
 * word that was said, and a said neighbour that the first pass also skipped is squeezed with
 * it, so that neither looks good; with the worse one made optional, the other gets its audio
 * back and is judged on it.
 */
export function yieldingWords(
  plan: ReadingPlan,
  rescued: ReadingEvidence,
  required: AlignResult,
  windows: readonly { first: number; end: number }[],
): number[] {
  if (!required.ok) return [];
  const second = readEvidence(plan, required);
  const out: number[] = [];
  for (const win of windows) {
    const still = second.words.slice(win.first, win.end).filter((w) => rescued.words[w.index].status === 'omitted' && w.status === 'read');
    if (still.length < 2) continue;
    const gop = (w: WordEvidence) => w.phones.reduce((a, p) => a + p.gop, 0) / Math.max(1, w.phones.length);
    out.push(still.reduce((worst, w) => (gop(w) < gop(worst) ? w : worst)).index);
  }
  return out;
}

function clearlyGood(w: WordEvidence): boolean {
  if (w.status !== 'read') return false;
  const gop = w.phones.reduce((a, p) => a + p.gop, 0) / Math.max(1, w.phones.length);
  return gop >= RESCUE_GOP - shortWordLeniency(w.endFrame - w.startFrame) && w.phones.every((p) => p.gop >= RESCUE_PHONE_GOP);
}

function countGood(words: readonly WordEvidence[]): number {
  return words.filter(clearlyGood).length;
}

/** Evidence of reference word `index` from its unit in an alignment of the plan's slots (undefined: skipped). */
function wordEvidence(entry: WordEntry, index: number, unit: UnitSegment | undefined): WordEvidence {
  const pron = chosenPronunciation(entry, unit?.pron ?? 0);
  if (!unit) {
    return { index, entry, status: 'omitted', pron, startFrame: -1, endFrame: -1, phones: skippedPhones(pron), pauseAfter: 0 };
  }
  const gops = unit.phones.map((p) => p.gop).filter((g): g is number => g !== undefined);
  const meanGop = gops.length ? gops.reduce((a, b) => a + b, 0) / gops.length : SKIPPED_GOP;
  let vowel = 0;
  const phones = unit.phones.map((p) => ({
    phone: p.phone,
    stress: isVowel(p.phone) ? (pron.stress[vowel++] ?? 0) : null,
    startFrame: p.startFrame,
    endFrame: p.endFrame,
    gop: p.gop ?? meanGop,
    forced: p.endFrame > p.startFrame ? p.score / (p.endFrame - p.startFrame) : NaN,
  }));
  return { index, entry, status: 'read', pron, startFrame: unit.startFrame, endFrame: unit.endFrame, phones, pauseAfter: 0 };
}

function skippedPhones(pron: Pronunciation): PhoneEvidence[] {
  let vowel = 0;
  return pron.phones.map((phone) => ({
    phone,
    stress: isVowel(phone) ? (pron.stress[vowel++] ?? 0) : null,
    startFrame: -1,
    endFrame: -1,
    gop: SKIPPED_GOP,
    forced: NaN,
  }));
}

/** Pause after a read word: the frames up to the next read word's start (silence and fillers). */
function fillPauses(words: WordEvidence[]): void {
  const read = words.filter((w) => w.status === 'read');
  for (const w of words) w.pauseAfter = 0;
  for (let k = 0; k + 1 < read.length; k++) read[k].pauseAfter = Math.max(0, read[k + 1].startFrame - read[k].endFrame);
}
