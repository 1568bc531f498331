/**
 * Audio container/codec detection from content (magic bytes), never from a file name.
 * Sources for the signatures: RIFF/WAVE and RF64 (EBU Tech 3306), ISO BMFF `ftyp` box
 * (ISO/IEC 14496-12) with 3GPP brands (3GPP TS 26.244), ADTS header (ISO/IEC 13818-7),
 * AMR storage format magic (RFC 4867 section 5), Ogg page and codec identification headers
 * (RFC 3533, RFC 7845, Vorbis I spec), EBML (Matroska/WebM), FLAC stream marker, ASF header
 * object GUID, MPEG audio frame header (ISO/IEC 11172-3).
 */

export type AudioFormat =
  | 'wav'
  | 'mp3'
  | 'm4a'
  | '3gp'
  | '3gp-amr-nb'
  | '3gp-amr-wb'
  | 'aac'
  | 'amr-nb'
  | 'amr-wb'
  | 'ogg-opus'
  | 'ogg-vorbis'
  | 'ogg'
  | 'webm'
  | 'flac'
  | 'wma';

/** ASF Header Object GUID 75B22630-668E-11CF-A6D9-00AA0062CE6C in its on-disk byte order. */
const ASF_GUID = Buffer.from([
  0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11, 0xa6, 0xd9, 0x00, 0xaa, 0x00, 0x62, 0xce, 0x6c,
]);

function ascii(buf: Buffer, start: number, end: number): string {
  return buf.toString('latin1', start, Math.min(end, buf.length));
}

/** Detects the format, or null when the bytes are not a supported audio container. */
export function detectFormat(buf: Buffer): AudioFormat | null {
  if (buf.length < 4) return null;
  const head4 = ascii(buf, 0, 4);
  if ((head4 === 'RIFF' || head4 === 'RF64') && ascii(buf, 8, 12) === 'WAVE') return 'wav';
  if (buf.length >= 9 && ascii(buf, 0, 9) === '#!AMR-WB\n') return 'amr-wb';
  if (buf.length >= 6 && ascii(buf, 0, 6) === '#!AMR\n') return 'amr-nb';
  if (head4 === 'fLaC') return 'flac';
  if (head4 === 'OggS') return detectOgg(buf);
  if (buf.readUInt32BE(0) === 0x1a45dfa3) return 'webm';
  if (buf.length >= 16 && buf.subarray(0, 16).equals(ASF_GUID)) return 'wma';
  if (buf.length >= 12 && ascii(buf, 4, 8) === 'ftyp') return detectIsoBmff(buf);
  if (ascii(buf, 0, 3) === 'ID3') return 'mp3';
  if (isAdts(buf, 0)) return 'aac';
  if (isMpegAudioFrame(buf, 0)) return 'mp3';
  return null;
}

/** Ogg: the first page carries the codec identification header (RFC 7845 §5.1, Vorbis I §4.2). */
function detectOgg(buf: Buffer): AudioFormat | null {
  if (buf.length < 27) return null;
  const segments = buf[26];
  const payload = 27 + segments;
  if (ascii(buf, payload, payload + 8) === 'OpusHead') return 'ogg-opus';
  if (buf[payload] === 0x01 && ascii(buf, payload + 1, payload + 7) === 'vorbis') return 'ogg-vorbis';
  // Other Ogg codecs (FLAC-in-Ogg, Speex): ffmpeg decodes them; the caller still validates.
  return 'ogg';
}

/**
 * ISO BMFF: brands starting with `3g` are 3GPP. Whether the audio inside is AMR is decided by
 * the sample-entry fourcc (`samr` AMR-NB, `sawb` AMR-WB, TS 26.244 §6.5) found in the `stsd`
 * box; AAC tracks use `mp4a`. A full box walk is not needed: the fourccs are unambiguous.
 */
function detectIsoBmff(buf: Buffer): AudioFormat {
  const brand = ascii(buf, 8, 12);
  const has = (tag: string): boolean => buf.indexOf(tag, 0, 'latin1') >= 0;
  if (has('samr')) return '3gp-amr-nb';
  if (has('sawb')) return '3gp-amr-wb';
  return brand.startsWith('3g') ? '3gp' : 'm4a';
}

/** ADTS: 12-bit sync 0xFFF, layer bits 00, and a plausible frame length (ISO/IEC 13818-7). */
function isAdts(buf: Buffer, at: number): boolean {
  if (buf.length < at + 7) return false;
  if (buf[at] !== 0xff || (buf[at + 1] & 0xf6) !== 0xf0) return false;
  const sfIndex = (buf[at + 2] >> 2) & 0x0f;
  const frameLen = ((buf[at + 3] & 0x03) << 11) | (buf[at + 4] << 3) | (buf[at + 5] >> 5);
  return sfIndex < 13 && frameLen >= 7;
}

/**
 * MPEG-1/2/2.5 audio frame header (11-bit sync, valid version, layer, bitrate and rate).
 * A lone sync word is weak evidence (random data matches ~1/2000), so a second header must
 * follow at the computed frame length when the buffer is long enough.
 */
function isMpegAudioFrame(buf: Buffer, at: number): boolean {
  const len = mpegFrameLength(buf, at);
  if (len === null) return false;
  if (buf.length < at + len + 4) return buf.length < 2 * 1441; // too short to confirm
  return mpegFrameLength(buf, at + len) !== null;
}

const MP3_BITRATES_V1_L3 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const MP3_BITRATES_V2_L3 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const MP3_RATES: Record<number, number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

/** Layer III frame length in bytes, or null when the header is invalid. */
function mpegFrameLength(buf: Buffer, at: number): number | null {
  if (buf.length < at + 4) return null;
  if (buf[at] !== 0xff || (buf[at + 1] & 0xe0) !== 0xe0) return null;
  const version = (buf[at + 1] >> 3) & 0x03; // 3 = MPEG-1, 2 = MPEG-2, 0 = MPEG-2.5
  const layer = (buf[at + 1] >> 1) & 0x03; // 1 = Layer III
  const bitrateIdx = buf[at + 2] >> 4;
  const rateIdx = (buf[at + 2] >> 2) & 0x03;
  if (version === 1 || layer !== 1 || bitrateIdx === 0 || bitrateIdx === 15 || rateIdx === 3) return null;
  const padding = (buf[at + 2] >> 1) & 0x01;
  const rate = MP3_RATES[version][rateIdx];
  const kbps = (version === 3 ? MP3_BITRATES_V1_L3 : MP3_BITRATES_V2_L3)[bitrateIdx];
  const samplesPerFrame = version === 3 ? 1152 : 576;
  return Math.floor((samplesPerFrame / 8) * kbps * 1000 / rate) + padding;
}

/**
 * Sample rate and channel count from the stream header, for the formats decoded without
 * ffmpeg: FLAC STREAMINFO (first metadata block: 20-bit rate, 3-bit channels − 1) and the
 * Vorbis identification header (channels byte, then 32-bit little-endian rate).
 */
export function probeHeader(buf: Buffer, format: AudioFormat): { sampleRate: number; channels: number } | null {
  if (format === 'flac') {
    if (buf.length < 22 || (buf[4] & 0x7f) !== 0) return null; // first block must be STREAMINFO
    const sampleRate = (buf[18] << 12) | (buf[19] << 4) | (buf[20] >> 4);
    const channels = ((buf[20] >> 1) & 0x07) + 1;
    return sampleRate > 0 ? { sampleRate, channels } : null;
  }
  if (format === 'ogg-vorbis') {
    const payload = 27 + buf[26];
    if (buf.length < payload + 16) return null;
    const channels = buf[payload + 11];
    const sampleRate = buf.readUInt32LE(payload + 12);
    return sampleRate > 0 && channels > 0 ? { sampleRate, channels } : null;
  }
  return null;
}
