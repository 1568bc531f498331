/**
 * Tone evidence of a whole reading: the pitch track once per utterance, the speaker's register
 * from it, and one feature vector per aligned syllable (null where there is no voiced final).
 * Shared by the engine and the training tool so both see exactly the same features.
 */
import { speakerPitchStats, trackPitch } from '../../dsp/pitch.js';
import type { AlignedSyllable } from '../engine/align.js';
import { normalisedTrack, RANGE_FLOOR_ST, TONE_CONTEXT, toneFeatures, type PitchContext, type SyllableSpan } from './features.js';

export interface ToneEvidence {
  ctx: PitchContext | null;
  /** Per read character (same indexing as the alignment). */
  features: (Float32Array | null)[];
}

export function pitchContext(pcm: Int16Array, sampleRate: number): PitchContext | null {
  const { f0, voicing, levelDb } = trackPitch(pcm, sampleRate);
  const stats = speakerPitchStats(f0, voicing, 0.3);
  if (stats.voicedFrames < 10) return null;
  return { f0, voicing, levelDb, medianHz: stats.medianHz, rangeSt: Math.max(RANGE_FLOOR_ST, stats.rangeSemitones) };
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
