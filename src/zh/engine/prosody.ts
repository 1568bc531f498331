/**
 * Fluency, reading skill and emotion of a Mandarin reading from the alignment's timing, the
 * pitch track and syllable energies. Pure functions of measured quantities; each score is a
 * band or logistic mapping whose ends are stated beside it.
 */
import { bandScore } from '../../assessment/shaping.js';
import type { Genre, GradeBand } from '../../evaluation/config.js';
import type { PitchContext } from '../tone/features.js';

/** Full-score speech-rate bands, characters per minute of reading time (first to last syllable). */
export const RATE_BANDS: Record<Genre, [number, number]> = {
  prose: [150, 300],
  modern_poem: [120, 260],
  classical_poem: [90, 220],
};
/** Bands 1 and 2 relax the lower bound (young readers read slower). */
export const LOWER_BOUND_FACTOR: Record<GradeBand, number> = { 1: 0.6, 2: 0.8, 3: 1, 4: 1 };
/** A silence inside a clause longer than this (frames) is a break in the phrase; poems allow more. */
export const PAUSE_TOLERANCE: Record<Genre, number> = { prose: 30, modern_poem: 45, classical_poem: 45 };
/**
 * A clause without punctuation may still be read in phrases: a pause between two lexical words
 * (not inside one), no longer than three times the tolerance, is a phrase break and no fault,
 * once per this many read syllables of the clause (about three two-syllable words a phrase).
 * More such pauses than that are reading word by word, and each counts as a break.
 */
export const PHRASE_SYLLABLES = 6;
/** A clause boundary counts as marked when the reader pauses at least this long (frames). */
export const BOUNDARY_PAUSE = 8;

export interface TimedSyllable {
  startFrame: number;
  endFrame: number;
  clause: number;
  sentence: number;
  /** Index of the lexical word it belongs to (the text's segmentation). */
  word: number;
  /** Silence after it before the next read syllable, frames. */
  gapAfter: number;
  /** Mean energy of the syllable, dB. */
  energyDb: number;
  /** Read character index of the last syllable of its sentence ending in a question mark. */
  question: boolean;
}

export interface ProsodyScores {
  speed: number;
  speedScore: number;
  naturalness: number;
  /** 100 less 12 per break inside a clause per hundred syllables (phrase breaks are none). */
  pauseFluency: number;
  fluency: number;
  pause: number;
  stress: number;
  intonation: number;
  rhythm: number | null;
  readingSkill: number;
  emotion: number;
  rearTone: 'rise' | 'fall' | 'flat';
  prominence: number[];
  /** Breaks inside clauses (pauses that are not phrase breaks), by sentence index. */
  breaksBySentence: Map<number, number>;
}

export function speedOf(syl: readonly TimedSyllable[]): number {
  if (syl.length === 0) return 0;
  const frames = syl[syl.length - 1].endFrame - syl[0].startFrame;
  return frames > 0 ? (syl.length * 6000) / frames : 0;
}

function std(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / xs.length);
}

/** Sentence-final pitch movement over the last syllable: semitones end minus start. */
export function rearTone(ctx: PitchContext | null, last: TimedSyllable | undefined): 'rise' | 'fall' | 'flat' {
  if (!ctx || !last) return 'flat';
  const st: number[] = [];
  for (let i = last.startFrame; i < Math.min(last.endFrame, ctx.f0.length); i++) {
    if (ctx.f0[i] > 0 && ctx.voicing[i] >= 0.3) st.push(12 * Math.log2(ctx.f0[i] / ctx.medianHz));
  }
  if (st.length < 4) return 'flat';
  const q = Math.max(1, Math.floor(st.length / 4));
  const head = st.slice(0, q).reduce((a, b) => a + b, 0) / q;
  const tail = st.slice(-q).reduce((a, b) => a + b, 0) / q;
  // ±1.5 semitones: about the smallest final movement listeners hear as a rise or a fall.
  return tail - head > 1.5 ? 'rise' : head - tail > 1.5 ? 'fall' : 'flat';
}

/** Phrase breaks each clause may take without fault: one per PHRASE_SYLLABLES of its read syllables. */
function phraseBreakAllowance(syl: readonly TimedSyllable[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const s of syl) counts.set(s.clause, (counts.get(s.clause) ?? 0) + 1);
  return new Map([...counts].map(([clause, n]) => [clause, Math.floor(n / PHRASE_SYLLABLES)]));
}

export function prosody(syl: readonly TimedSyllable[], ctx: PitchContext | null, genre: Genre, band: GradeBand, clauseCount: number): ProsodyScores {
  const speed = speedOf(syl);
  const [lo, hi] = RATE_BANDS[genre];
  const speedScore = syl.length ? bandScore(speed, lo * LOWER_BOUND_FACTOR[band], hi) : 0;
  const tol = PAUSE_TOLERANCE[genre];
  let breaks = 0;
  let boundaries = 0;
  let marked = 0;
  const clausePauses: number[] = [];
  const breaksBySentence = new Map<number, number>();
  const phraseBreaks = phraseBreakAllowance(syl);
  syl.forEach((s, i) => {
    if (i === syl.length - 1) return;
    if (syl[i + 1].clause === s.clause) {
      if (s.gapAfter <= tol) return;
      const betweenWords = syl[i + 1].word !== s.word;
      if (betweenWords && s.gapAfter <= 3 * tol && (phraseBreaks.get(s.clause) ?? 0) > 0) {
        phraseBreaks.set(s.clause, phraseBreaks.get(s.clause)! - 1);
        return;
      }
      breaks += s.gapAfter > 3 * tol ? 2 : 1;
      breaksBySentence.set(s.sentence, (breaksBySentence.get(s.sentence) ?? 0) + 1);
    } else {
      boundaries++;
      clausePauses.push(s.gapAfter);
      if (s.gapAfter >= BOUNDARY_PAUSE) marked++;
    }
  });
  const perHundred = syl.length ? (100 * breaks) / syl.length : 0;
  const pauseFluency = Math.max(0, 100 - 12 * perHundred);
  // Naturalness: syllable durations of a fluent reader vary with a coefficient near 0.35–0.5;
  // hesitant, syllable-by-syllable reading drives it up.
  const durs = syl.map((s) => s.endFrame - s.startFrame);
  const meanDur = durs.reduce((a, b) => a + b, 0) / Math.max(1, durs.length);
  const cv = meanDur > 0 ? std(durs) / meanDur : 0;
  const naturalness = syl.length ? bandScore(cv, 0.15, 0.6, 1.5) : 0;
  const fluency = 0.45 * speedScore + 0.35 * pauseFluency + 0.2 * naturalness;
  const pause = syl.length ? 100 * (boundaries ? 0.6 * (marked / boundaries) + 0.4 : 1) * (pauseFluency / 100) ** 0.5 : 0;
  const energies = syl.map((s) => s.energyDb);
  const eStd = std(energies);
  const stress = syl.length ? bandScore(eStd, 2, 9, 1.2) : 0;
  const rangeSt = ctx ? ctx.rangeSt : 0;
  const rear = rearTone(ctx, syl[syl.length - 1]);
  const wantRise = syl.length > 0 && syl[syl.length - 1].question;
  const rearOk = wantRise ? rear !== 'fall' : rear !== 'rise';
  const intonation = ctx ? 0.7 * bandScore(rangeSt, 5, 14, 1) + 0.3 * (rearOk ? 100 : 60) : 0;
  let rhythm: number | null = null;
  if (clauseCount >= 3 && clausePauses.length >= 2) {
    const m = clausePauses.reduce((a, b) => a + b, 0) / clausePauses.length;
    const pcv = m > 0 ? std(clausePauses) / m : 1;
    rhythm = Math.max(0, Math.min(100, 100 - 60 * Math.max(0, pcv - 0.5))) * (marked / Math.max(1, boundaries)) ** 0.3;
  }
  const parts: [number, number][] = [[pause, 0.35], [stress, 0.2], [intonation, 0.25]];
  if (rhythm !== null) parts.push([rhythm, 0.2]);
  const wsum = parts.reduce((a, [, w]) => a + w, 0);
  const readingSkill = parts.reduce((a, [v, w]) => a + v * w, 0) / wsum;
  const emotion = ctx ? 0.5 * bandScore(rangeSt, 6, 16, 1) + 0.3 * bandScore(eStd, 3, 10, 1.2) + 0.2 * speedScore : 0.3 * stress;
  const mE = energies.reduce((a, b) => a + b, 0) / Math.max(1, energies.length);
  const prominence = energies.map((e) => Math.round(Math.max(0, Math.min(100, 50 + (10 * (e - mE)) / Math.max(1, eStd)))));
  return { speed, speedScore, naturalness, pauseFluency, fluency, pause, stress, intonation, rhythm, readingSkill, emotion, rearTone: rear, prominence, breaksBySentence };
}

/** Mean energy of frames [start, end) of 16 kHz PCM, dB relative to full scale. */
export function energyDb(pcm: Int16Array, startFrame: number, endFrame: number): number {
  const a = Math.max(0, startFrame * 160);
  const b = Math.min(pcm.length, endFrame * 160);
  let sum = 0;
  for (let i = a; i < b; i++) sum += (pcm[i] / 32768) ** 2;
  return 10 * Math.log10(sum / Math.max(1, b - a) + 1e-10);
}
