/**
 * What the parts of a syllable sound like, for telling its initial (b, p, zh, x, none, ...) and
 * its final (an, ang, iu, ...): the log mel spectrum over the whole band (src/dsp/mel-segments.ts).
 * The acoustic model hears only up to 4 kHz (it was trained on 8 kHz speech), and much of what
 * separates fricatives and affricates lies above (docs/mandarin-engine.md, "Initials and finals
 * heard from the whole band").
 *
 * A part is a segment of the spectrum: the initial is the syllable's first phone (for a syllable
 * of one phone, its first ONSET_FRAMES frames), the final its last phone.
 */
import { segmentFeatures } from '../../dsp/mel-segments.js';

/** Onset of a syllable aligned as one phone (a final alone). */
const ONSET_FRAMES = 4;

/** The parts of a syllable the classifiers judge. */
export type SyllablePart = 'initial' | 'final';

/** A part's frames: see the file comment. */
export function partSpan(phones: readonly { startFrame: number; endFrame: number }[], part: SyllablePart): { startFrame: number; endFrame: number } {
  if (part === 'final') return phones[phones.length - 1];
  const first = phones[0];
  return { startFrame: first.startFrame, endFrame: phones.length >= 2 ? first.endFrame : Math.min(first.endFrame, first.startFrame + ONSET_FRAMES) };
}

/** A part's features (mel-segments.ts `segmentFeatures`); null when the recording has no frames. */
export function partFeatures(spectra: readonly Float32Array[], phones: readonly { startFrame: number; endFrame: number }[], part: SyllablePart): number[] | null {
  if (phones.length === 0) return null;
  const { startFrame, endFrame } = partSpan(phones, part);
  return segmentFeatures(spectra, startFrame, endFrame);
}

/**
 * The initial's features over the syllable's whole onset, from its first phone's start to its
 * final's (a silence the phone pass put between the two included); null for a syllable of one
 * phone or a recording without frames.
 */
export function onsetFeatures(spectra: readonly Float32Array[], phones: readonly { startFrame: number; endFrame: number }[]): number[] | null {
  if (phones.length < 2) return null;
  return segmentFeatures(spectra, phones[0].startFrame, phones[phones.length - 1].startFrame);
}
