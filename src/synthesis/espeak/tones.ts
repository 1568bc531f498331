/**
 * Puts Mandarin tones onto eSpeak's `cmn-latn-pinyin` output. Its own tones are faint (about
 * ±2 st, and tone 3 is not low; measured in test/synthesis/tones.test.ts), so, as on the Ekho
 * voice, TD-PSOLA replaces the F0 of each syllable with the stylised Chao contour of its
 * surface tone (zh/tone-contour.ts). Syllable timing comes from eSpeak's word events (each
 * pinyin syllable is one "word"); voiced spans from the project's pitch tracker.
 * Pure: numbers in, a pitch map out (espeak/render.ts runs the PSOLA pass).
 */
import { chaoLevel, toneF0 } from '../zh/tone-contour.js';
import type { ZhToken } from '../zh/syllables.js';
import type { WordSpan } from './engine.js';

export interface ToneTarget {
  tone: number;
  phraseFinal: boolean;
  prevTone: number;
  /** Position of the syllable in its phrase, 0..1 (for declination). */
  phrasePos: number;
}

/** Per-syllable tone targets in reading order. */
export function toneTargets(tokens: ZhToken[]): ToneTarget[] {
  const out: ToneTarget[] = [];
  let phrase: ToneTarget[] = [];
  let prevTone = 5;
  const close = () => {
    phrase.forEach((t, i) => {
      t.phrasePos = phrase.length > 1 ? i / (phrase.length - 1) : 0.5;
      t.phraseFinal = i === phrase.length - 1;
    });
    out.push(...phrase);
    phrase = [];
    prevTone = 5;
  };
  for (const t of tokens) {
    if (t.kind === 'pause') close();
    else {
      phrase.push({ tone: t.tone, phraseFinal: false, prevTone, phrasePos: 0 });
      prevTone = t.tone;
    }
  }
  close();
  return out;
}

/**
 * The PSOLA pitch map that puts each syllable's Chao contour (around `medianF0`, scaled by
 * `range`) on its voiced span; `words` are eSpeak's word spans, one per target, in seconds of
 * the unmodified signal, and `f0` that signal's track (frames of `hopSec`).
 */
export function tonePitch(
  f0: Float32Array,
  hopSec: number,
  words: WordSpan[],
  targets: ToneTarget[],
  medianF0: number,
  range: number,
): (t: number, f: number) => number {
  // Voiced span of each syllable inside its word span, so the contour runs over the final.
  const spans = words.map((w) => {
    let a = -1;
    let b = -1;
    for (let i = Math.floor(w.start / hopSec); i < Math.min(f0.length, Math.ceil(w.end / hopSec)); i++) {
      if (f0[i] > 0) {
        if (a < 0) a = i;
        b = i;
      }
    }
    return a < 0 ? { from: w.start, to: w.end } : { from: a * hopSec, to: (b + 1) * hopSec };
  });
  let k = 0;
  return (t, f) => {
    while (k < words.length - 1 && t >= words[k + 1].start) k++;
    while (k > 0 && t < words[k].start) k--;
    const s = spans[k];
    const g = targets[k];
    const u = Math.min(1, Math.max(0, (t - s.from) / Math.max(0.01, s.to - s.from)));
    const declination = 1.04 - 0.08 * g.phrasePos;
    return f > 0 ? toneF0(medianF0 * declination, chaoLevel(g.tone, u, g.phraseFinal, g.prevTone), range) : f;
  };
}
