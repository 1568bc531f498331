/**
 * Concatenative Mandarin synthesis from the recorded Ekho syllables.
 *
 * Per syllable (after sandhi, see zh/syllables.ts): choose the clip of the surface tone, or the
 * nearest available one (order below); TD-PSOLA (dsp/psola.ts) then sets its duration to the
 * syllable's slot and its F0 to the voice's level and range while keeping the clip's own
 * contour, which carries the tone. Joins are overlap-added with 15 ms raised-cosine fades.
 *
 * Prosody, per phrase (text between punctuation):
 * - slot duration = 1 / rate; neutral-tone syllables take 0.6 of a slot; the last syllable of a
 *   phrase is lengthened by 1.3 (phrase-final lengthening; Klatt 1976, JASA 59(5));
 * - declination: F0 falls linearly by about 8% across the phrase (Pierrehumbert 1980);
 * - pauses: 0.22 s at commas, 0.45 s at sentence ends, divided by the rate factor.
 * Pure apart from the clip store: syllables in, Float32Array at 16 kHz out.
 */
import { psola } from '../dsp/psola.js';
import { joinPieces, type Piece } from '../dsp/join.js';
import type { Syllable, ZhToken } from '../zh/syllables.js';
import { EKHO_RATE, type Clip, type EkhoStore } from './store.js';

/** Median F0 of the Ekho speaker over her clips, Hz (measured; see docs/synthesis.md). */
export const EKHO_SPEAKER_F0 = 185;

export interface EkhoProsody {
  /** Syllables per second of speech at this request's speed and genre. */
  syllablesPerSec: number;
  /** Scale of the rate relative to standard (pauses shrink with it). */
  rateFactor: number;
  /** Target median F0 of the output, Hz. */
  medianF0: number;
  /** Multiplier of F0 excursions in the log domain (1 = the speaker's own range). */
  rangeScale: number;
}

/** Fallback order when the surface tone of a syllable was not recorded. */
const TONE_FALLBACK: Record<number, number[]> = {
  1: [1, 4, 2, 3, 5],
  2: [2, 3, 1, 4, 5],
  3: [3, 2, 4, 1, 5],
  4: [4, 1, 2, 3, 5],
  5: [5, 1, 4, 2, 3],
};

/** The clip key to use for a syllable, or null when no tone of that syllable was recorded. */
export function chooseClip(store: Pick<EkhoStore, 'has'>, s: Syllable): string | null {
  for (const t of TONE_FALLBACK[s.tone] ?? [s.tone]) if (store.has(`${s.base}${t}`)) return `${s.base}${t}`;
  return null;
}

/** Neutral tone without a neutral recording: a flat pitch set by the preceding tone (Chao 1968). */
const NEUTRAL_LEVEL: Record<number, number> = { 1: 0.85, 2: 0.92, 3: 1.08, 4: 0.75, 5: 0.85 };

export interface EkhoOutput {
  samples: Float32Array;
  sampleRate: number;
  warnings: string[];
}

export async function synthesizeEkho(store: EkhoStore, tokens: ZhToken[], prosody: EkhoProsody): Promise<EkhoOutput> {
  const warnings: string[] = [];
  const keys = new Map<Syllable, string>();
  for (const t of tokens) {
    if (t.kind !== 'syllable') continue;
    const key = chooseClip(store, t);
    if (key) keys.set(t, key);
    else warnings.push(`no recording for syllable ${t.base}${t.tone} (${t.char}); left silent`);
  }
  const clips = await store.clips([...keys.values()]);
  const pieces: Piece[] = [];
  const slot = 1 / prosody.syllablesPerSec;
  const fadeSec = 0.015;
  const phrases = splitPhrases(tokens);
  for (const { syllables, pause } of phrases) {
    let prevTone = 5;
    syllables.forEach((s, i) => {
      const key = keys.get(s);
      const clip = key ? clips.get(key) : undefined;
      let dur = slot * (s.tone === 5 ? 0.6 : 1) * (i === syllables.length - 1 ? 1.3 : 1);
      if (!clip) {
        pieces.push({ pauseSec: dur });
        return;
      }
      const pos = syllables.length > 1 ? i / (syllables.length - 1) : 0.5;
      const declination = 1.04 - 0.08 * pos;
      const flat = s.tone === 5 && !key!.endsWith('5') ? NEUTRAL_LEVEL[prevTone] : null;
      pieces.push({ samples: shapeSyllable(clip, dur + fadeSec, prosody, declination, flat) });
      prevTone = s.tone;
    });
    if (pause) pieces.push({ pauseSec: (pause === 'major' ? 0.45 : 0.22) / prosody.rateFactor });
  }
  return { samples: joinPieces(pieces, EKHO_RATE, fadeSec), sampleRate: EKHO_RATE, warnings };
}

function shapeSyllable(clip: Clip, durSec: number, p: EkhoProsody, declination: number, flat: number | null): Float32Array {
  const clipSec = clip.samples.length / EKHO_RATE;
  const stretch = Math.min(4, Math.max(0.3, durSec / Math.max(0.02, clipSec)));
  const level = p.medianF0 * declination;
  return psola(clip.samples, {
    sampleRate: EKHO_RATE,
    f0: clip.f0,
    hopSec: clip.hopSec,
    timeScale: () => stretch,
    // Keep the tone's shape: scale the excursion from the speaker's median in log-F0.
    pitch: (_t, f) => (flat !== null ? level * flat : level * Math.pow(f / EKHO_SPEAKER_F0, p.rangeScale)),
  });
}

interface Phrase {
  syllables: Syllable[];
  pause: 'minor' | 'major' | null;
}

function splitPhrases(tokens: ZhToken[]): Phrase[] {
  const out: Phrase[] = [];
  let cur: Syllable[] = [];
  for (const t of tokens) {
    if (t.kind === 'syllable') cur.push(t);
    else {
      if (cur.length) out.push({ syllables: cur, pause: t.strength });
      else if (out.length && t.strength === 'major') out[out.length - 1].pause = 'major';
      cur = [];
    }
  }
  if (cur.length) out.push({ syllables: cur, pause: null });
  return out;
}
