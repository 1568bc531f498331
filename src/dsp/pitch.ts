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
import { decimate, decimatePart, fullReachOutputs } from './resample.js';
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
  /**
   * Run the decimation and the shared cross-correlations in native code where it is built
   * (default true; pitch-loops.ts): the same track, faster. false keeps to the TypeScript.
   */
  native?: boolean;
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
/** A run of at most this many frames an octave off between frames on level is repaired however strongly voiced. */
const MAX_JUMP_FRAMES = 3;

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
  return new PitchAnalysis(pcm, sampleRate, opts).track();
}

/** The tracker's constants for one sample rate and set of options. */
interface Setup {
  factor: number;
  /** Analysis rate after decimation, Hz. */
  fs: number;
  hopMs: number;
  /** Frame step at the analysis rate, samples (a whole number for the usual rates and hops). */
  hop: number;
  minLag: number;
  maxLag: number;
  win: number;
  shareFrames: boolean;
  native: boolean;
}

function setupFor(sampleRate: number, opts: PitchOptions): Setup {
  const minHz = opts.minHz ?? 60;
  const maxHz = opts.maxHz ?? 500;
  const hopMs = opts.hopMs ?? 10;
  if (!(sampleRate > 0) || !(minHz > 0) || !(maxHz > minHz) || !(hopMs > 0)) {
    throw new RangeError('trackPitch: sampleRate, minHz < maxHz and hopMs must be positive');
  }
  const factor = Math.max(1, Math.floor(sampleRate / ANALYSIS_RATE));
  const fs = sampleRate / factor;
  const minLag = Math.max(2, Math.floor(fs / maxHz));
  const maxLag = Math.ceil(fs / minHz);
  // Integration window: 25 ms as in the YIN paper, and never shorter than the longest period.
  const win = Math.max(Math.round(fs * 0.025), maxLag + 1);
  return { factor, fs, hopMs, hop: (hopMs * fs) / 1000, minLag, maxLag, win, shareFrames: opts.shareFrames !== false, native: opts.native !== false };
}

/**
 * The per-frame work on one decimated signal: each frame's F0 candidates, computed when first
 * asked for and kept.
 */
class FrameAnalyser {
  readonly cands: Candidates;
  private readonly analysed: Uint8Array;
  /** The shared cross-correlations, made when a frame first needs them (a stretch's analyser needs few frames, often none). */
  private shared: FrameCorrelations | null | undefined;
  private readonly first: number;
  private readonly span: number;
  private readonly seg: Float64Array;
  private readonly segSq: Float64Array;
  private readonly d: Float32Array;

  constructor(
    /** The input's length before decimation, samples. */
    readonly inputLength: number,
    readonly x: Float32Array,
    readonly frames: number,
    private readonly s: Setup,
  ) {
    this.cands = { lag: new Float32Array(frames * MAX_CANDIDATES), prob: new Float32Array(frames * MAX_CANDIDATES), count: new Uint8Array(frames), perFrame: MAX_CANDIDATES };
    this.analysed = new Uint8Array(frames);
    this.first = this.segStart(0);
    this.span = s.win + s.maxLag + 2;
    this.seg = new Float64Array(this.span);
    this.segSq = new Float64Array(this.span + 1);
    this.d = new Float32Array(s.maxLag + 2);
  }

  private correlations(): FrameCorrelations | null {
    const s = this.s;
    if (this.shared === undefined) this.shared = s.shareFrames && FrameCorrelations.applies(s.hop, s.win) ? new FrameCorrelations(this.x, this.first, s.hop, this.frames, s.win, s.maxLag, s.native) : null;
    return this.shared;
  }

  /** First sample of frame i's segment (win + maxLag + 2 samples centred on the frame). */
  segStart(i: number): number {
    const { hopMs, fs, win, maxLag } = this.s;
    return Math.round(((i + 0.5) * hopMs * fs) / 1000 - (win + maxLag) / 2);
  }

  /** True when frame i's segment lies within samples [lo, hi) of the signal. */
  segmentWithin(i: number, lo: number, hi: number): boolean {
    const start = this.segStart(i);
    return start >= lo && start + this.span <= hi;
  }

  /**
   * Frame i's candidates (into `cands` at frame i), once. `alone`: a frame of a signal that
   * asks for few of its frames takes its shared correlations on its own
   * (FrameCorrelations.single: the same sums) instead of its chunk's.
   */
  analyse(i: number, alone = false): void {
    if (this.analysed[i]) return;
    const { x, seg, segSq, span } = this;
    const shared = this.correlations();
    const start = this.segStart(i);
    for (let k = 0; k < span; k++) {
      const j = start + k;
      seg[k] = j >= 0 && j < x.length ? x[j] : 0;
      segSq[k + 1] = segSq[k] + seg[k] * seg[k];
    }
    // A frame whose rounded start is off the shared grid (hops like 12.5 ms) is computed on its own.
    const r = shared && start === this.first + i * this.s.hop ? (alone ? shared.single(i) : shared.of(i)) : undefined;
    cmndf(seg, segSq, this.s.win, this.s.maxLag, this.d, r);
    frameCandidates(this.d, this.s.minLag, this.s.maxLag, i, this.cands);
    this.analysed[i] = 1;
  }
}

/**
 * A recording analysed for pitch once, for tracks over any stretch of it. `track({ from, to })`
 * gives exactly what `trackPitch` gives for the samples of frames [from, to) alone (the level
 * gate, the voicing and the path are the stretch's own), but takes the F0 candidates of the
 * frames whose analysis window sees the same samples from the recording's analysis, so a
 * stretch of frames already analysed costs little more than its path.
 */
export class PitchAnalysis {
  private readonly s: Setup;
  /** The recording as floats, and its analysis. */
  private readonly samples: Float32Array;
  private readonly whole: FrameAnalyser;
  /** Input samples per frame. */
  private readonly hopIn: number;

  constructor(
    pcm: Int16Array | Float32Array,
    private readonly sampleRate: number,
    opts: PitchOptions = {},
  ) {
    this.s = setupFor(sampleRate, opts);
    this.hopIn = (sampleRate * this.s.hopMs) / 1000;
    this.samples = toFloat(pcm);
    const x = decimate(this.samples, this.s.factor, this.s.native);
    this.whole = new FrameAnalyser(pcm.length, x, this.frames(pcm.length), this.s);
  }

  /** Frames of the recording. */
  get frameCount(): number {
    return this.whole.frames;
  }

  private frames(samples: number): number {
    return Math.floor((samples * 1000) / this.sampleRate / this.s.hopMs);
  }

  /**
   * Without a stretch, the whole recording's track (`trackPitch`: the samples after its last
   * whole frame included); with one, the track of the samples of frames [from, to) alone,
   * frame 0 being `from`.
   */
  track(stretch?: { from: number; to: number }): PitchTrack {
    if (!stretch) return this.trackOn(this.whole, null);
    const from = Math.max(0, Math.min(this.whole.frames, Math.floor(stretch.from)));
    const to = Math.max(from, Math.min(this.whole.frames, Math.floor(stretch.to)));
    const samples = this.samples.subarray(Math.round(from * this.hopIn), Math.round(to * this.hopIn));
    // Unless a frame is a whole number of analysed samples, the stretch's samples do not line up with the recording's.
    const aligned = Number.isInteger(this.hopIn / this.s.factor);
    const x = aligned ? decimatePart(samples, this.s.factor, this.whole.x, (from * this.hopIn) / this.s.factor, this.s.native) : decimate(samples, this.s.factor, this.s.native);
    return this.trackOn(new FrameAnalyser(samples.length, x, this.frames(samples.length), this.s), aligned ? from : null);
  }

  /**
   * The track of `a`'s signal. `offset`: `a` is the stretch starting at that frame of the
   * recording, and its frames whose segment sees only samples equal in both signals (clear
   * of the stretch's ends by the decimation filter's reach) take the recording's candidates.
   */
  private trackOn(a: FrameAnalyser, offset: number | null): PitchTrack {
    const { fs, hopMs, win, factor } = this.s;
    const n = a.frames;
    const f0 = new Float32Array(n);
    const voicing = new Float32Array(n);
    if (n === 0) return { f0, voicing, levelDb: new Float32Array(0), hopMs };
    // Running sum of squares (float64: the sums grow over long files).
    const sq = new Float64Array(a.x.length + 1);
    for (let i = 0; i < a.x.length; i++) sq[i + 1] = sq[i] + a.x[i] * a.x[i];
    const rms = frameRms(sq, n, hopMs, fs, win, a.x.length);
    const gate = Math.max(ABSOLUTE_SILENCE_RMS, percentile(rms, 0.95) * 10 ** (-RELATIVE_SILENCE_DB / 20));

    // This track's candidates: those of the frames at or above its gate (an analyser also keeps
    // frames other tracks asked for).
    const cands: Candidates = { lag: new Float32Array(n * MAX_CANDIDATES), prob: new Float32Array(n * MAX_CANDIDATES), count: new Uint8Array(n), perFrame: MAX_CANDIDATES };
    const [lo, hi] = offset === null ? [0, 0] : fullReachOutputs(a.inputLength, factor);
    const at = offset === null ? 0 : (offset * this.hopIn) / factor;
    for (let i = 0; i < n; i++) {
      if (rms[i] < gate) continue;
      if (offset === null) {
        a.analyse(i);
        copyCandidates(a.cands, i, cands, i);
      } else if (a.segmentWithin(i, lo, hi) && this.whole.segStart(offset + i) === a.segStart(i) + at) {
        this.whole.analyse(offset + i);
        copyCandidates(this.whole.cands, offset + i, cands, i);
      } else {
        a.analyse(i, true);
        copyCandidates(a.cands, i, cands, i);
      }
      let pv = 0;
      for (let c = 0; c < cands.count[i]; c++) pv += cands.prob[i * MAX_CANDIDATES + c];
      voicing[i] = Math.min(1, pv);
    }

    const choice = viterbiPath(cands, voicing, n);
    for (let i = 0; i < n; i++) {
      const c = choice[i];
      f0[i] = c < 0 ? 0 : fs / cands.lag[i * MAX_CANDIDATES + c];
    }
    repairOctaves(f0, voicing, cands, fs);
    return { f0, voicing, levelDb: rms.map((r) => 20 * Math.log10(Math.max(ABSOLUTE_SILENCE_RMS, r))), hopMs };
  }
}

function copyCandidates(from: Candidates, i: number, to: Candidates, j: number): void {
  const count = from.count[i];
  to.count[j] = count;
  for (let c = 0; c < count; c++) {
    to.lag[j * to.perFrame + c] = from.lag[i * from.perFrame + c];
    to.prob[j * to.perFrame + c] = from.prob[i * from.perFrame + c];
  }
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
 * a strongly periodic frame is trusted over its neighbours, which may be the ones in error,
 * unless once the weak frames are repaired it is left in a run of at most MAX_JUMP_FRAMES off
 * the level between frames on it: `isolatedJump`) within 1.5 st of an exact octave (or
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
  const buf = new Float64Array(2 * radius + 1);
  const fixed = Float32Array.from(f0);
  const strong: { i: number; med: number; semis: number }[] = [];
  for (let i = 0; i < n; i++) {
    if (f0[i] <= 0) continue;
    let count = 0;
    for (let j = Math.max(0, i - radius); j <= Math.min(n - 1, i + radius); j++) if (f0[j] > 0) buf[count++] = f0[j];
    if (count < 5) continue;
    const med = kthSmallest(buf, count, count >> 1);
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
    if (voicing[i] >= STRONG_VOICING) {
      strong.push({ i, med, semis });
      continue;
    }
    fixed[i] = byRatio(f0[i], semis);
  }
  // Strongly voiced frames left off the level in runs of a few frames between repaired ones.
  for (const { i, med, semis } of strong) if (isolatedJump(fixed, i, med)) fixed[i] = byRatio(f0[i], semis);
  f0.set(fixed);
}

/** `hz`, `semis` away from its neighbourhood, moved back by an octave or a twelfth; 0 (unvoiced) when it is neither. */
function byRatio(hz: number, semis: number): number {
  for (const ratio of [2, 3]) if (Math.abs(Math.abs(semis) - 12 * Math.log2(ratio)) <= 1.5) return semis > 0 ? hz / ratio : hz * ratio;
  return 0;
}

/**
 * Frame `i`, 10 semitones or more from the neighbourhood's median `med`, belongs to a run of at
 * most MAX_JUMP_FRAMES such frames between frames near the median: speech F0 does not leave
 * its level by an octave for 30 ms and come back, so such a run is an error of the tracker
 * however periodic its frames (a strongly voiced octave jump in the middle of a vowel), and
 * not a stretch of other speech whose own level it would be.
 */
function isolatedJump(f0: Float32Array, i: number, med: number): boolean {
  const away = (k: number) => f0[k] > 0 && Math.abs(12 * Math.log2(f0[k] / med)) >= 10;
  let from = i;
  let to = i;
  while (from > 0 && away(from - 1) && i - from < MAX_JUMP_FRAMES) from--;
  while (to + 1 < f0.length && away(to + 1) && to - i < MAX_JUMP_FRAMES) to++;
  if (to - from + 1 > MAX_JUMP_FRAMES) return false;
  const near = (k: number) => k >= 0 && k < f0.length && f0[k] > 0 && !away(k);
  return near(from - 1) && near(to + 1);
}

/** The k-th smallest (from 0) of values[0..count), by selection (Hoare); reorders those values. */
function kthSmallest(values: Float64Array, count: number, k: number): number {
  let lo = 0;
  let hi = count - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >> 1];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i] < pivot) i++;
      while (values[j] > pivot) j--;
      if (i <= j) {
        const t = values[i];
        values[i++] = values[j];
        values[j--] = t;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return values[k];
}
