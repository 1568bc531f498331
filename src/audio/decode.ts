/**
 * Decodes any accepted upload (spec "Audio input rules (evaluation)": wav, mp3, m4a, aac, amr,
 * 3gp, ogg, opus, webm, flac, wma) to 16 kHz mono 16-bit PCM, enforcing the limits:
 * 10 MB (10 × 1024 × 1024 bytes) and 5 minutes. Every failure is a 400 40001 ApiError with a
 * message naming the cause; nothing here can become a 500 or leave a process running.
 *
 * Routing (ffmpeg links ~200 shared libraries and takes 0.1–0.4 s just to start here, so it is
 * used only where nothing lighter decodes the format exactly):
 * - 16-bit PCM WAV: parsed in-process (no child process at all); other rates and channel
 *   counts are downmixed and resampled by the windowed-sinc resampler of ./resample.ts, the
 *   same code the streaming intake uses, so both paths give identical samples;
 * - FLAC and Ogg Vorbis: `sox` (starts in ~10 ms; sample-exact lengths for both). sox always
 *   runs with `-D`: its automatic dither adds random noise whenever it resamples, so the same
 *   upload decoded twice gave different samples and scored differently; without dither decoding is a pure function of the upload. MP3 stays on
 *   ffmpeg because sox's MP3 reader keeps the encoder delay and padding (+0.1 s measured);
 * - AMR-NB / AMR-WB storage files: `sox` (libsox-fmt-all, opencore-amr), because ffmpeg's
 *   native AMR decoder mishandles DTX (comfort-noise / NO_DATA) frames and shifts timings;
 * - AMR inside 3GP: ffmpeg remuxes the stream unchanged (`-c:a copy -f amr`, every stored
 *   frame including NO_DATA frames is written, so the 20 ms frame clock is kept) and sox
 *   decodes that;
 * - everything else: ffmpeg reading stdin and writing raw s16le at 16 kHz mono to stdout.
 */
import { invalid } from '../errors.js';
import { detectFormat, probeHeader, type AudioFormat } from './format.js';
import { runProcess, type RunResult } from './process.js';
import { floatToInt16, resample } from './resample.js';
import { isPcm16, parseWavHeader, pcm16MonoToInt16, pcm16ToMonoFloat } from './wav.js';

export const TARGET_RATE = 16000;
/** Spec limit "10 MB", read as 10 MiB = 10 × 1024 × 1024 bytes. */
export const MAX_AUDIO_BYTES = 10 * 1024 * 1024;
/** Spec limit "5 minutes". */
export const MAX_AUDIO_SECONDS = 300;
/** Recommended warning text when `lowSampleRate` is set (the spec gives it no code). */
export const LOW_SAMPLE_RATE_WARNING = 'Audio sample rate is 8 kHz or lower; scoring accuracy is reduced.';

export interface DecodedAudio {
  /** 16 kHz mono samples. */
  pcm: Int16Array;
  sampleRate: 16000;
  durationSec: number;
  source: { format: string; sampleRate: number; channels: number };
  /** True when the source was sampled at 8 kHz or below (telephone band; less accurate). */
  lowSampleRate: boolean;
}

export interface DecodeOptions {
  maxBytes?: number;
  maxSeconds?: number;
  /** Wall-clock limit for the decoder process (default 20 s). */
  timeoutMs?: number;
}

export const MESSAGES = {
  empty: 'audio is empty',
  tooLarge: 'audio larger than 10 MB',
  tooLong: 'audio longer than 5 minutes',
  tooShort: 'audio shorter than 1 second',
  unsupported: 'unsupported or unrecognised audio format',
  noSamples: 'audio contains no decodable samples',
} as const;

export async function decodeAudio(input: Buffer, opts: DecodeOptions = {}): Promise<DecodedAudio> {
  const maxBytes = opts.maxBytes ?? MAX_AUDIO_BYTES;
  const maxSeconds = opts.maxSeconds ?? MAX_AUDIO_SECONDS;
  if (input.length === 0) throw invalid(MESSAGES.empty);
  if (input.length > maxBytes) throw invalid(limitMessage(maxBytes));
  const format = detectFormat(input);
  if (!format) throw invalid(MESSAGES.unsupported);
  const maxOutputBytes = Math.ceil(maxSeconds * TARGET_RATE) * 2;
  const timeoutMs = opts.timeoutMs ?? 20_000;

  let decoded: Omit<DecodedAudio, 'durationSec' | 'lowSampleRate' | 'sampleRate'>;
  const header = probeHeader(input, format);
  if (format === 'wav') {
    decoded = decodeWavInProcess(input, maxSeconds) ?? (await viaFfmpeg(input, format, maxOutputBytes, timeoutMs));
  } else if (header && (format === 'flac' || format === 'ogg-vorbis')) {
    decoded = await viaSoxFile(input, format, header, maxOutputBytes, timeoutMs);
  } else if (format === 'amr-nb' || format === 'amr-wb') {
    decoded = await viaSox(input, format, format, maxOutputBytes, timeoutMs);
  } else if (format === '3gp-amr-nb' || format === '3gp-amr-wb') {
    const amr = await extractAmr(input, format, timeoutMs);
    decoded = await viaSox(amr, format === '3gp-amr-nb' ? 'amr-nb' : 'amr-wb', format, maxOutputBytes, timeoutMs);
  } else {
    decoded = await viaFfmpeg(input, format, maxOutputBytes, timeoutMs);
  }
  return finish(decoded, maxSeconds);
}

/** Builds the result and applies the duration limits that need the decoded length. */
export function finish(d: Omit<DecodedAudio, 'durationSec' | 'lowSampleRate' | 'sampleRate'>, maxSeconds = MAX_AUDIO_SECONDS): DecodedAudio {
  if (d.pcm.length === 0) throw invalid(MESSAGES.noSamples);
  const durationSec = d.pcm.length / TARGET_RATE;
  if (durationSec > maxSeconds) throw invalid(maxSeconds === MAX_AUDIO_SECONDS ? MESSAGES.tooLong : `audio longer than ${maxSeconds} seconds`);
  return { ...d, sampleRate: TARGET_RATE, durationSec, lowSampleRate: d.source.sampleRate <= 8000 };
}

/** For the compat layer: the 40001 error to throw when audio is shorter than `minSeconds`. */
export function minDurationError(decoded: DecodedAudio, minSeconds = 1): ReturnType<typeof invalid> | null {
  if (decoded.durationSec >= minSeconds) return null;
  return invalid(minSeconds === 1 ? MESSAGES.tooShort : `audio shorter than ${minSeconds} seconds`);
}

export function limitMessage(maxBytes: number): string {
  return maxBytes === MAX_AUDIO_BYTES ? MESSAGES.tooLarge : `audio larger than ${(maxBytes / 1048576).toFixed(1)} MB`;
}

/** 16-bit PCM WAV without a child process; null when another route is needed. */
function decodeWavInProcess(input: Buffer, maxSeconds: number): Omit<DecodedAudio, 'durationSec' | 'lowSampleRate' | 'sampleRate'> | null {
  const parsed = parseWavHeader(input);
  if (!parsed.ok) {
    throw invalid(parsed.reason === 'need-more' ? 'audio could not be decoded: truncated WAV header' : `audio could not be decoded: ${parsed.message}`);
  }
  const h = parsed.header;
  if (!isPcm16(h)) return null;
  // A declared size beyond the end of the upload means a truncated file: keep what arrived.
  const end = h.dataBytes === null ? input.length : Math.min(input.length, h.dataOffset + h.dataBytes);
  const bytes = input.subarray(h.dataOffset, Math.max(h.dataOffset, end));
  // Early refusal before resampling a long file; finish() applies the exact limit.
  if (bytes.length / h.blockAlign / h.sampleRate > maxSeconds + 1) throw invalid(MESSAGES.tooLong);
  const source = { format: 'wav', sampleRate: h.sampleRate, channels: h.channels };
  if (h.channels === 1 && h.sampleRate === TARGET_RATE) return { pcm: pcm16MonoToInt16(bytes), source };
  const mono = pcm16ToMonoFloat(bytes, h.channels);
  return { pcm: floatToInt16(resample(mono, h.sampleRate, TARGET_RATE)), source };
}

async function viaFfmpeg(input: Buffer, format: AudioFormat, maxOutputBytes: number, timeoutMs: number) {
  const args = ['-hide_banner', '-nostdin', '-nostats', '-i', 'pipe:0', '-vn', '-map', '0:a:0', '-f', 's16le', '-acodec', 'pcm_s16le', '-ac', '1', '-ar', String(TARGET_RATE), 'pipe:1'];
  const res = await run('ffmpeg', args, input, maxOutputBytes, timeoutMs);
  checkDecoder(res, format);
  const probe = probeFfmpegStream(res.stderr);
  return { pcm: toInt16(res.stdout), source: { format: formatName(format, probe.codec), sampleRate: probe.sampleRate, channels: probe.channels } };
}

async function viaSoxFile(input: Buffer, format: 'flac' | 'ogg-vorbis', header: { sampleRate: number; channels: number }, maxOutputBytes: number, timeoutMs: number) {
  const type = format === 'flac' ? 'flac' : 'ogg';
  const args = ['-q', '-D', '-t', type, '-', '-t', 'raw', '-e', 'signed-integer', '-b', '16', '-L', '-c', '1', '-r', String(TARGET_RATE), '-'];
  const res = await run('sox', args, input, maxOutputBytes, timeoutMs);
  checkDecoder(res, format);
  return { pcm: toInt16(res.stdout), source: { format, ...header } };
}

async function viaSox(amr: Buffer, type: 'amr-nb' | 'amr-wb', format: AudioFormat, maxOutputBytes: number, timeoutMs: number) {
  const args = ['-q', '-D', '-t', type, '-', '-t', 'raw', '-e', 'signed-integer', '-b', '16', '-L', '-c', '1', '-r', String(TARGET_RATE), '-'];
  const res = await run('sox', args, amr, maxOutputBytes, timeoutMs);
  checkDecoder(res, format);
  // AMR is mono by definition: NB at 8 kHz, WB at 16 kHz (3GPP TS 26.090 / 26.190).
  return { pcm: toInt16(res.stdout), source: { format: formatName(format, null), sampleRate: type === 'amr-nb' ? 8000 : 16000, channels: 1 } };
}

/** Copies the AMR track of a 3GP file into an AMR storage file (RFC 4867 §5) unchanged. */
async function extractAmr(input: Buffer, format: AudioFormat, timeoutMs: number): Promise<Buffer> {
  const args = ['-hide_banner', '-nostdin', '-nostats', '-loglevel', 'error', '-i', 'pipe:0', '-vn', '-map', '0:a:0', '-c:a', 'copy', '-f', 'amr', 'pipe:1'];
  const res = await run('ffmpeg', args, input, MAX_AUDIO_BYTES * 2, timeoutMs);
  checkDecoder(res, format);
  return res.stdout;
}

async function run(cmd: string, args: string[], input: Buffer, maxOutputBytes: number, timeoutMs: number): Promise<RunResult> {
  try {
    // One extra byte over the limit distinguishes "exactly at the limit" from "longer".
    return await runProcess(cmd, args, input, { timeoutMs, maxOutputBytes: maxOutputBytes + 2 });
  } catch {
    // Spawn failure (binary missing) is a server fault, not the client's: let it surface.
    throw new Error(`audio decoder ${cmd} could not be started`);
  }
}

function checkDecoder(res: RunResult, format: AudioFormat): void {
  if (res.truncated) throw invalid(MESSAGES.tooLong);
  if (res.timedOut) throw invalid(`audio could not be decoded: ${format} decoding did not finish in time`);
  if (res.code !== 0 || res.stdout.length === 0) {
    throw invalid(`audio could not be decoded: corrupt or truncated ${formatName(format, null)} data`);
  }
}

function toInt16(bytes: Buffer): Int16Array {
  return pcm16MonoToInt16(bytes.length & 1 ? bytes.subarray(0, bytes.length - 1) : bytes);
}

/** Reads "Stream #0:0...: Audio: <codec> ..., <rate> Hz, <layout>, ..." from ffmpeg's log. */
export function probeFfmpegStream(stderr: string): { codec: string | null; sampleRate: number; channels: number } {
  const m = /Stream #\d+:\d+[^:]*: Audio: ([^\s,]+)[^\n]*?, (\d+) Hz, ([^,\n]+)/.exec(stderr);
  if (!m) return { codec: null, sampleRate: 0, channels: 0 };
  const layout = m[3].trim();
  const named: Record<string, number> = { mono: 1, stereo: 2, '2.1': 3, quad: 4, '5.0': 5, '5.1': 6, '7.1': 8 };
  const counted = /^(\d+) channels/.exec(layout);
  const channels = counted ? Number(counted[1]) : named[layout.replace(/\(.*\)$/, '')] ?? 0;
  return { codec: m[1], sampleRate: Number(m[2]), channels };
}

function formatName(format: AudioFormat, codec: string | null): string {
  if (format === 'ogg') return codec ? `ogg-${codec}` : 'ogg';
  if (format === 'webm' && codec) return `webm-${codec}`;
  return format;
}
