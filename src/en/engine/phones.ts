/**
 * Phone judgements: the fitted probability that experts call the phone correct, capped by its
 * GOP acceptability (dimensions.ts), as 0-100; and for phones
 * scored low, what the free phone loop heard over their span and which kind of error it is:
 * - deletion: the word was read but the phone got the aligner's minimum duration (3 frames,
 *   one per HMM state) and a low score, or the whole word was skipped;
 * - substitution: the loop's dominant phone over the span is a different phone;
 * - insertion: after a word-final consonant the loop hears a vowel of at least 40 ms that the
 *   reference does not have (the epenthetic vowel of Mandarin-L1 English, "bed-uh").
 * Pure: evidence, scores and loop segments in.
 */
import type { PhoneSegment } from '../../acoustic/types.js';
import { isVowel } from '../lexicon/index.js';
import type { WordEvidence } from './evidence.js';
import { clamp100, gopAcceptability, PHONE_GOP_THRESHOLD } from './dimensions.js';
import type { PhoneAssessment } from './types.js';

/** Phones under this 0-100 score are checked against the phone loop. */
export const LOW_PHONE_SCORE = 60;
const MIN_FRAMES = 3;
const MIN_EPENTHESIS_FRAMES = 4;

export function judgePhones(w: WordEvidence, probs: readonly number[], loop: readonly PhoneSegment[], slack = 0): PhoneAssessment[] {
  const out = w.phones.map((p, i): PhoneAssessment => {
    // The fitted probability rarely reaches 1 (experts mark some accent on most phones): 0.97 is full marks.
    const score = Math.round(Math.min(clamp100((100 * probs[i]) / 0.97), gopAcceptability(p.gop, PHONE_GOP_THRESHOLD, slack)));
    const base: PhoneAssessment = {
      expected: p.phone, heard: null, inserted: null, error: null, score, gop: p.gop,
      startFrame: p.startFrame, endFrame: p.endFrame, vowel: isVowel(p.phone),
    };
    if (w.status === 'omitted') return { ...base, error: 'deletion' };
    if (score >= LOW_PHONE_SCORE) return base;
    if (p.endFrame - p.startFrame <= MIN_FRAMES) return { ...base, error: 'deletion' };
    const heard = dominantPhone(loop, p.startFrame, p.endFrame);
    if (heard && heard !== p.phone) return { ...base, heard, error: 'substitution' };
    return base;
  });
  const last = out[out.length - 1];
  if (last && w.status === 'read' && !last.vowel && last.error === null && last.score < 80) {
    const extra = epentheticVowel(loop, last.startFrame, last.endFrame);
    if (extra) Object.assign(last, { inserted: extra, error: 'insertion' as const });
  }
  return out;
}

/** The loop phone covering most of [start, end), ignoring silence. */
export function dominantPhone(loop: readonly PhoneSegment[], start: number, end: number): string | null {
  const cover = new Map<string, number>();
  for (const s of loop) {
    if (s.endFrame <= start) continue;
    if (s.startFrame >= end) break;
    if (s.phone === 'SIL') continue;
    const o = Math.min(s.endFrame, end) - Math.max(s.startFrame, start);
    cover.set(s.phone, (cover.get(s.phone) ?? 0) + o);
  }
  let best: string | null = null;
  let most = 0;
  for (const [ph, n] of cover) if (n > most) [best, most] = [ph, n];
  return best;
}

/** A loop vowel of MIN_EPENTHESIS_FRAMES or more in the second half of a final consonant. */
function epentheticVowel(loop: readonly PhoneSegment[], start: number, end: number): string | null {
  const mid = (start + end) / 2;
  for (const s of loop) {
    if (s.endFrame <= mid) continue;
    if (s.startFrame >= end) break;
    const o = Math.min(s.endFrame, end) - Math.max(s.startFrame, mid);
    if (isVowel(s.phone) && o >= MIN_EPENTHESIS_FRAMES) return s.phone;
  }
  return null;
}
