/**
 * Audio quality analysis on decoded PCM (pure: typed arrays in, numbers out), producing the
 * spec's "Audio quality warnings" with their exact codes and messages:
 *   1001 "No valid audio detected!"  no speech found (or less than MIN_SPEECH_SECONDS)
 *   1002 "Audio volume too low!"     active speech level below LOW_SPEECH_DBFS
 *   1003 "Audio volume too high!"    clipping: share of samples at full scale above CLIP_RATIO
 *   1004 "Audio noisy!"              speech-to-noise ratio below NOISY_SNR_DB
 *   1005 "Audio not complete!"       speech still running at the end of the file (truncation);
 *                                    the scorer adds its own omission-ratio judgement
 * Thresholds and the measurements behind them are in docs/audio.md ("Quality thresholds").
 */
import { frameEnergiesDb, powerToDb, speechSeconds as totalSpeech, VAD_PARAMS, type SpeechSegment, detectSpeech } from './vad.js';

export interface QualityWarning {
  code: number;
  message: string;
}

export interface QualityMetrics {
  /** RMS level of the whole file, dBFS. */
  rmsDbfs: number;
  /** RMS level over speech frames (active speech level), dBFS; −120 when no speech. */
  speechDbfs: number;
  /** Largest absolute sample, dBFS. */
  peakDbfs: number;
  /** Share of samples at or above CLIP_LEVEL (|x| ≥ 32 000 of 32 768). */
  clippedRatio: number;
  /** Speech power over noise power (both from 10 ms frames), dB; null without speech. */
  snrDb: number | null;
  speechSeconds: number;
  /** Speech-level energy in the last TRAILING_MS of the file (suspected truncation). */
  trailingSpeech: boolean;
}

export const QUALITY_WARNINGS = {
  NO_SPEECH: { code: 1001, message: 'No valid audio detected!' },
  TOO_LOW: { code: 1002, message: 'Audio volume too low!' },
  TOO_HIGH: { code: 1003, message: 'Audio volume too high!' },
  NOISY: { code: 1004, message: 'Audio noisy!' },
  INCOMPLETE: { code: 1005, message: 'Audio not complete!' },
} as const;

export const QUALITY_THRESHOLDS = {
  /** Less speech than this counts as "no valid audio". */
  MIN_SPEECH_SECONDS: 0.25,
  /** Active speech level below this is "too low". */
  LOW_SPEECH_DBFS: -40,
  /** With no speech found, a file whose peak stays below this is reported as too low too. */
  SILENT_PEAK_DBFS: -40,
  /** |sample| at or above this counts as clipped (−0.2 dBFS). */
  CLIP_LEVEL: 32000,
  /** More clipped samples than this share (of all samples) is "too high". */
  CLIP_RATIO: 0.001,
  /** Speech-to-noise ratio below this is "noisy". */
  NOISY_SNR_DB: 11,
  /** Trailing window inspected for truncation. */
  TRAILING_MS: 100,
  /** Detected speech must end within this of the end of the file to consider truncation. */
  TRAILING_GAP_MS: 300,
  /** The trailing window's level must be within this of the speech level to count as cut speech, */
  TRAILING_WITHIN_DB: 8,
  /** and this far above the noise level (so loud background, e.g. babble, is not taken for it). */
  TRAILING_ABOVE_NOISE_DB: 10,
  /** Noise is estimated from non-speech frames when there are at least this many. */
  MIN_NOISE_FRAMES: 20,
  /** Otherwise from this percentile of all frame energies. */
  NOISE_PERCENTILE: 0.1,
} as const;

/** Analyses levels, clipping, SNR and truncation, and derives the spec's warnings. */
export function analyzeQuality(pcm: Int16Array, sampleRate: number, vad?: SpeechSegment[]): { warnings: QualityWarning[]; metrics: QualityMetrics } {
  const segments = vad ?? detectSpeech(pcm, sampleRate);
  const metrics = measure(pcm, sampleRate, segments);
  return { warnings: warningsFor(metrics), metrics };
}

/** Maps metrics to warnings in code order. */
export function warningsFor(m: QualityMetrics): QualityWarning[] {
  const t = QUALITY_THRESHOLDS;
  const w: QualityWarning[] = [];
  const noSpeech = m.speechSeconds < t.MIN_SPEECH_SECONDS;
  if (noSpeech) w.push(QUALITY_WARNINGS.NO_SPEECH);
  if ((!noSpeech && m.speechDbfs < t.LOW_SPEECH_DBFS) || (noSpeech && m.peakDbfs < t.SILENT_PEAK_DBFS)) w.push(QUALITY_WARNINGS.TOO_LOW);
  if (m.clippedRatio > t.CLIP_RATIO) w.push(QUALITY_WARNINGS.TOO_HIGH);
  if (!noSpeech && m.snrDb !== null && m.snrDb < t.NOISY_SNR_DB) w.push(QUALITY_WARNINGS.NOISY);
  if (!noSpeech && m.trailingSpeech) w.push(QUALITY_WARNINGS.INCOMPLETE);
  return w;
}

function measure(pcm: Int16Array, sampleRate: number, segments: SpeechSegment[]): QualityMetrics {
  let sumSq = 0, peak = 0, clipped = 0;
  for (let i = 0; i < pcm.length; i++) {
    const v = pcm[i];
    sumSq += v * v;
    const a = v < 0 ? -v : v;
    if (a > peak) peak = a;
    if (a >= QUALITY_THRESHOLDS.CLIP_LEVEL) clipped++;
  }
  const n = Math.max(1, pcm.length);
  const energies = frameEnergiesDb(pcm, sampleRate);
  const isSpeech = speechMask(energies.length, segments);
  const { speechPower, noisePower } = splitPowers(energies, isSpeech);
  const speechSec = totalSpeech(segments);
  return {
    rmsDbfs: powerToDb(sumSq / n),
    speechDbfs: speechPower === null ? -120 : powerToDb(speechPower),
    peakDbfs: powerToDb(peak * peak),
    clippedRatio: clipped / n,
    snrDb: speechPower === null ? null : snr(speechPower, noisePower),
    speechSeconds: speechSec,
    trailingSpeech: trailing(pcm, sampleRate, segments, speechPower, noisePower),
  };
}

/** Marks frames whose centre lies inside a speech segment. */
function speechMask(frames: number, segments: SpeechSegment[]): Uint8Array {
  const mask = new Uint8Array(frames);
  const centre = VAD_PARAMS.FRAME_MS / 2;
  for (const s of segments) {
    const a = Math.max(0, Math.ceil((s.startMs - centre) / VAD_PARAMS.HOP_MS));
    const b = Math.min(frames - 1, Math.floor((s.endMs - centre) / VAD_PARAMS.HOP_MS));
    for (let f = a; f <= b; f++) mask[f] = 1;
  }
  return mask;
}

/**
 * Mean power (16-bit units²) of speech frames, and the noise power taken as the median
 * energy of non-speech frames: the median ignores speech onsets and tails the detector left
 * outside its segments, which would otherwise inflate the noise estimate.
 */
function splitPowers(energiesDb: Float64Array, isSpeech: Uint8Array): { speechPower: number | null; noisePower: number } {
  const full = 32768 * 32768;
  const noiseDb: number[] = [];
  let sp = 0, ns = 0;
  for (let f = 0; f < energiesDb.length; f++) {
    if (isSpeech[f]) { sp += Math.pow(10, energiesDb[f] / 10) * full; ns++; } else noiseDb.push(energiesDb[f]);
  }
  noiseDb.sort((a, b) => a - b);
  let noise = noiseDb.length ? noiseDb[Math.floor((noiseDb.length - 1) / 2)] : -120;
  if (noiseDb.length < QUALITY_THRESHOLDS.MIN_NOISE_FRAMES) {
    // Speech fills the file: the quietest frames (closures, breaths) bound the noise from above.
    const sorted = Float64Array.from(energiesDb).sort();
    noise = sorted[Math.floor(QUALITY_THRESHOLDS.NOISE_PERCENTILE * (sorted.length - 1))] ?? -120;
  }
  return { speechPower: ns > 0 ? sp / ns : null, noisePower: Math.pow(10, noise / 10) * full };
}

/** SNR = (S − N) / N in dB, since speech frames carry the noise too; capped at 60 dB. */
function snr(speechPower: number, noisePower: number): number {
  if (noisePower <= 0) return 60;
  const clean = Math.max(speechPower - noisePower, noisePower * 1e-3);
  return Math.min(60, 10 * Math.log10(clean / noisePower));
}

/**
 * True when speech reaches (nearly) the end of the file and the final TRAILING_MS is still at
 * speech level: within TRAILING_WITHIN_DB of the speech level and TRAILING_ABOVE_NOISE_DB over
 * the noise. The level test carries the decision; the segment test only requires that the
 * detector heard speech within TRAILING_GAP_MS of the end (a final burst shorter than the
 * detector's minimum segment would otherwise be missed).
 */
function trailing(pcm: Int16Array, sampleRate: number, segments: SpeechSegment[], speechPower: number | null, noisePower: number): boolean {
  const last = segments[segments.length - 1];
  const totalMs = (pcm.length / sampleRate) * 1000;
  const t = QUALITY_THRESHOLDS;
  if (!last || speechPower === null || last.endMs < totalMs - t.TRAILING_GAP_MS) return false;
  const tail = Math.max(1, Math.round((t.TRAILING_MS * sampleRate) / 1000));
  let sumSq = 0;
  for (let i = Math.max(0, pcm.length - tail); i < pcm.length; i++) sumSq += pcm[i] * pcm[i];
  const tailDb = powerToDb(sumSq / Math.min(tail, pcm.length));
  return tailDb > powerToDb(speechPower) - t.TRAILING_WITHIN_DB && tailDb > powerToDb(noisePower) + t.TRAILING_ABOVE_NOISE_DB;
}
