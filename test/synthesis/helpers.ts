/**
 * Shared set-up for the synthesis tests: engines loaded once per test file, ffmpeg decoding of
 * produced or shared audio, and F0 statistics from the project's pitch tracker.
 */
import path from 'node:path';
import { runProcess } from '../../src/audio/process.js';
import { trackPitch } from '../../src/dsp/pitch.js';
import { resolveModels } from '../../src/models.js';
import { EkhoStore } from '../../src/synthesis/ekho/store.js';
import { loadEspeak } from '../../src/synthesis/espeak/engine.js';
import type { Engines } from '../../src/synthesis/synthesize.js';
import type { SynthesisRequest } from '../../src/synthesis/types.js';
import { REPO_ROOT } from '../helpers/app.js';

let engines: Promise<Engines> | null = null;

export function testEngines(): Promise<Engines> {
  engines ??= (async () => {
    const paths = resolveModels(path.join(REPO_ROOT, 'models'));
    return { espeak: await loadEspeak('wasm'), ekho: new EkhoStore(paths.ekho.index, paths.ekho.voice) };
  })();
  return engines;
}

export function request(over: Partial<SynthesisRequest>): SynthesisRequest {
  return { text: '你好', language: 'zh-CN', voice: 'female', format: 'wav', speed: 50, pitch: 50, volume: 50, ...over };
}

/** Any audio file to mono 16-bit PCM at `rate` Hz through ffmpeg. */
export async function decodeWithFfmpeg(input: Buffer | string, rate = 16000): Promise<Int16Array> {
  const src = typeof input === 'string' ? ['-i', input] : ['-i', 'pipe:0'];
  const res = await runProcess('ffmpeg', ['-hide_banner', '-loglevel', 'error', ...src, '-f', 's16le', '-ac', '1', '-ar', String(rate), 'pipe:1'], typeof input === 'string' ? null : input);
  if (res.code !== 0) throw new Error(`ffmpeg: ${res.stderr}`);
  return new Int16Array(res.stdout.buffer, res.stdout.byteOffset, res.stdout.length >> 1);
}

export function medianF0(pcm: Int16Array, rate: number): number {
  const v = [...trackPitch(pcm, rate).f0].filter((x) => x > 0).sort((a, b) => a - b);
  return v[v.length >> 1] ?? 0;
}

/** F0 (Hz) of each voiced stretch separated by at least `gapMs` of unvoiced frames. */
export function voicedSegments(pcm: Int16Array, rate: number, gapMs = 120): number[][] {
  const { f0, hopMs } = trackPitch(pcm, rate);
  const segs: number[][] = [];
  let cur: number[] = [];
  let gap = 0;
  for (const f of f0) {
    if (f > 0) {
      cur.push(f);
      gap = 0;
    } else if (cur.length && ++gap * hopMs >= gapMs) {
      segs.push(cur);
      cur = [];
    }
  }
  if (cur.length) segs.push(cur);
  return segs.filter((s) => s.length >= 5);
}

/** Semitone difference between the mean of the last and the first quarter of a contour. */
export function slopeSt(seg: number[]): number {
  const q = Math.max(1, Math.floor(seg.length / 4));
  const mean = (a: number[]) => a.reduce((x, y) => x + y, 0) / a.length;
  return 12 * Math.log2(mean(seg.slice(-q)) / mean(seg.slice(0, q)));
}
