/**
 * In-process WAV parsing (RIFF/WAVE and RF64, EBU Tech 3306), for the fast path of 16-bit
 * PCM and for streaming intake, where the header arrives in the first chunk and samples
 * follow. Only integer PCM at 16 bits is converted here; every other WAV encoding (float,
 * 24-bit, A-law, ADPCM, ...) goes through ffmpeg.
 */

export interface WavHeader {
  /** 1 = PCM; 0xFFFE (extensible) is reported as its sub-format's tag. */
  formatTag: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  blockAlign: number;
  /** Byte offset of the first sample. */
  dataOffset: number;
  /** Declared size of the data chunk in bytes; null when unknown (streaming writers, RF64). */
  dataBytes: number | null;
}

/** Result of parsing a header prefix: complete, needs more bytes, or not a usable WAV. */
export type WavParse = { ok: true; header: WavHeader } | { ok: false; reason: 'need-more' | 'invalid'; message?: string };

const WAVE_FORMAT_EXTENSIBLE = 0xfffe;
/** Header chunks are tiny; a "header" larger than this is malformed input, not audio. */
const MAX_HEADER_BYTES = 1024 * 1024;

/**
 * Walks the chunk list up to the `data` chunk. Chunks before `data` (LIST, fact, bext, JUNK,
 * ds64 ...) are skipped; RIFF pads odd-sized chunks to even length.
 */
export function parseWavHeader(buf: Buffer): WavParse {
  if (buf.length < 12) return { ok: false, reason: 'need-more' };
  const riff = buf.toString('latin1', 0, 4);
  if ((riff !== 'RIFF' && riff !== 'RF64') || buf.toString('latin1', 8, 12) !== 'WAVE') {
    return { ok: false, reason: 'invalid', message: 'not a RIFF/WAVE file' };
  }
  let pos = 12;
  let fmt: Omit<WavHeader, 'dataOffset' | 'dataBytes'> | null = null;
  let rf64DataSize: number | null = null;
  while (true) {
    if (pos > MAX_HEADER_BYTES) return { ok: false, reason: 'invalid', message: 'WAV header too large' };
    if (buf.length < pos + 8) return { ok: false, reason: 'need-more' };
    const id = buf.toString('latin1', pos, pos + 4);
    const size = buf.readUInt32LE(pos + 4);
    const body = pos + 8;
    if (id === 'data') {
      if (!fmt) return { ok: false, reason: 'invalid', message: 'WAV data chunk before fmt chunk' };
      const unknown = size === 0xffffffff || size === 0 || (riff === 'RF64' && rf64DataSize === null);
      const dataBytes = riff === 'RF64' && rf64DataSize !== null ? rf64DataSize : unknown ? null : size;
      return { ok: true, header: { ...fmt, dataOffset: body, dataBytes } };
    }
    if (buf.length < body + size) return { ok: false, reason: 'need-more' };
    if (id === 'fmt ') {
      if (size < 16) return { ok: false, reason: 'invalid', message: 'WAV fmt chunk too short' };
      fmt = readFmt(buf, body, size);
      if (fmt.channels < 1 || fmt.sampleRate < 1 || fmt.blockAlign < 1) {
        return { ok: false, reason: 'invalid', message: 'WAV fmt chunk has zero channels, rate or block size' };
      }
    } else if (id === 'ds64' && size >= 16) {
      // RF64: 64-bit RIFF size then 64-bit data size (EBU Tech 3306 §3).
      rf64DataSize = Number(buf.readBigUInt64LE(body + 8));
    }
    pos = body + size + (size & 1);
  }
}

function readFmt(buf: Buffer, at: number, size: number): Omit<WavHeader, 'dataOffset' | 'dataBytes'> {
  let formatTag = buf.readUInt16LE(at);
  if (formatTag === WAVE_FORMAT_EXTENSIBLE && size >= 40) {
    // The sub-format GUID starts with the actual format tag (KSDATAFORMAT_SUBTYPE_PCM = 1).
    formatTag = buf.readUInt16LE(at + 24);
  }
  return {
    formatTag,
    channels: buf.readUInt16LE(at + 2),
    sampleRate: buf.readUInt32LE(at + 4),
    blockAlign: buf.readUInt16LE(at + 12),
    bitsPerSample: buf.readUInt16LE(at + 14),
  };
}

/** True when the samples can be converted in-process (16-bit integer PCM, any channels/rate). */
export function isPcm16(h: WavHeader): boolean {
  return h.formatTag === 1 && h.bitsPerSample === 16 && h.blockAlign === 2 * h.channels;
}

/**
 * Interleaved 16-bit little-endian frames to mono float samples in [-1, 1), averaging the
 * channels (the same downmix ffmpeg's `-ac 1` applies). Only whole frames are read.
 */
export function pcm16ToMonoFloat(bytes: Buffer, channels: number): Float32Array {
  const frames = Math.floor(bytes.length / (2 * channels));
  const out = new Float32Array(frames);
  const scale = 1 / (32768 * channels);
  for (let i = 0, o = 0; i < frames; i++) {
    let sum = 0;
    for (let c = 0; c < channels; c++, o += 2) sum += bytes.readInt16LE(o);
    out[i] = sum * scale;
  }
  return out;
}

const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Mono 16-bit little-endian bytes to an Int16Array copy (aligned, platform-independent). */
export function pcm16MonoToInt16(bytes: Buffer): Int16Array {
  const n = bytes.length >> 1;
  const out = new Int16Array(n);
  if (LITTLE_ENDIAN_HOST) {
    // One memcpy instead of a per-sample read: about 20× faster on long files.
    new Uint8Array(out.buffer).set(bytes.subarray(0, 2 * n));
    return out;
  }
  for (let i = 0; i < n; i++) out[i] = bytes.readInt16LE(2 * i);
  return out;
}
