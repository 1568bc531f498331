/**
 * Streaming intake for the real-time channels (spec "Audio input rules": WebSocket audio is
 * the raw bytes of an audio file cut into chunks, the first chunk carrying the header).
 *
 * Every byte is kept (for storage and for decoding at the end). For WAV, the header is parsed
 * as soon as it is complete and 16 kHz mono PCM is produced while chunks arrive: 16-bit PCM
 * is downmixed by averaging channels and, when not at 16 kHz, resampled in-process with the
 * streaming windowed-sinc resampler of ./resample.ts. Other containers (and WAV encodings
 * other than 16-bit PCM) are decoded by `decodeAudio` at `finish()`.
 * The 10 MB limit is enforced on arrival: the chunk that crosses it throws 40001.
 */
import { invalid } from '../errors.js';
import { decodeAudio, finish as finishDecoded, limitMessage, MAX_AUDIO_BYTES, MAX_AUDIO_SECONDS, MESSAGES, TARGET_RATE, type DecodedAudio } from './decode.js';
import { floatToInt16, SincResampler } from './resample.js';
import { isPcm16, parseWavHeader, pcm16MonoToInt16, pcm16ToMonoFloat, type WavHeader } from './wav.js';

export interface StreamingIntakeOptions {
  maxBytes?: number;
  maxSeconds?: number;
}

export class StreamingIntake {
  // Raw bytes and PCM live in buffers that grow by doubling, so that reading `raw` or
  // `pcmSoFar()` after every chunk costs no copy (views), and appending is amortised O(1).
  private rawBuf: Buffer = Buffer.alloc(64 * 1024);
  private total = 0;
  private readonly maxBytes: number;
  private readonly maxSeconds: number;
  /** 'pending' until the header is decided; 'pcm' for in-process WAV; 'deferred' otherwise. */
  private mode: 'pending' | 'pcm' | 'deferred' = 'pending';
  private header: WavHeader | null = null;
  private consumed = 0; // bytes of the data chunk already converted
  private leftover: Buffer = Buffer.alloc(0); // partial frame awaiting its remaining bytes
  private resampler: SincResampler | null = null;
  private pcmBuf = new Int16Array(16000);
  private pcmLength = 0;

  constructor(opts: StreamingIntakeOptions = {}) {
    this.maxBytes = opts.maxBytes ?? MAX_AUDIO_BYTES;
    this.maxSeconds = opts.maxSeconds ?? MAX_AUDIO_SECONDS;
  }

  /** Appends a chunk; throws 40001 when the upload passes the size limit or has a bad WAV header. */
  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    if (this.total + chunk.length > this.maxBytes) throw invalid(limitMessage(this.maxBytes));
    if (this.total + chunk.length > this.rawBuf.length) {
      const grown = Buffer.alloc(Math.min(this.maxBytes, Math.max(2 * this.rawBuf.length, this.total + chunk.length)));
      this.rawBuf.copy(grown, 0, 0, this.total);
      this.rawBuf = grown;
    }
    chunk.copy(this.rawBuf, this.total);
    this.total += chunk.length;
    if (this.mode === 'pending') this.tryHeader(); // converts the data bytes it has seen
    else if (this.mode === 'pcm') this.convert(chunk);
  }

  get bytes(): number {
    return this.total;
  }

  /** Every byte received so far, in order (a view; later pushes never change its bytes). */
  get raw(): Buffer {
    return this.rawBuf.subarray(0, this.total);
  }

  /**
   * 16 kHz mono PCM decoded so far (16-bit WAV only); null for other formats or before the
   * header is complete. A view: later pushes append after it and never change its samples.
   */
  pcmSoFar(): Int16Array | null {
    if (this.mode !== 'pcm') return null;
    return this.pcmBuf.subarray(0, this.pcmLength);
  }

  /** Seconds of 16 kHz PCM available so far (0 for deferred formats). */
  get secondsSoFar(): number {
    return this.pcmLength / TARGET_RATE;
  }

  /** Completes the intake: the incremental PCM for WAV, otherwise a full decode. */
  async finish(): Promise<DecodedAudio> {
    if (this.total === 0) throw invalid(MESSAGES.empty);
    if (this.mode !== 'pcm' || !this.header) return decodeAudio(this.raw, { maxBytes: this.maxBytes, maxSeconds: this.maxSeconds });
    if (this.resampler) this.append(floatToInt16(this.resampler.flush()));
    this.resampler = null;
    const pcm = this.pcmBuf.slice(0, this.pcmLength);
    const h = this.header;
    return finishDecoded({ pcm, source: { format: 'wav', sampleRate: h.sampleRate, channels: h.channels } }, this.maxSeconds);
  }

  private tryHeader(): void {
    const head = this.raw;
    if (head.length >= 4 && head.toString('latin1', 0, 4) !== 'RIFF' && head.toString('latin1', 0, 4) !== 'RF64') {
      this.mode = 'deferred';
      return;
    }
    const parsed = parseWavHeader(head);
    if (!parsed.ok) {
      if (parsed.reason === 'invalid') throw invalid(`audio could not be decoded: ${parsed.message}`);
      return; // wait for more bytes
    }
    this.header = parsed.header;
    if (!isPcm16(parsed.header)) {
      this.mode = 'deferred';
      return;
    }
    this.mode = 'pcm';
    if (parsed.header.sampleRate !== TARGET_RATE) this.resampler = new SincResampler(parsed.header.sampleRate, TARGET_RATE);
    // Bytes of the data chunk that arrived with the header.
    this.convert(head.subarray(parsed.header.dataOffset));
  }

  /** Converts newly arrived bytes of the data chunk. */
  private convert(bytes: Buffer): void {
    const h = this.header;
    if (!h) return;
    // Ignore anything after the declared data chunk (trailing LIST chunks etc.).
    let usable = bytes;
    if (h.dataBytes !== null) usable = usable.subarray(0, Math.max(0, h.dataBytes - this.consumed));
    this.consumed += usable.length;
    const all = this.leftover.length ? Buffer.concat([this.leftover, usable]) : usable;
    const frameBytes = h.blockAlign;
    const whole = all.length - (all.length % frameBytes);
    this.leftover = Buffer.from(all.subarray(whole));
    if (whole === 0) return;
    const frames = all.subarray(0, whole);
    if (h.channels === 1 && !this.resampler) {
      this.append(pcm16MonoToInt16(frames));
      return;
    }
    const mono = pcm16ToMonoFloat(frames, h.channels);
    this.append(this.resampler ? floatToInt16(this.resampler.push(mono)) : floatToInt16(mono));
  }

  private append(pcm: Int16Array): void {
    if (pcm.length === 0) return;
    if (this.pcmLength + pcm.length > this.pcmBuf.length) {
      const grown = new Int16Array(Math.max(2 * this.pcmBuf.length, this.pcmLength + pcm.length));
      grown.set(this.pcmBuf.subarray(0, this.pcmLength));
      this.pcmBuf = grown;
    }
    this.pcmBuf.set(pcm, this.pcmLength);
    this.pcmLength += pcm.length;
    if (this.pcmLength / TARGET_RATE > this.maxSeconds) throw invalid(MESSAGES.tooLong);
  }
}
