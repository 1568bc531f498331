/**
 * Fundamental-frequency tracker for tone and intonation work.
 *
 * Method: probabilistic YIN.
 *  - YIN (de Cheveigné & Kawahara 2002, JASA 111(4)): difference function d(τ) (step 2),
 *    cumulative-mean-normalised difference d'(τ) (step 3), parabolic interpolation of the
 *    chosen dip (step 5).
 *  - pYIN (Mauch & Dixon 2014, ICASSP): instead of one absolute threshold, thresholds are
 *    drawn from a Beta(2, 18) prior; each dip of d' receives the prior mass of the thresholds
 *    for which it would be YIN's answer, which gives several F0 candidates per frame with
 *    probabilities and a voicing probability (their sum). A Viterbi pass over the candidates
 *    plus an unvoiced state then picks a smooth path. We run Viterbi over the few candidates of
 *    each frame rather than over pYIN's 480 pitch bins: the same idea at a fraction of the cost.
 *  - Octave-error repair: after Viterbi, a frame whose F0 sits an octave away from the local
 *    median of its neighbours is moved to its candidate near the median, when it has one.
 *
 * Speed: the signal is low-passed and decimated to about 8 kHz first (F0 ≤ 500 Hz still has
 * ≥ 16 samples per period, and parabolic interpolation recovers sub-sample lags), and the
 * difference function is computed as e(t) + e(t+τ) − 2·r(τ) with energies from a running sum
 * of squares, so the only quadratic loop is the cross-correlation r(τ).
 *
 * Frames: frame i describes the interval [i·hop, (i+1)·hop) — its analysis window is centred
 * at (i + 0.5)·hop — so frame indices line up with the 10 ms frames of the aligner.
 */
import { decimate } from './resample.js';
import { cmndf, frameCandidates, FrameCorrelations, type Candidates } from './yin.js';
import { viterbiPath } from './pitch-viterbi.js';

export { toSemitones, speakerPitchStats, resampleContour, type SpeakerPitchStats } from './contour.js';

export interface PitchOptions {
  /** Lowest F0 searched, Hz (default 60: low male voices). */
  minHz?: number;
  /** Highest F0 searched, Hz (default 500: children, high female voices). */
  maxHz?: number;
  /** Frame step in milliseconds (default 10). */
  hopMs?: number;
  /**
   * Share cross-correlation products between overlapping frames where the hop allows it
   * (default true; yin.ts FrameCorrelations). false computes every frame on its own: slower,
   * the same track, kept so that the two can be compared.
   */
  shareFrames?: boolean;
}

export interface PitchTrack {
  /** F0 in Hz per frame, 0 where the frame is judged unvoiced. */
  f0: Float32Array;
  /** Voicing probability per frame, 0..1 (pYIN: prior mass of thresholds that find a dip). */
  voicing: Float32Array;
  /** Level per frame over the analysis window, dB re full scale (of the low-passed signal). */
  levelDb: Float32Array;
  hopMs: number;
}

/** Target rate of the analysis after decimation, Hz. */
const ANALYSIS_RATE = 8000;
/** Frames quieter than this many dB below the loud (95th percentile) frames are unvoiced. */
const RELATIVE_SILENCE_DB = 45;
/** Absolute silence floor, RMS of a signal in [-1, 1] (≈ −80 dBFS). */
const ABSOLUTE_SILENCE_RMS = 1e-4;
/** Most candidates kept per frame (the rest carry negligible prior mass). */
const MAX_CANDIDATES = 6;
/** Voicing probability above which a frame's own F0 is trusted over its neighbourhood. */
const STRONG_VOICING = 0.5;

function toFloat(pcm: Int16Array | Float32Array): Float32Array {
  if (pcm instanceof Float32Array) return pcm;
  const out = new Float32Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = pcm[i] / 32768;
  return out;
}

/**
 * Tracks F0 of speech. Pure: typed array in, typed arrays out.
 *
 * @example
 *   const { f0, voicing } = trackPitch(pcm16k, 16000);          // 10 ms frames, 60–500 Hz
 *   const st = toSemitones(f0, speakerPitchStats(f0).medianHz);
 */
export function trackPitch(pcm: Int16Array | Float32Array, sampleRate: number, opts: PitchOptions = {}): PitchTrack {
  const minHz = opts.minHz ?? 60;
  const maxHz = opts.maxHz ?? 500;
  const hopMs = opts.hopMs ?? 10;
  if (!(sampleRate > 0) || !(minHz > 0) || !(maxHz > minHz) || !(hopMs > 0)) {
    throw new RangeError('trackPitch: sampleRate, minHz < maxHz and hopMs must be positive');
  }
  const factor = Math.max(1, Math.floor(sampleRate / ANALYSIS_RATE));
  const x = decimate(toFloat(pcm), factor);
  const fs = sampleRate / factor;
  const nFrames = Math.floor((pcm.length * 1000) / sampleRate / hopMs);
  const f0 = new Float32Array(nFrames);
  const voicing = new Float32Array(nFrames);
  if (nFrames === 0) return { f0, voicing, levelDb: new Float32Array(0), hopMs };

  const minLag = Math.max(2, Math.floor(fs / maxHz));
  const maxLag = Math.ceil(fs / minHz);
  // Integration window: 25 ms as in the YIN paper, and never shorter than the longest period.
  const win = Math.max(Math.round(fs * 0.025), maxLag + 1);
  const cands: Candidates = {
    lag: new Float32Array(nFrames * MAX_CANDIDATES),
    prob: new Float32Array(nFrames * MAX_CANDIDATES),
    count: new Uint8Array(nFrames),
    perFrame: MAX_CANDIDATES,
  };

  // Running sum of squares (float64: the sums grow over long files).
  const sq = new Float64Array(x.length + 1);
  for (let i = 0; i < x.length; i++) sq[i + 1] = sq[i] + x[i] * x[i];
  const rms = frameRms(sq, nFrames, hopMs, fs, win, x.length);
  const gate = Math.max(ABSOLUTE_SILENCE_RMS, percentile(rms, 0.95) * 10 ** (-RELATIVE_SILENCE_DB / 20));

  const d = new Float32Array(maxLag + 2);
  const span = win + maxLag + 2;
  const seg = new Float64Array(span);
  const segSq = new Float64Array(span + 1);
  const segStart = (i: number) => Math.round(((i + 0.5) * hopMs * fs) / 1000 - (win + maxLag) / 2);
  const hop = (hopMs * fs) / 1000;
  const first = segStart(0);
  const shared = opts.shareFrames !== false && FrameCorrelations.applies(hop, win) ? new FrameCorrelations(x, first, hop, nFrames, win, maxLag) : null;
  for (let i = 0; i < nFrames; i++) {
    if (rms[i] < gate) continue;
    const start = segStart(i);
    for (let k = 0; k < span; k++) {
      const j = start + k;
      seg[k] = j >= 0 && j < x.length ? x[j] : 0;
      segSq[k + 1] = segSq[k] + seg[k] * seg[k];
    }
    // A frame whose rounded start is off the shared grid (hops like 12.5 ms) is computed on its own.
    cmndf(seg, segSq, win, maxLag, d, shared && start === first + i * hop ? shared.of(i) : undefined);
    frameCandidates(d, minLag, maxLag, i, cands);
    let pv = 0;
    for (let c = 0; c < cands.count[i]; c++) pv += cands.prob[i * MAX_CANDIDATES + c];
    voicing[i] = Math.min(1, pv);
  }

  const choice = viterbiPath(cands, voicing, nFrames);
  for (let i = 0; i < nFrames; i++) {
    const c = choice[i];
    f0[i] = c < 0 ? 0 : fs / cands.lag[i * MAX_CANDIDATES + c];
  }
  repairOctaves(f0, voicing, cands, fs);
  return { f0, voicing, levelDb: rms.map((r) => 20 * Math.log10(Math.max(ABSOLUTE_SILENCE_RMS, r))), hopMs };
}

function frameRms(sq: Float64Array, nFrames: number, hopMs: number, fs: number, win: number, n: number): Float32Array {
  const out = new Float32Array(nFrames);
  for (let i = 0; i < nFrames; i++) {
    const c = Math.round(((i + 0.5) * hopMs * fs) / 1000);
    const a = Math.max(0, c - (win >> 1));
    const b = Math.min(n, c + (win >> 1));
    out[i] = b > a ? Math.sqrt((sq[b] - sq[a]) / (b - a)) : 0;
  }
  return out;
}

function percentile(values: Float32Array, q: number): number {
  if (values.length === 0) return 0;
  const sorted = Float32Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/**
 * Octave-error repair. A frame whose F0 is 10 or more semitones away from the median of the
 * voiced frames within ±0.3 s is moved to its own candidate nearest that median when it has
 * one within 12% (≈ 2 st). Failing that, a weakly voiced frame (voicing < STRONG_VOICING;
 * a strongly periodic frame is trusted over its neighbours, which may be the ones in error)
 * within 1.5 st of an exact octave (or
 * twelfth) of the median is multiplied back by that ratio, since speech F0 does not jump an
 * octave within 10 ms: such frames are period-doubling in creaky voice (frequent at the
 * bottom of tone 3) or a missed subharmonic. A frame that can be repaired neither way is
 * set unvoiced: 10 st within 10 ms of its neighbourhood is not a speech F0 (seen at
 * syllable offsets, where the glottis stops irregularly). Viterbi already penalises octave
 * jumps; this catches short runs that jumped as a whole.
 */
function repairOctaves(f0: Float32Array, voicing: Float32Array, cands: Candidates, fs: number): void {
  const n = f0.length;
  const radius = 30;
  const buf: number[] = [];
  const fixed = Float32Array.from(f0);
  for (let i = 0; i < n; i++) {
    if (f0[i] <= 0) continue;
    buf.length = 0;
    for (let j = Math.max(0, i - radius); j <= Math.min(n - 1, i + radius); j++) if (f0[j] > 0) buf.push(f0[j]);
    if (buf.length < 5) continue;
    buf.sort((a, b) => a - b);
    const med = buf[buf.length >> 1];
    const semis = 12 * Math.log2(f0[i] / med);
    if (Math.abs(semis) < 10) continue;
    let best = -1;
    let bestErr = 0.12;
    for (let c = 0; c < cands.count[i]; c++) {
      const err = Math.abs(Math.log(fs / cands.lag[i * cands.perFrame + c] / med));
      if (err < bestErr) {
        bestErr = err;
        best = c;
      }
    }
    if (best >= 0) {
      fixed[i] = fs / cands.lag[i * cands.perFrame + best];
      continue;
    }
    if (voicing[i] >= STRONG_VOICING) continue;
    fixed[i] = 0;
    for (const ratio of [2, 3]) {
      if (Math.abs(Math.abs(semis) - 12 * Math.log2(ratio)) <= 1.5) {
        fixed[i] = semis > 0 ? f0[i] / ratio : f0[i] * ratio;
        break;
      }
    }
  }
  f0.set(fixed);
}
