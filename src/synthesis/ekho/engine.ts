/**
 * Concatenative Mandarin synthesis from the recorded Ekho syllables.
 *
 * Per syllable (after sandhi, see zh/syllables.ts): choose the clip of the surface tone, or the
 * nearest available one (order below); TD-PSOLA (dsp/psola.ts) then sets its duration to the
 * syllable's slot and its F0 to the stylised contour of its tone (zh/tone-contour.ts) at the
 * voice's level and range. Joins are overlap-added with 15 ms raised-cosine fades.
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
import { chaoLevel, toneF0 } from '../zh/tone-contour.js';
import { EKHO_RATE, type Clip, type EkhoStore } from './store.js';

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

/** Recorded clips of a syllable, best first: its own tone, then the nearest tones. */
export function clipCandidates(store: Pick<EkhoStore, 'has'>, s: Syllable): string[] {
  return (TONE_FALLBACK[s.tone] ?? [s.tone]).map((t) => `${s.base}${t}`).filter((k) => store.has(k));
}

/** The clip key to use for a syllable, or null when no tone of that syllable was recorded. */
export function chooseClip(store: Pick<EkhoStore, 'has'>, s: Syllable): string | null {
  return clipCandidates(store, s)[0] ?? null;
}

/**
 * F0 is imposed by TD-PSOLA, which needs pitch marks: when the pitch tracker finds no voiced
 * frame in the preferred clip (14 of 1,639 clips), another tone of the same syllable is used.
 */
async function pickVoicedClips(store: EkhoStore, syllables: Syllable[], keys: Map<Syllable, string>): Promise<Map<string, Clip>> {
  const clips = await store.clips([...keys.values()]);
  const retry = syllables.filter((s) => keys.has(s) && clips.get(keys.get(s)!)!.medianF0 === 0);
  if (retry.length === 0) return clips;
  const alternates = await store.clips(retry.flatMap((s) => clipCandidates(store, s)));
  for (const s of retry) {
    const voiced = clipCandidates(store, s).find((k) => alternates.get(k)!.medianF0 > 0);
    if (voiced) keys.set(s, voiced);
  }
  for (const [k, c] of alternates) clips.set(k, c);
  return clips;
}


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
  const clips = await pickVoicedClips(store, [...keys.keys()], keys);
  const pieces: Piece[] = [];
  const slot = 1 / prosody.syllablesPerSec;
  const fadeSec = 0.015;
  const phrases = splitPhrases(tokens);
  for (const { syllables, pause } of phrases) {
    let prevTone = 5;
    syllables.forEach((s, i) => {
      const key = keys.get(s);
      const clip = key ? clips.get(key) : undefined;
      const dur = slot * (s.tone === 5 ? 0.6 : 1) * (i === syllables.length - 1 ? 1.3 : 1);
      if (!clip) {
        pieces.push({ pauseSec: dur });
        return;
      }
      const pos = syllables.length > 1 ? i / (syllables.length - 1) : 0.5;
      const declination = 1.04 - 0.08 * pos;
      const final = i === syllables.length - 1;
      const contour = (u: number) => chaoLevel(s.tone, u, final, prevTone);
      pieces.push({ samples: shapeSyllable(clip, dur + fadeSec, prosody, declination, contour) });
      prevTone = s.tone;
    });
    if (pause) pieces.push({ pauseSec: (pause === 'major' ? 0.45 : 0.22) / prosody.rateFactor });
  }
  return { samples: joinPieces(pieces, EKHO_RATE, fadeSec), sampleRate: EKHO_RATE, warnings };
}

/**
 * The recorded clips carry their tones only faintly (short, fast syllables), so F0 follows the
 * stylised contour over the clip's voiced span, around the voice's median (CENTRE_LEVEL), with the
 * voice's range; 25% of the clip's own deviation from its median is kept as micro-prosody.
 */
function shapeSyllable(clip: Clip, durSec: number, p: EkhoProsody, declination: number, contour: (u: number) => number): Float32Array {
  const clipSec = clip.samples.length / EKHO_RATE;
  const stretch = Math.min(4, Math.max(0.3, durSec / Math.max(0.02, clipSec)));
  const level = p.medianF0 * declination;
  const [from, to] = voicedSpan(clip);
  return psola(clip.samples, {
    sampleRate: EKHO_RATE,
    f0: clip.f0,
    hopSec: clip.hopSec,
    timeScale: () => stretch,
    pitch: (t, f) => {
      const u = Math.min(1, Math.max(0, (t - from) / Math.max(0.01, to - from)));
      const micro = clip.medianF0 > 0 ? Math.pow(f / clip.medianF0, 0.25) : 1;
      return toneF0(level, contour(u), p.rangeScale) * micro;
    },
  });
}

/** First and last voiced instants of a clip, seconds. */
function voicedSpan(clip: Clip): [number, number] {
  let a = -1;
  let b = -1;
  clip.f0.forEach((f, i) => {
    if (f > 0) {
      if (a < 0) a = i;
      b = i;
    }
  });
  return a < 0 ? [0, clip.samples.length / EKHO_RATE] : [a * clip.hopSec, (b + 1) * clip.hopSec];
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
