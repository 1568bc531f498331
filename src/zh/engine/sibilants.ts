/**
 * Tongue position of sibilant initials (flat z c s against retroflex zh ch sh), the confusion
 * learners of Mandarin often make, from the spectrum above 4 kHz. The acoustic model was trained on
 * 8 kHz speech, so it cannot hear the difference: an alveolar s concentrates its noise at 6–8
 * kHz, a retroflex sh at 2–4 kHz (Ladefoged & Maddieson, The Sounds of the World's Languages,
 * ch. 5). The tilt of an initial is the level of its 6–8 kHz band minus that of its 2–4 kHz
 * band, over its aligned frames.
 *
 * The tilt also depends on the voice and the microphone, so it is read against the recording's
 * own tilt as well (all its frames, mostly vowels), and a character is judged to have the other
 * place only when both lie well beyond what sibilants said right show (SIBILANT_TILT): an s
 * under 5 dB and under 0 dB against the recording, a zh, ch or sh over 16 and 13 dB.
 * tools/sibilant-tilts.ts prints that evidence: the native speaker of aishell-s0150 (its s at
 * 11 dB or more, its sh, zh and ch at 12 dB or less), and the English S, SH, CH and JH the
 * experts scored correct in speechocean762, many voices and microphones, where a fifth of the
 * S lie under 5 dB but very few also under the recording's tilt. The affricates z and c are not
 * judged: their closure shares the initial's frames, and native z runs down to −2 dB. Only
 * wideband speech is judged (audio/bandwidth.ts).
 */
import { powerSpectrum } from '../../dsp/spectrum.js';
import { SAMPLES_PER_FRAME } from '../../acoustic/types.js';
import type { AlignedSyllable } from './align.js';
import { nearest } from './context.js';
import type { SyllableTable } from './syllables.js';

/** dB of tilt beyond which an initial counts as said at the other place; slack widens both by SLACK_DB. */
export const SIBILANT_TILT = {
  /** An expected s under this was said retroflex ... */
  flatBelow: 5,
  /** ... when it is also under this against the recording's own tilt. */
  flatBelowRecording: 0,
  /** An expected zh, ch or sh over this was said flat ... */
  retroflexAbove: 16,
  /** ... when it is also over this against the recording's own tilt. */
  retroflexAboveRecording: 13,
};
const SLACK_DB = 3;

/** Flat and retroflex sibilant initials, each with its partner at the other place. */
export const PLACE_PARTNER: Readonly<Record<string, string>> = { z: 'zh', zh: 'z', c: 'ch', ch: 'c', s: 'sh', sh: 's' };
/** The expected initials the check judges (z and c are not: see the file comment). */
export const JUDGED_INITIALS: ReadonlySet<string> = new Set(['s', 'sh', 'zh', 'ch']);

/** Frames before an initial that may still hold its noise (see noiseStart). */
const LEAD_FRAMES = 30;

const FFT_SIZE = 512;
const SAMPLE_RATE = 16000;
const bin = (hz: number) => Math.round((hz * FFT_SIZE) / SAMPLE_RATE);
const WINDOW = Float64Array.from({ length: FFT_SIZE }, (_, t) => 0.5 - 0.5 * Math.cos((2 * Math.PI * t) / (FFT_SIZE - 1)));
const spectrumOf = powerSpectrum(FFT_SIZE);

/**
 * Level of the 6–8 kHz band minus the 2–4 kHz band (dB) of the power spectrum summed over
 * frames [startFrame, endFrame) of 16 kHz audio (Hann window of 512 samples from each frame's
 * start); null when the frames hold no audio.
 */
export function sibilantTilt(pcm: Int16Array, startFrame: number, endFrame: number): number | null {
  const power = new Float64Array(FFT_SIZE / 2);
  const frame = new Float64Array(FFT_SIZE);
  const framePower = new Float64Array(FFT_SIZE / 2);
  let frames = 0;
  for (let f = startFrame; f < endFrame; f++) {
    const off = f * SAMPLES_PER_FRAME;
    if (off < 0 || off + FFT_SIZE > pcm.length) continue;
    for (let t = 0; t < FFT_SIZE; t++) frame[t] = pcm[off + t] * WINDOW[t];
    spectrumOf(frame, framePower);
    for (let k = 0; k < FFT_SIZE / 2; k++) power[k] += framePower[k];
    frames++;
  }
  if (frames === 0) return null;
  const band = (lo: number, hi: number) => {
    let sum = 0;
    for (let k = bin(lo); k < Math.min(FFT_SIZE / 2, bin(hi)); k++) sum += power[k];
    return 10 * Math.log10(sum + 1);
  };
  return band(6000, 8000) - band(2000, 4000);
}

/**
 * First frame of character k's initial noise: the aligned initial's start, or earlier back to
 * the end of the previous aligned character (at most LEAD_FRAMES). Forced to the wrong place,
 * the model (deaf above 4 kHz) hears an s's noise as silence and aligns the retroflex initial
 * after it; the frames between hold little power otherwise, and the tilt sums power.
 */
function noiseStart(syllables: readonly (AlignedSyllable | null)[], k: number): number {
  const start = syllables[k]!.phones[0].startFrame;
  const prev = nearest(syllables, k, -1);
  const prevEnd = prev >= 0 ? syllables[prev]!.endFrame : 0;
  return Math.min(start, Math.max(prevEnd, start - LEAD_FRAMES));
}

/** The tilt of the whole recording (all its frames: mostly vowels), which carries the channel and the voice. */
export function recordingTilt(pcm: Int16Array): number | null {
  return sibilantTilt(pcm, 0, Math.floor(pcm.length / SAMPLES_PER_FRAME));
}

/**
 * Whether an initial expected as `initial` (one of JUDGED_INITIALS) with this tilt was said at
 * the other place: beyond SIBILANT_TILT alone and against the recording's tilt (asked for only
 * when the first holds, since it costs a pass over the whole recording).
 */
export function saidAtOtherPlace(initial: string, tilt: number, recording: () => number | null, slack = 0): boolean {
  const shift = SLACK_DB * slack;
  const flat = initial === 's';
  if (flat ? tilt >= SIBILANT_TILT.flatBelow - shift : tilt <= SIBILANT_TILT.retroflexAbove + shift) return false;
  const r = recording();
  if (r === null) return false;
  const rel = tilt - r;
  return flat ? rel < SIBILANT_TILT.flatBelowRecording - shift : rel > SIBILANT_TILT.retroflexAboveRecording + shift;
}

/**
 * Characters whose sibilant initial was said at the other place, with the syllable heard
 * (the other initial and the same final, when the model has that syllable). `labels[k]` is the
 * expected toneless syllable of character k, `syllables[k]` its alignment (null: not aligned).
 */
export function otherPlaceSibilants(
  pcm: Int16Array,
  table: SyllableTable,
  syllables: readonly (AlignedSyllable | null)[],
  labels: readonly string[],
  slack = 0,
): Map<number, string> {
  const out = new Map<number, string>();
  let recording: number | null | undefined;
  const ofRecording = () => (recording === undefined ? (recording = recordingTilt(pcm)) : recording);
  syllables.forEach((s, k) => {
    const initial = table.initialOf(labels[k]);
    if (!s || !JUDGED_INITIALS.has(initial) || s.phones.length < 2) return;
    const tilt = sibilantTilt(pcm, noiseStart(syllables, k), s.phones[0].endFrame);
    if (tilt === null || !saidAtOtherPlace(initial, tilt, ofRecording, slack)) return;
    const heard = PLACE_PARTNER[initial] + labels[k].slice(initial.length);
    out.set(k, table.prons.has(heard) ? heard : labels[k]);
  });
  return out;
}
