/**
 * The recorded Mandarin syllables of the Ekho voice (models folder `ekho-mandarin`, see its
 * SOURCE.md): `syllables.tsv` maps toned pinyin (tone 5 = neutral) to a byte range of
 * `pinyin.voice`, where each clip is a complete WAV file with GSM 6.10 audio (Microsoft
 * framing: 65-byte blocks of 320 samples at 16 kHz).
 *
 * Clips are decoded lazily and cached. All clips a request needs that are not cached yet are
 * decoded by ONE ffmpeg run: their GSM blocks are laid end to end under a single WAV header
 * (GSM blocks are independent, so the concatenation decodes to the concatenated clips) and
 * the output is split again by block counts. Each decoded clip is trimmed of silence and its
 * F0 track is computed once, for the prosody stage.
 */
import fs from 'node:fs';
import { runProcess } from '../../audio/process.js';
import { trackPitch } from '../../dsp/pitch.js';
import { trimSilence } from '../dsp/join.js';

export const EKHO_RATE = 16000;
const GSM_BLOCK_BYTES = 65;
const GSM_BLOCK_SAMPLES = 320;
const HOP_SEC = 0.01;

export interface Clip {
  key: string;
  samples: Float32Array;
  /** F0 per 10 ms frame, Hz, 0 unvoiced. */
  f0: Float32Array;
  hopSec: number;
  /** Median F0 of voiced frames, Hz (0 when none). */
  medianF0: number;
}

interface Entry {
  fmt: Buffer;
  data: Buffer;
}

function chunks(wav: Buffer): { fmt: Buffer | null; data: Buffer | null } {
  let fmt: Buffer | null = null;
  let data: Buffer | null = null;
  let off = 12;
  while (off + 8 <= wav.length) {
    const id = wav.toString('ascii', off, off + 4);
    const size = wav.readUInt32LE(off + 4);
    const body = wav.subarray(off + 8, Math.min(wav.length, off + 8 + size));
    if (id === 'fmt ') fmt = body;
    if (id === 'data') data = body;
    off += 8 + size + (size & 1);
  }
  return { fmt, data };
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  return s[s.length >> 1];
}

export class EkhoStore {
  private readonly entries = new Map<string, Entry>();
  private readonly cache = new Map<string, Clip>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(indexPath: string, voicePath: string) {
    const voice = fs.readFileSync(voicePath);
    const lines = fs.readFileSync(indexPath, 'utf8').split('\n').slice(1);
    for (const line of lines) {
      const [key, off, len] = line.split('\t');
      if (!key || !off || !len) continue;
      const { fmt, data } = chunks(voice.subarray(Number(off), Number(off) + Number(len)));
      if (!fmt || !data || fmt.readUInt16LE(0) !== 0x31) continue; // 0x31 = GSM 6.10 (MS)
      const whole = Math.floor(data.length / GSM_BLOCK_BYTES) * GSM_BLOCK_BYTES;
      this.entries.set(key, { fmt, data: data.subarray(0, whole) });
    }
    if (this.entries.size === 0) throw new Error(`no GSM clips indexed by ${indexPath}`);
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Returns decoded clips for the keys that exist (unknown keys are left out). */
  async clips(keys: string[]): Promise<Map<string, Clip>> {
    const wanted = [...new Set(keys)].filter((k) => this.entries.has(k));
    const missing = wanted.filter((k) => !this.cache.has(k));
    if (missing.length > 0) {
      // Serialise decodes so two requests never decode the same clip twice.
      const run = this.queue.then(() => this.decode(missing.filter((k) => !this.cache.has(k))));
      this.queue = run.catch(() => undefined);
      await run;
    }
    return new Map(wanted.map((k) => [k, this.cache.get(k)!]));
  }

  private async decode(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    const datas = keys.map((k) => this.entries.get(k)!.data);
    const body = Buffer.concat(datas);
    const fmt = this.entries.get(keys[0])!.fmt;
    const header = Buffer.alloc(12 + 8 + fmt.length + 8);
    header.write('RIFF', 0, 'ascii');
    header.writeUInt32LE(header.length - 8 + body.length, 4);
    header.write('WAVE', 8, 'ascii');
    header.write('fmt ', 12, 'ascii');
    header.writeUInt32LE(fmt.length, 16);
    fmt.copy(header, 20);
    header.write('data', 20 + fmt.length, 'ascii');
    header.writeUInt32LE(body.length, 24 + fmt.length);
    const args = ['-hide_banner', '-loglevel', 'error', '-f', 'wav', '-i', 'pipe:0', '-f', 's16le', '-ac', '1', 'pipe:1'];
    const res = await runProcess('ffmpeg', args, Buffer.concat([header, body]), { timeoutMs: 60_000 });
    if (res.code !== 0) throw new Error(`ffmpeg could not decode the Ekho clips: ${res.stderr.slice(-200)}`);
    const pcm = new Int16Array(res.stdout.buffer, res.stdout.byteOffset, res.stdout.length >> 1);
    let at = 0;
    keys.forEach((key, i) => {
      const n = (datas[i].length / GSM_BLOCK_BYTES) * GSM_BLOCK_SAMPLES;
      const raw = new Float32Array(n);
      for (let j = 0; j < n && at + j < pcm.length; j++) raw[j] = pcm[at + j] / 32768;
      at += n;
      this.cache.set(key, this.analyse(key, raw));
    });
  }

  private analyse(key: string, raw: Float32Array): Clip {
    const samples = trimSilence(raw, EKHO_RATE, -32, 0.005).slice();
    const { f0 } = trackPitch(samples, EKHO_RATE, { minHz: 100, maxHz: 450, hopMs: HOP_SEC * 1000 });
    const voiced: number[] = [];
    for (const v of f0) if (v > 0) voiced.push(v);
    return { key, samples, f0, hopSec: HOP_SEC, medianF0: median(voiced) };
  }
}
