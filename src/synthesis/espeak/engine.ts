/**
 * eSpeak NG formant synthesis, two ways:
 * - in-process: the WebAssembly build `@echogarden/espeak-ng-emscripten` (newer language data;
 *   loaded once per thread, about 0.1 s, then kept);
 * - out-of-process fallback: Debian's `espeak-ng` binary (`--stdout` WAV), used when the
 *   WebAssembly build cannot be loaded.
 * Mandarin is never sent as characters: callers pass numeric-tone pinyin and the voice
 * `cmn-latn-pinyin` (the `cmn` voice reads some characters as English).
 */
import { runProcess } from '../../audio/process.js';
import type { EngineAudio } from '../types.js';

export type EspeakVoice = 'en-us' | 'en-gb' | 'cmn-latn-pinyin';

/**
 * eSpeak's voice variants used by the catalogue (espeak-ng-data/voices/!v): each sets its own
 * formant pattern, base pitch and range. Chosen by recognisability: these scored 88–96 overall
 * when our English scoring engine read them back (m4, m7 and the named variants scored lower).
 */
export const ESPEAK_VARIANTS = ['', 'm1', 'm2', 'm3', 'm5', 'm6', 'f1', 'f2', 'f3', 'f4', 'f5'] as const;
export type EspeakVariant = (typeof ESPEAK_VARIANTS)[number];

export interface EspeakParams {
  voice: EspeakVoice;
  /** Voice variant ('' = the voice's own male default). */
  variant?: EspeakVariant;
  /** Words per minute, eSpeak's own unit (80..450; default 175). */
  rateWpm: number;
  /** eSpeak's base pitch, 0..99 (default 50). */
  pitch: number;
}

/** Time span of one eSpeak "word" (for `cmn-latn-pinyin`: one syllable), seconds. */
export interface WordSpan {
  start: number;
  /** Start of the pause after the word, or of the next word. */
  end: number;
}

export interface EspeakAudio extends EngineAudio {
  /** Word timings (WebAssembly build only; the command-line build does not report them). */
  words?: WordSpan[];
}

export interface EspeakBackend {
  readonly kind: 'wasm' | 'cli';
  synth(text: string, params: EspeakParams): Promise<EspeakAudio>;
}

interface SynthEvent {
  type: string;
  audio_position: number;
  id?: string | number;
}

/** Word spans from eSpeak's event list (audio_position in ms; a phoneme with empty id is a pause). */
export function wordSpans(events: SynthEvent[], totalSec: number): WordSpan[] {
  const spans: WordSpan[] = [];
  for (const e of events) {
    const t = e.audio_position / 1000;
    const open = spans[spans.length - 1];
    if (e.type === 'word') {
      if (open && open.end < 0) open.end = t;
      spans.push({ start: t, end: -1 });
    } else if (open && open.end < 0 && ((e.type === 'phoneme' && e.id === '') || e.type === 'end') && t > open.start) {
      open.end = t;
    }
  }
  for (const s of spans) if (s.end < 0) s.end = totalSec;
  return spans;
}

/** Voice names as each build knows them (the WebAssembly build files en-GB under `gmw/en`). */
const WASM_VOICE: Record<EspeakVoice, string> = {
  'en-us': 'gmw/en-US',
  'en-gb': 'gmw/en',
  'cmn-latn-pinyin': 'sit/cmn-Latn-pinyin',
};

export const ESPEAK_MIN_WPM = 80;
export const ESPEAK_MAX_WPM = 450;

function clampParams(p: EspeakParams): EspeakParams {
  return {
    voice: p.voice,
    variant: p.variant ?? '',
    rateWpm: Math.round(Math.min(ESPEAK_MAX_WPM, Math.max(ESPEAK_MIN_WPM, p.rateWpm))),
    pitch: Math.round(Math.min(99, Math.max(0, p.pitch))),
  };
}

function int16ToFloat(chunks: Int16Array[]): Float32Array {
  let n = 0;
  for (const c of chunks) n += c.length;
  const out = new Float32Array(n);
  let at = 0;
  for (const c of chunks) {
    for (let i = 0; i < c.length; i++) out[at + i] = c[i] / 32768;
    at += c.length;
  }
  return out;
}

class WasmBackend implements EspeakBackend {
  readonly kind = 'wasm' as const;
  private currentVoice = '';
  constructor(
    private readonly worker: import('@echogarden/espeak-ng-emscripten').ESpeakNGWorkerInstance,
    private readonly sampleRate: number,
  ) {}

  async synth(text: string, params: EspeakParams): Promise<EspeakAudio> {
    const p = clampParams(params);
    const name = WASM_VOICE[p.voice] + (p.variant ? `+${p.variant}` : '');
    if (name !== this.currentVoice) {
      const rc = this.worker.set_voice(name);
      if (rc !== 0) throw new Error(`espeak-ng: voice ${name} not available (code ${rc})`);
      this.currentVoice = name;
    }
    this.worker.set_rate(p.rateWpm);
    this.worker.set_pitch(p.pitch);
    const chunks: Int16Array[] = [];
    const events: SynthEvent[] = [];
    this.worker.synthesize(text, (samples, evs) => {
      if (samples && samples.length) chunks.push(samples);
      for (const e of evs as SynthEvent[]) if (e.type !== 'phoneme' || e.id === '') events.push({ type: e.type, audio_position: e.audio_position, id: e.id });
      return 0; // 0 = continue
    });
    const samples = int16ToFloat(chunks);
    return { samples, sampleRate: this.sampleRate, words: wordSpans(events, samples.length / this.sampleRate) };
  }
}

class CliBackend implements EspeakBackend {
  readonly kind = 'cli' as const;
  async synth(text: string, params: EspeakParams): Promise<EngineAudio> {
    const p = clampParams(params);
    const args = ['-v', p.voice + (p.variant ? `+${p.variant}` : ''), '-s', String(p.rateWpm), '-p', String(p.pitch), '--stdout', '--', text];
    const res = await runProcess('espeak-ng', args, null, { timeoutMs: 120_000 });
    if (res.code !== 0) throw new Error(`espeak-ng failed: ${res.stderr.trim().slice(-200)}`);
    return parsePcmWav(res.stdout);
  }
}

/** Reads the mono 16-bit WAV that `espeak-ng --stdout` writes (its size fields may be 0). */
function parsePcmWav(buf: Buffer): EngineAudio {
  if (buf.length < 44 || buf.toString('ascii', 0, 4) !== 'RIFF') throw new Error('espeak-ng: no WAV output');
  const sampleRate = buf.readUInt32LE(24);
  let off = 12;
  while (off + 8 <= buf.length && buf.toString('ascii', off, off + 4) !== 'data') off += 8 + buf.readUInt32LE(off + 4);
  const start = off + 8;
  const n = Math.floor((buf.length - start) / 2);
  const samples = new Float32Array(n);
  for (let i = 0; i < n; i++) samples[i] = buf.readInt16LE(start + 2 * i) / 32768;
  return { samples, sampleRate };
}

/**
 * Loads the preferred backend: WebAssembly unless `prefer` says 'cli' or it fails to load.
 * A short warm-up synthesis lets the WebAssembly JIT tier up before the first request.
 */
export async function loadEspeak(prefer: 'wasm' | 'cli' = 'wasm'): Promise<EspeakBackend> {
  if (prefer === 'cli') return new CliBackend();
  try {
    const { default: factory } = await import('@echogarden/espeak-ng-emscripten');
    const mod = await factory();
    const worker = new mod.eSpeakNGWorker();
    const backend = new WasmBackend(worker, worker.get_samplerate());
    await backend.synth('Warm up the engine.', { voice: 'en-us', rateWpm: 175, pitch: 50 });
    await backend.synth('ni3 hao3.', { voice: 'cmn-latn-pinyin', rateWpm: 175, pitch: 50 });
    return backend;
  } catch {
    return new CliBackend();
  }
}
