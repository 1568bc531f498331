/**
 * Encodes mono 16-bit PCM into the delivery formats of the TTS response (spec, TTS table:
 * `format` wav, mp3, ogg).
 *
 * - wav at the source rate is written in-process (RIFF/WAVE, PCM format tag 1, little endian);
 * - mp3 (libmp3lame, VBR quality 4 ≈ 140–185 kbit/s stereo, far less for mono speech) and
 *   ogg (Vorbis, quality 3) go through ffmpeg fed from memory, as does any change of sample
 *   rate (ffmpeg's swresample: windowed-sinc, good enough for speech delivery).
 */
import os from 'node:os';
import { runProcess } from './process.js';

const LITTLE_ENDIAN_HOST = os.endianness() === 'LE';

export type EncodedFormat = 'wav' | 'mp3' | 'ogg';

export interface EncodeOptions {
  /** Output sample rate in Hz; defaults to the input rate. */
  outSampleRate?: number;
  /** ffmpeg wall-clock limit in ms (default 60 000). */
  timeoutMs?: number;
}

/** RIFF/WAVE container around mono 16-bit little-endian PCM. */
export function wavBuffer(pcm: Int16Array, sampleRate: number): Buffer {
  const dataBytes = pcm.length * 2;
  const buf = Buffer.alloc(44 + dataBytes);
  buf.write('RIFF', 0, 'ascii');
  buf.writeUInt32LE(36 + dataBytes, 4);
  buf.write('WAVE', 8, 'ascii');
  buf.write('fmt ', 12, 'ascii');
  buf.writeUInt32LE(16, 16); // fmt chunk size
  buf.writeUInt16LE(1, 20); // PCM
  buf.writeUInt16LE(1, 22); // mono
  buf.writeUInt32LE(sampleRate, 24);
  buf.writeUInt32LE(sampleRate * 2, 28); // byte rate
  buf.writeUInt16LE(2, 32); // block align
  buf.writeUInt16LE(16, 34); // bits per sample
  buf.write('data', 36, 'ascii');
  buf.writeUInt32LE(dataBytes, 40);
  if (LITTLE_ENDIAN_HOST) Buffer.from(pcm.buffer, pcm.byteOffset, dataBytes).copy(buf, 44);
  else for (let i = 0; i < pcm.length; i++) buf.writeInt16LE(pcm[i], 44 + 2 * i);
  return buf;
}

const CODEC_ARGS: Record<EncodedFormat, string[]> = {
  wav: ['-c:a', 'pcm_s16le', '-f', 'wav'],
  mp3: ['-c:a', 'libmp3lame', '-q:a', '4', '-f', 'mp3'],
  ogg: ['-c:a', 'libvorbis', '-q:a', '3', '-f', 'ogg'],
};

/**
 * @example
 *   const mp3 = await encodeAudio(pcm, 16000, 'mp3');
 *   const wav8k = await encodeAudio(pcm, 16000, 'wav', { outSampleRate: 8000 });
 */
export async function encodeAudio(
  pcm: Int16Array,
  sampleRate: number,
  format: EncodedFormat,
  opts: EncodeOptions = {},
): Promise<Buffer> {
  if (!Number.isInteger(sampleRate) || sampleRate <= 0) throw new RangeError('encodeAudio: bad sampleRate');
  const outRate = opts.outSampleRate ?? sampleRate;
  if (!Number.isInteger(outRate) || outRate < 1000 || outRate > 192000) {
    throw new RangeError(`encodeAudio: output sample rate ${outRate} Hz is out of range`);
  }
  const wav = wavBuffer(pcm, sampleRate);
  if (format === 'wav' && outRate === sampleRate) return wav;
  const args = ['-hide_banner', '-loglevel', 'error', '-f', 'wav', '-i', 'pipe:0', '-ac', '1', '-ar', String(outRate)];
  const res = await runProcess('ffmpeg', [...args, ...CODEC_ARGS[format], 'pipe:1'], wav, {
    timeoutMs: opts.timeoutMs ?? 60_000,
  });
  if (res.code !== 0 || res.stdout.length === 0) {
    throw new Error(`ffmpeg could not encode ${format}: ${res.stderr.trim().slice(-300) || `exit ${res.code}`}`);
  }
  return res.stdout;
}
