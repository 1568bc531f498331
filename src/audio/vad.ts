/**
 * Voice activity detection, energy based: pure, synchronous, no model.
 *
 * Method (classic two-threshold endpointing, cf. Rabiner & Sambur 1975, with a minimum-
 * statistics noise floor after R. Martin 2001):
 * 1. 25 ms frames every 10 ms; frame energy in dBFS after removing the frame mean (DC).
 * 2. Noise floor per frame = minimum of the 3-frame-smoothed energy within ±1 s, never
 *    below the 5th percentile of the whole file (the floor follows slow noise changes but
 *    cannot be pulled up by a long stretch of continuous speech).
 * 3. A frame is "loud" when it is START_DB above the floor; a segment starts after
 *    MIN_ONSET_FRAMES loud frames in a row, continues while frames stay CONTINUE_DB above the
 *    floor, and ends after HANGOVER_MS below it (hangover bridges stop closures and short
 *    pauses inside words). Frames under ABS_FLOOR_DBFS are never speech (digital silence or
 *    faint hum cannot become speech however clean the floor).
 * 4. Segments shorter than MIN_SEGMENT_MS are dropped; segments are padded by PAD_MS on each
 *    side (word onsets and releases are weaker than the vowel that triggers the detector).
 * Parameters were chosen on the shared real recordings against Silero VAD (docs/audio.md).
 */

export interface SpeechSegment {
  startMs: number;
  endMs: number;
}

/** Common interface of the detectors: energy (sync) and Silero (model, async). */
export interface VoiceActivityDetector {
  readonly name: string;
  detect(pcm: Int16Array, sampleRate: number): Promise<SpeechSegment[]>;
}

export const VAD_PARAMS = {
  FRAME_MS: 25,
  HOP_MS: 10,
  START_DB: 10,
  MIN_START_DB: 4,
  CONTINUE_DB: 6,
  ABS_FLOOR_DBFS: -70,
  MIN_ONSET_FRAMES: 3,
  HANGOVER_MS: 150,
  MIN_SEGMENT_MS: 80,
  PAD_MS: 30,
  FLOOR_WINDOW_MS: 1000,
  FLOOR_PERCENTILE: 0.05,
  FLOOR_BIAS_DB: 3,
} as const;

/** Half-width in frames of the moving average the floor tracker takes the minimum of. */
const SMOOTH_HALF = 2;

/** Per-frame energies in dBFS (frame mean removed), HOP_MS apart. */
export function frameEnergiesDb(pcm: Int16Array, sampleRate: number): Float64Array {
  const frame = Math.round((VAD_PARAMS.FRAME_MS * sampleRate) / 1000);
  const hop = Math.round((VAD_PARAMS.HOP_MS * sampleRate) / 1000);
  const n = pcm.length < frame ? (pcm.length > 0 ? 1 : 0) : 1 + Math.floor((pcm.length - frame) / hop);
  const out = new Float64Array(n);
  for (let f = 0; f < n; f++) {
    const start = f * hop;
    const end = Math.min(pcm.length, start + frame);
    let sum = 0;
    for (let i = start; i < end; i++) sum += pcm[i];
    const mean = sum / (end - start);
    let energy = 0;
    for (let i = start; i < end; i++) {
      const v = pcm[i] - mean;
      energy += v * v;
    }
    out[f] = powerToDb(energy / (end - start));
  }
  return out;
}

/** Mean-square of 16-bit samples to dBFS (full-scale sine = −3 dBFS; floor −120). */
export function powerToDb(meanSquare: number): number {
  return 10 * Math.log10(Math.max(meanSquare / (32768 * 32768), 1e-12));
}

/** Noise floor per frame (minimum statistics over a sliding window, percentile-clamped). */
export function noiseFloorDb(energies: Float64Array): Float64Array {
  const n = energies.length;
  const floor = new Float64Array(n);
  if (n === 0) return floor;
  const smooth = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let sum = 0;
    for (let k = -SMOOTH_HALF; k <= SMOOTH_HALF; k++) sum += energies[Math.min(n - 1, Math.max(0, i + k))];
    smooth[i] = sum / (2 * SMOOTH_HALF + 1);
  }
  const sorted = Float64Array.from(energies).sort();
  const pct = sorted[Math.floor(VAD_PARAMS.FLOOR_PERCENTILE * (n - 1))];
  const half = Math.round(VAD_PARAMS.FLOOR_WINDOW_MS / VAD_PARAMS.HOP_MS);
  // Sliding-window minimum in O(n) with a monotone deque.
  const deque: number[] = [];
  let head = 0;
  for (let i = 0, next = 0; i < n; i++) {
    const hi = Math.min(n - 1, i + half);
    for (; next <= hi; next++) {
      while (deque.length > head && smooth[deque[deque.length - 1]] >= smooth[next]) deque.pop();
      deque.push(next);
    }
    while (deque[head] < i - half) head++;
    floor[i] = Math.max(smooth[deque[head]] + VAD_PARAMS.FLOOR_BIAS_DB, pct);
  }
  return floor;
}

/** Energy-based speech segments in milliseconds from the start of `pcm`. */
export function detectSpeech(pcm: Int16Array, sampleRate: number): SpeechSegment[] {
  const p = VAD_PARAMS;
  const e = frameEnergiesDb(pcm, sampleRate);
  const floor = noiseFloorDb(e);
  const hangover = Math.round(p.HANGOVER_MS / p.HOP_MS);
  const { startDb, continueDb } = thresholds(e, floor);
  const raw: Array<[number, number]> = [];
  let inSpeech = false, onset = 0, quiet = 0, start = 0;
  for (let f = 0; f < e.length; f++) {
    const audible = e[f] > p.ABS_FLOOR_DBFS;
    if (!inSpeech) {
      onset = audible && e[f] > floor[f] + startDb ? onset + 1 : 0;
      if (onset >= p.MIN_ONSET_FRAMES) {
        inSpeech = true;
        start = f - onset + 1;
        quiet = 0;
      }
    } else if (audible && e[f] > floor[f] + continueDb) {
      quiet = 0;
    } else if (++quiet > hangover) {
      raw.push([start, f - quiet + 1]);
      inSpeech = false;
      onset = 0;
    }
  }
  if (inSpeech) raw.push([start, e.length - quiet]);
  const totalMs = (pcm.length / sampleRate) * 1000;
  return raw
    .map(([a, b]) => ({ startMs: a * p.HOP_MS, endMs: Math.min(totalMs, b * p.HOP_MS + p.FRAME_MS) }))
    .filter((s) => s.endMs - s.startMs >= p.MIN_SEGMENT_MS)
    .map((s) => ({ startMs: Math.max(0, s.startMs - p.PAD_MS), endMs: Math.min(totalMs, s.endMs + p.PAD_MS) }))
    .reduce<SpeechSegment[]>(mergeOverlaps, []);
}

/**
 * Thresholds above the floor. In low-SNR audio the loudest frames stand only a few dB above
 * the floor, so fixed thresholds would find nothing: they shrink to half the file's dynamic
 * range (95th-percentile energy minus median floor), never below MIN_START_DB, which
 * stationary noise alone does not reach (its 25 ms frame energies vary by well under 1 dB).
 */
function thresholds(e: Float64Array, floor: Float64Array): { startDb: number; continueDb: number } {
  const p = VAD_PARAMS;
  if (e.length === 0) return { startDb: p.START_DB, continueDb: p.CONTINUE_DB };
  const sortedE = Float64Array.from(e).sort();
  const sortedF = Float64Array.from(floor).sort();
  const range = sortedE[Math.floor(0.95 * (e.length - 1))] - sortedF[Math.floor(0.5 * (e.length - 1))];
  const startDb = Math.min(p.START_DB, Math.max(p.MIN_START_DB, range / 2));
  return { startDb, continueDb: (startDb * p.CONTINUE_DB) / p.START_DB };
}

function mergeOverlaps(acc: SpeechSegment[], s: SpeechSegment): SpeechSegment[] {
  const last = acc[acc.length - 1];
  if (last && s.startMs <= last.endMs) last.endMs = Math.max(last.endMs, s.endMs);
  else acc.push({ ...s });
  return acc;
}

/** The energy detector behind the common interface. */
export const energyVad: VoiceActivityDetector = {
  name: 'energy',
  detect: async (pcm, sampleRate) => detectSpeech(pcm, sampleRate),
};

/** Total speech time in seconds. */
export function speechSeconds(segments: SpeechSegment[]): number {
  return segments.reduce((s, x) => s + (x.endMs - x.startMs), 0) / 1000;
}
