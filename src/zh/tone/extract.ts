/**
 * Tone evidence of a whole reading: the pitch track once per utterance, the speaker's register
 * from it, and one feature vector per aligned syllable (null where there is no voiced final).
 * Shared by the engine and the training tool so both see exactly the same features.
 */
import { speakerPitchStats, type PitchAnalysis } from '../../dsp/pitch.js';
import type { VoiceOptions } from '../../acoustic/types.js';
import type { AlignedSyllable } from '../engine/align.js';
import { normalisedTrack, RANGE_FLOOR_ST, TONE_CONTEXT, toneFeatures, type PitchContext, type SyllableSpan } from './features.js';

export interface ToneEvidence {
  ctx: PitchContext | null;
  /** Per read character (same indexing as the alignment). */
  features: (Float32Array | null)[];
}

/** Frames tracked beyond the first and last aligned syllable (0.1 s), for boundary errors of the alignment. */
const SPAN_MARGIN = 10;

/** Level given to frames outside the tracked span, dB (the tracker's silence floor, −80 dBFS). */
const UNTRACKED_DB = -80;

/**
 * The frames worth tracking: from the first aligned syllable to the last, widened by
 * SPAN_MARGIN. Leading and trailing silence (about a third of a read sentence) holds no tone
 * and no intonation, and tracking costs the same per frame of silence as of speech.
 */
export function readingSpan(syllables: readonly (AlignedSyllable | null)[]): { startFrame: number; endFrame: number } | undefined {
  const present = syllables.filter((s): s is AlignedSyllable => s !== null);
  if (present.length === 0) return undefined;
  return { startFrame: Math.max(0, present[0].startFrame - SPAN_MARGIN), endFrame: present[present.length - 1].endFrame + SPAN_MARGIN };
}

/**
 * Pitch and level of an utterance (of `span` only when given: frames outside it are unvoiced
 * and at the silence floor, so the arrays keep the utterance's frame indexing). `pitch` is the
 * recording's analysis (dsp/pitch.ts `PitchAnalysis`): the spans and the whole of one
 * recording are tracked from one analysis.
 */
export function pitchContext(pitch: PitchAnalysis, span?: { startFrame: number; endFrame: number }): PitchContext | null {
  const frames = pitch.frameCount;
  const from = span ? Math.min(frames, span.startFrame) : 0;
  const to = span ? Math.min(frames, Math.max(from, span.endFrame)) : frames;
  const part = pitch.track({ from, to });
  const place = (x: Float32Array, fill: number) => {
    if (from === 0 && x.length === frames) return x;
    const out = new Float32Array(frames).fill(fill);
    out.set(x.subarray(0, frames - from), from);
    return out;
  };
  return contextOf(place(part.f0, 0), place(part.voicing, 0), place(part.levelDb, UNTRACKED_DB));
}

/** The reader's register (median and range) from tracks in a reading's frames; null under 10 voiced frames. */
function contextOf(f0: Float32Array, voicing: Float32Array, levelDb: Float32Array): PitchContext | null {
  const stats = speakerPitchStats(f0, voicing, 0.3);
  if (stats.voicedFrames < 10) return null;
  return { f0, voicing, levelDb, medianHz: stats.medianHz, rangeSt: Math.max(RANGE_FLOOR_ST, stats.rangeSemitones) };
}

/**
 * The pitch context of tracks already computed over more frames than a reading's (a word cut
 * from a sentence, for training on short readings): unvoiced and at the silence floor outside
 * `span`, as `pitchContext` tracks a reading.
 */
export function spanContext(f0: ArrayLike<number>, voicing: ArrayLike<number>, levelDb: ArrayLike<number>, span: { startFrame: number; endFrame: number }): PitchContext | null {
  const inside = (i: number) => i >= span.startFrame && i < span.endFrame;
  return contextOf(
    Float32Array.from(f0, (v, i) => (inside(i) ? v : 0)),
    Float32Array.from(voicing, (v, i) => (inside(i) ? v : 0)),
    Float32Array.from(levelDb, (v, i) => (inside(i) ? v : UNTRACKED_DB)),
  );
}

/**
 * The reader's voice for the acoustic passes (acoustic/types.ts `withVoice`): the median pitch
 * of the whole recording, known before anything is aligned.
 */
export function readerVoice(pitch: PitchAnalysis): VoiceOptions {
  return { speakerF0: pitchContext(pitch)?.medianHz };
}

/** The pitch context of a reading's span, tracked once per span (the span moves when characters do). */
export type PitchOfSpan = (syllables: readonly (AlignedSyllable | null)[]) => PitchContext | null;

export function pitchOfSpan(pitch: PitchAnalysis): PitchOfSpan {
  let last: { key: string; ctx: PitchContext | null } | null = null;
  return (syllables) => {
    const span = readingSpan(syllables);
    const key = span ? `${span.startFrame}:${span.endFrame}` : '';
    if (last?.key !== key) last = { key, ctx: pitchContext(pitch, span) };
    return last.ctx;
  };
}

/** `expectedTones[k]`: the expected (sandhi) tone of read character k, for the neighbours' context. */
export function toneEvidence(ctx: PitchContext | null, syllables: readonly (AlignedSyllable | null)[], expectedTones?: readonly number[]): ToneEvidence {
  const present = syllables.flatMap((s, k) => (s ? [k] : []));
  const spans: SyllableSpan[] = present.map((k) => {
    const s = syllables[k]!;
    return { startFrame: s.finalStart, endFrame: s.finalEnd, syllableStart: s.startFrame, syllableEnd: s.endFrame };
  });
  const features: (Float32Array | null)[] = syllables.map(() => null);
  if (!ctx) return { ctx, features };
  const track = normalisedTrack(ctx);
  present.forEach((k, j) => {
    const neighbours = expectedTones && TONE_CONTEXT.map((d) => expectedTones[k + d] ?? 0);
    features[k] = toneFeatures(track, spans, j, neighbours);
  });
  return { ctx, features };
}
