/**
 * Puts Mandarin tones onto eSpeak's `cmn-latn-pinyin` output. Its own tones are faint (about
 * ±2 st, and tone 3 is not low; measured in test/synthesis/tones.test.ts), so, as on the Ekho
 * voice, TD-PSOLA replaces the F0 of each syllable with the stylised Chao contour of its
 * surface tone (zh/tone-contour.ts). Syllable timing comes from eSpeak's word events (each
 * pinyin syllable is one "word"); voiced spans from the project's pitch tracker.
 * Pure: typed arrays in, typed array out.
 */
import { trackPitch } from '../../dsp/pitch.js';
import { psola } from '../dsp/psola.js';
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
 * Returns the signal with tones imposed, or null when the word timings do not line up with
 * the syllables (then the caller keeps eSpeak's own intonation).
 */
export function imposeTones(
  x: Float32Array,
  sampleRate: number,
  words: WordSpan[],
  targets: ToneTarget[],
  medianF0: number,
  range: number,
): Float32Array | null {
  if (words.length !== targets.length || words.length === 0) return null;
  const { f0, hopMs } = trackPitch(x, sampleRate);
  const hop = hopMs / 1000;
  // Voiced span of each syllable inside its word span, so the contour runs over the final.
  const spans = words.map((w) => {
    let a = -1;
    let b = -1;
    for (let i = Math.floor(w.start / hop); i < Math.min(f0.length, Math.ceil(w.end / hop)); i++) {
      if (f0[i] > 0) {
        if (a < 0) a = i;
        b = i;
      }
    }
    return a < 0 ? { from: w.start, to: w.end } : { from: a * hop, to: (b + 1) * hop };
  });
  let k = 0;
  return psola(x, {
    sampleRate,
    f0,
    hopSec: hop,
    pitch: (t, f) => {
      while (k < words.length - 1 && t >= words[k + 1].start) k++;
      while (k > 0 && t < words[k].start) k--;
      const s = spans[k];
      const g = targets[k];
      const u = Math.min(1, Math.max(0, (t - s.from) / Math.max(0.01, s.to - s.from)));
      const declination = 1.04 - 0.08 * g.phrasePos;
      return f > 0 ? toneF0(medianF0 * declination, chaoLevel(g.tone, u, g.phraseFinal, g.prevTone), range) : f;
    },
  });
}
