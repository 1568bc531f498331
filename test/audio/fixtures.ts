/**
 * Audio fixtures made at test time from real recordings in the shared data folder, into a
 * temporary directory that the caller removes. Nothing binary is kept in the repository.
 *
 * ffmpeg has no AMR encoder and Debian's sox cannot write AMR-WB, so AMR-WB is encoded with
 * the VisualOn encoder library (Debian libvo-amrwbenc0) called through koffi; the test that
 * needs it is skipped with a reason when that library is absent.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import koffi from 'koffi';
import { SHARED_DATA_DIR } from '../helpers/app.js';

/** A 7.1 s native English sentence, 16 kHz mono FLAC (en/librivox, see its SOURCE.md). */
export const ENGLISH_SENTENCE = path.join(SHARED_DATA_DIR, 'en', 'librivox', 'sense_and_sensibility_01_austen_64kb-0870.flac');
/** A 2.4 s native Mandarin sentence, 16 kHz mono FLAC (zh/aishell-s0150). */
export const MANDARIN_SENTENCE = path.join(SHARED_DATA_DIR, 'zh', 'aishell-s0150', 'BAC009S0150W0001.flac');

export function ffmpeg(args: string[]): void {
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
}

export function sox(args: string[]): void {
  execFileSync('sox', args);
}

/** Exact duration in seconds from sox's header reader. */
export function soxDuration(file: string): number {
  return Number(execFileSync('soxi', ['-D', file]).toString().trim());
}

/** Decodes any file to 16 kHz mono s16 with ffmpeg, for reference comparisons. */
export function referencePcm(file: string): Int16Array {
  const out = execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-i', file, '-f', 's16le', '-ac', '1', '-ar', '16000', 'pipe:1'], { maxBuffer: 64 * 1024 * 1024 });
  return new Int16Array(out.buffer, out.byteOffset, out.length >> 1).slice();
}

type Encoder = { init: () => unknown; encode: (s: unknown, mode: number, pcm: Int16Array, out: Buffer, dtx: number) => number; exit: (s: unknown) => void };
let amrWb: Encoder | null | undefined;

function loadAmrWbEncoder(): Encoder | null {
  if (amrWb !== undefined) return amrWb;
  try {
    const lib = koffi.load('libvo-amrwbenc.so.0');
    // enc_if.h: E_IF_init, E_IF_encode (320 samples → one storage-format frame), E_IF_exit.
    amrWb = {
      init: lib.func('void *E_IF_init(void)'),
      encode: lib.func('int E_IF_encode(void *st, int mode, const int16_t *speech, _Out_ uint8_t *out, int dtx)'),
      exit: lib.func('void E_IF_exit(void *st)'),
    };
  } catch {
    amrWb = null;
  }
  return amrWb;
}

export const hasAmrWbEncoder = (): boolean => loadAmrWbEncoder() !== null;

/** Writes an AMR-WB storage file (RFC 4867 §5) at 23.85 kbit/s (mode 8), DTX on. */
export function writeAmrWb(pcm16k: Int16Array, file: string): void {
  const enc = loadAmrWbEncoder();
  if (!enc) throw new Error('libvo-amrwbenc0 is not installed');
  const st = enc.init();
  const parts: Buffer[] = [Buffer.from('#!AMR-WB\n', 'latin1')];
  const out = Buffer.alloc(64);
  for (let i = 0; i + 320 <= pcm16k.length; i += 320) {
    const n = enc.encode(st, 8, pcm16k.subarray(i, i + 320), out, 1);
    parts.push(Buffer.from(out.subarray(0, n)));
  }
  enc.exit(st);
  fs.writeFileSync(file, Buffer.concat(parts));
}

export interface FormatFixture {
  name: string;
  file: string;
  /** Expected decoded source rate / channels. */
  sampleRate: number;
  channels: number;
  /** Detected format name in `source.format`. */
  format: string;
}

/**
 * Every accepted format from one source recording. Encoders add padding (mp3/aac priming,
 * Opus pre-skip is removed by ffmpeg), so callers compare durations with a tolerance.
 */
export function makeFormatFixtures(src: string, dir: string): FormatFixture[] {
  const f = (name: string) => path.join(dir, name);
  const fixtures: FormatFixture[] = [];
  const add = (name: string, file: string, format: string, sampleRate: number, channels: number, make: () => void) => {
    make();
    fixtures.push({ name, file, format, sampleRate, channels });
  };
  add('wav 16 kHz mono', f('a16.wav'), 'wav', 16000, 1, () => ffmpeg(['-i', src, '-ar', '16000', '-ac', '1', '-c:a', 'pcm_s16le', f('a16.wav')]));
  add('wav 44.1 kHz mono', f('a44.wav'), 'wav', 44100, 1, () => ffmpeg(['-i', src, '-ar', '44100', '-ac', '1', '-c:a', 'pcm_s16le', f('a44.wav')]));
  add('wav 8 kHz mono', f('a8.wav'), 'wav', 8000, 1, () => ffmpeg(['-i', src, '-ar', '8000', '-ac', '1', '-c:a', 'pcm_s16le', f('a8.wav')]));
  add('wav 44.1 kHz stereo', f('st.wav'), 'wav', 44100, 2, () => ffmpeg(['-i', src, '-ar', '44100', '-ac', '2', '-c:a', 'pcm_s16le', f('st.wav')]));
  add('wav float 32-bit', f('fl.wav'), 'wav', 22050, 1, () => ffmpeg(['-i', src, '-ar', '22050', '-c:a', 'pcm_f32le', f('fl.wav')]));
  add('mp3', f('a.mp3'), 'mp3', 44100, 2, () => ffmpeg(['-i', src, '-ar', '44100', '-ac', '2', '-c:a', 'libmp3lame', '-b:a', '96k', f('a.mp3')]));
  add('m4a (aac)', f('a.m4a'), 'm4a', 44100, 1, () => ffmpeg(['-i', src, '-ar', '44100', '-c:a', 'aac', '-b:a', '64k', f('a.m4a')]));
  add('aac (adts)', f('a.aac'), 'aac', 22050, 1, () => ffmpeg(['-i', src, '-ar', '22050', '-c:a', 'aac', '-b:a', '48k', '-f', 'adts', f('a.aac')]));
  add('amr-nb', f('a.amr'), 'amr-nb', 8000, 1, () => sox([src, '-r', '8000', '-c', '1', '-t', 'amr-nb', f('a.amr')]));
  add('3gp (amr-nb)', f('amr.3gp'), '3gp-amr-nb', 8000, 1, () => ffmpeg(['-i', f('a.amr'), '-c:a', 'copy', '-f', '3gp', f('amr.3gp')]));
  add('3gp (aac)', f('aac.3gp'), '3gp', 16000, 1, () => ffmpeg(['-i', src, '-c:a', 'aac', '-b:a', '32k', '-f', '3gp', f('aac.3gp')]));
  add('ogg vorbis', f('a.ogg'), 'ogg-vorbis', 16000, 1, () => ffmpeg(['-i', src, '-c:a', 'libvorbis', '-q:a', '3', f('a.ogg')]));
  add('opus', f('a.opus'), 'ogg-opus', 48000, 1, () => ffmpeg(['-i', src, '-c:a', 'libopus', '-b:a', '24k', f('a.opus')]));
  add('webm (opus)', f('a.webm'), 'webm', 48000, 1, () => ffmpeg(['-i', src, '-c:a', 'libopus', '-b:a', '24k', '-f', 'webm', f('a.webm')]));
  add('flac', f('a.flac'), 'flac', 16000, 1, () => ffmpeg(['-i', src, '-c:a', 'flac', f('a.flac')]));
  add('wma', f('a.wma'), 'wma', 22050, 1, () => ffmpeg(['-i', src, '-ar', '22050', '-c:a', 'wmav2', '-b:a', '64k', f('a.wma')]));
  if (hasAmrWbEncoder()) {
    add('amr-wb', f('a.awb'), 'amr-wb', 16000, 1, () => writeAmrWb(referencePcm(src), f('a.awb')));
    add('3gp (amr-wb)', f('awb.3gp'), '3gp-amr-wb', 16000, 1, () => ffmpeg(['-i', f('a.awb'), '-c:a', 'copy', '-f', '3gp', f('awb.3gp')]));
  }
  return fixtures;
}
