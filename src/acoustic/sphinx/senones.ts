/**
 * Senone scores computed once, searched many times.
 *
 * Nearly all of a decoding pass's CPU is the acoustic model scoring its frames, not the search:
 * the English free phone loop of a 5 s sentence takes about 145 ms, and the same loop searched
 * on a dump of the scores it computed about 5 ms. The library can write the scores it computes
 * (`acmod_set_senfh`) and search an utterance on such a dump instead of audio
 * (`ps_decode_senscr`). A dump of every senone of the model serves every search over the same
 * audio: the word pass, the phone pass, the free loop and the repeat decode, and, sliced, the
 * windows of the rescue and of the extra-speech checks.
 *
 * Each frame's scores are normalised by its best senone, here the best of all senones (a pass
 * computing its own scores normalises by the best it computed, so the scores, and GOP, of the
 * two ways differ; the path a search takes does not).
 *
 * The dump is computed in pieces of the utterance that give the same bytes as the whole:
 * cepstra from the decoder's own front end over the whole audio, the library's own batch mean
 * normalisation over all of them, and each piece's frames with FEATURE_CONTEXT frames of
 * context on each side fed to a scoring decoder whose feature parameters leave the mean alone
 * (`-cmn none`). The pieces can run on different threads (the backend's pool).
 *
 * The dump format is the library's: a text header ending in `endhdr\n` and a 4-byte byte-order
 * mark, then per frame a 16-bit count of senones followed by the 16-bit score of each.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import koffi from 'koffi';
import { SphinxDecoder } from './decoder.js';
import { sphinx, type Ptr, type SphinxLib } from './ffi.js';

/** Frames of context a piece needs on each side: the dynamic features of 1s_c_d_dd reach 3. */
export const FEATURE_CONTEXT = 4;
/** Cepstral coefficients per frame (the models' `-ceplen`). */
const CEPLEN = 13;
const SAMPLES_PER_FRAME = 160;

/** Byte offsets inside ps_decoder_s (5prealpha): config, refcount, acmod, dict, d2p, lmath. */
const ACMOD_OFFSET = 16;
const LMATH_OFFSET = 40;

/** Where a dump's frames start, how long one frame's record is, and how many frames it holds. */
export interface DumpLayout {
  headerBytes: number;
  recordBytes: number;
  frames: number;
}

export function dumpLayout(dump: Uint8Array): DumpLayout {
  const end = Buffer.from(dump.buffer, dump.byteOffset, Math.min(dump.length, 4096)).indexOf('endhdr\n');
  if (end < 0) throw new Error('not a senone dump: no header end');
  const headerBytes = end + 'endhdr\n'.length + 4;
  if (dump.length === headerBytes) return { headerBytes, recordBytes: 0, frames: 0 };
  const view = new DataView(dump.buffer, dump.byteOffset, dump.length);
  const recordBytes = 2 + 2 * view.getInt16(headerBytes, true);
  return { headerBytes, recordBytes, frames: (dump.length - headerBytes) / recordBytes };
}

/** Frames [start, end) of a dump as a dump of their own (clamped to the frames it has). */
export function sliceDump(dump: Uint8Array, start: number, end: number): Uint8Array {
  const { headerBytes, recordBytes, frames } = dumpLayout(dump);
  const from = Math.max(0, Math.min(frames, start));
  const to = Math.max(from, Math.min(frames, end));
  const out = new Uint8Array(headerBytes + (to - from) * recordBytes);
  out.set(dump.subarray(0, headerBytes));
  out.set(dump.subarray(headerBytes + from * recordBytes, headerBytes + to * recordBytes), headerBytes);
  return out;
}

/** Dumps of consecutive pieces joined into one (the first one's header). */
export function joinDumps(pieces: readonly Uint8Array[]): Uint8Array {
  const { headerBytes } = dumpLayout(pieces[0]);
  const out = new Uint8Array(pieces.reduce((n, p) => n + p.length - headerBytes, headerBytes));
  out.set(pieces[0].subarray(0, headerBytes));
  let at = headerBytes;
  for (const p of pieces) {
    out.set(p.subarray(headerBytes), at);
    at += p.length - headerBytes;
  }
  return out;
}

/** Frames of the audio's dump: those the decoder's front end gives for the whole audio, the last partial one included. */
export function dumpFrames(samples: number): number {
  return samples < 400 ? 0 : Math.floor((samples - 400) / SAMPLES_PER_FRAME) + 2;
}

/** A decoder that scores every senone of frames it is given as cepstra: the dump's producer. */
export class SenoneScorer {
  private constructor(
    private readonly lib: SphinxLib,
    private readonly decoder: SphinxDecoder,
    private readonly ps: Ptr,
    private readonly acmod: Ptr,
  ) {}

  /**
   * Loads the model a second time with every senone scored and the feature mean left alone
   * (the cepstra arrive normalised over the whole audio); its own free phone loop drives it.
   */
  static create(hmm: string, dict: string): SenoneScorer {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kouyu-featparams-'));
    try {
      const params = fs.readFileSync(path.join(hmm, 'feat.params'), 'utf8');
      if (!/^-cmn batch$/m.test(params)) throw new Error(`${hmm}: senone dumps need a model with batch mean normalisation`);
      const file = path.join(dir, 'feat.params');
      fs.writeFileSync(file, params.replace(/^-cmn batch$/m, '-cmn none'));
      const decoder = SphinxDecoder.create({ hmm, dict, args: ['-compallsen', 'yes', '-featparams', file] });
      decoder.setPhoneLoop('score');
      const lib = sphinx();
      const ps = decoder.nativeHandle();
      if (koffi.address(koffi.decode(ps, LMATH_OFFSET, 'void *')) !== koffi.address(lib.ps_get_logmath(ps))) {
        decoder.free();
        throw new Error('libpocketsphinx has another decoder layout than 5prealpha: senone dumps are not available');
      }
      return new SenoneScorer(lib, decoder, ps, koffi.decode(ps, ACMOD_OFFSET, 'void *'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  /**
   * The dump of frames [start, end) of `pcm` (clamped to its frames), with the features the
   * decoder gives them when it decodes the whole of `pcm` at once.
   */
  score(pcm: Int16Array, start = 0, end = Number.POSITIVE_INFINITY): Uint8Array {
    const cep = this.cepstra(pcm);
    try {
      const from = Math.max(0, Math.min(cep.frames, start));
      const to = Math.max(from, Math.min(cep.frames, end));
      const lo = Math.max(0, from - FEATURE_CONTEXT);
      const hi = Math.min(cep.frames, to + FEATURE_CONTEXT);
      const dump = this.dumpOf(cep.rows.subarray(lo, hi));
      return sliceDump(dump, from - lo, to - lo);
    } finally {
      koffi.free(cep.memory);
    }
  }

  free(): void {
    this.decoder.free();
  }

  /** Cepstra of the whole audio as the decoder's batch path computes them, mean-normalised. */
  private cepstra(pcm: Int16Array): { rows: BigUint64Array; frames: number; memory: Ptr } {
    const lib = this.lib;
    const capacity = Math.floor(pcm.length / SAMPLES_PER_FRAME) + 2;
    // One block: the samples, then the cepstra (the library writes frames through row pointers).
    const memory = koffi.alloc('uint8_t', pcm.length * 2 + capacity * CEPLEN * 4);
    const base = BigInt(koffi.address(memory));
    new Int16Array(koffi.view(memory, pcm.length * 2)).set(pcm);
    const cepBase = base + BigInt(pcm.length * 2);
    const rows = new BigUint64Array(capacity);
    for (let i = 0; i < capacity; i++) rows[i] = cepBase + BigInt(i * CEPLEN * 4);
    const fe = lib.ps_get_fe(this.ps);
    const frames = new Int32Array([capacity]);
    lib.fe_start_utt(fe);
    if (lib.fe_process_frames(fe, new BigUint64Array([base]), new BigUint64Array([BigInt(pcm.length)]), rows, frames, null) < 0) {
      koffi.free(memory);
      throw new Error('the front end could not process the audio');
    }
    let n = frames[0];
    const tail = new Int32Array(1);
    lib.fe_end_utt(fe, koffi.decode(rows.subarray(n, n + 1), 'void *'), tail);
    n += tail[0];
    if (n > 0) {
      const mean = lib.cmn_init(CEPLEN);
      lib.cmn(mean, rows, 0, n);
      lib.cmn_free(mean);
    }
    return { rows: rows.subarray(0, n), frames: n, memory };
  }

  /** The scoring decoder's dump of consecutive cepstral frames decoded as one utterance. */
  private dumpOf(rows: BigUint64Array): Uint8Array {
    const lib = this.lib;
    const bufferCell = koffi.alloc('void *', 1);
    const sizeCell = koffi.alloc('size_t', 1);
    let data: Ptr = null;
    try {
      const stream = lib.open_memstream(bufferCell, sizeCell);
      if (!stream) throw new Error('could not open a memory stream for the senone dump');
      lib.acmod_set_senfh(this.acmod, stream);
      this.decoder.startUtt();
      const searched = lib.ps_process_cep(this.ps, rows, rows.length, 0, 1);
      // Ending the utterance closes the stream, which fixes its buffer and length.
      this.decoder.endUtt();
      data = koffi.decode(bufferCell, 'void *');
      if (searched < 0) throw new Error('the scoring decoder could not process the features');
      const size = Number(koffi.decode(sizeCell, 'size_t'));
      return new Uint8Array(koffi.view(data, size)).slice();
    } finally {
      if (data) lib.free(data);
      koffi.free(bufferCell);
      koffi.free(sizeCell);
    }
  }
}
