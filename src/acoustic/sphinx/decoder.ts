/**
 * A thin, synchronous wrapper around one PocketSphinx decoder: creation from model paths,
 * dictionary additions, grammar/phone-loop/LM searches, whole-utterance and incremental
 * decoding, and segment read-out in 10 ms frames with natural-log scores.
 *
 * One instance belongs to one thread and serves one utterance at a time.
 */
import koffi from 'koffi';
import type { FastScoring } from '../../config.js';
import { fastScoring, readingScope, sphinx, type Ptr, type ReadingScope, type SphinxLib } from './ffi.js';

/** A whole utterance's cepstra: `frames` rows of `width` coefficients, one after another. */
interface Cepstra {
  data: Float32Array;
  frames: number;
  width: number;
}

/**
 * Cepstra computed for passes of a reading on this thread (the newest last), for its other
 * passes over the same audio: the reading's whole audio and a few windows. The front end
 * (its address) stands for the decoder's options and the warp.
 */
const readingCepstra: { reading: number; frontEnd: bigint; pcm: Int16Array; cepstra: Cepstra }[] = [];
const CEPSTRA_KEPT = 4;

function sameSamples(a: Int16Array, b: Int16Array): boolean {
  return a.length === b.length && Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.byteLength), Buffer.from(b.buffer, b.byteOffset, b.byteLength)) === 0;
}

/** Largest piece of live audio handed to the decoder in one call: 100 ms at 16 kHz. */
const LIVE_SLICE_SAMPLES = 1600;

/** Search scores are logmath values shifted right by SENSCR_SHIFT (hmm.h in 5prealpha). */
const SENSCR_SHIFT = 10;

export interface DecoderOptions {
  /** Acoustic model folder. */
  hmm: string;
  /** Pronunciation dictionary; without one the decoder knows only the model's fillers (enough for the phone loop). */
  dict?: string;
  /** Extra command-line style options, e.g. ['-beam', '1e-80']. */
  args?: string[];
  /** How frames are scored (config.ts `FastScoring`; ffi.ts `fastScoring`); default `off`. */
  fastScoring?: FastScoring;
}

export interface Beams {
  beam: number;
  pbeam: number;
  wbeam: number;
}

/** A decoded word (or phone, in phone searches). Frames are 10 ms, end exclusive. */
export interface DecodedSegment {
  word: string;
  startFrame: number;
  endFrame: number;
  /** Acoustic score, natural log. */
  ascr: number;
  /** Grammar / language-model score, natural log. */
  lscr: number;
}

export interface Hypothesis {
  text: string;
  /** Path score, natural log. */
  score: number;
}

/**
 * Options every decoder gets:
 * - `-remove_silence no`: the voice-activity filter would drop frames and shift timings.
 * - `-remove_noise no`: the spectral noise subtraction keeps its noise estimate from one
 *   utterance to the next, so the same audio scored differently depending on what the decoder
 *   heard before (4 nats on one word here); without it answers do not depend on history.
 * - `-allphone_ci yes`: the free phone loop uses context-independent phones (fast).
 * No `-logfn`: the library's log is one process-wide stream, and every decoder created with
 * `-logfn` opens a new one and closes the previous stream while decoders in other threads may
 * still be writing to it (a use after free that corrupted the heap: "malloc(): unaligned tcache
 * chunk detected", once in a test run with a progress thread starting decoders beside the
 * pool). Logging is switched off once, before any decoder exists (ffi.ts), and stays off.
 */
const BASE_ARGS = ['-remove_silence', 'no', '-allphone_ci', 'yes', '-remove_noise', 'no'];

export class SphinxDecoder {
  private readonly lib: SphinxLib;
  private ps: Ptr | null;
  private readonly lnPerUnit: number;
  private readonly added = new Set<string>();
  /** Front ends with a warped filterbank, by warp factor (decode). */
  private readonly frontEnds = new Map<number, Ptr>();
  /** True when this decoder scores frames with the native evaluation (`DecoderOptions.fastScoring` took effect). */
  readonly fastScoring: boolean;

  /** `share`: set when the passes of a reading share their work (fast scoring `on`), else null. */
  private constructor(lib: SphinxLib, ps: Ptr, fastScoring: boolean, private readonly share: ReadingScope | null = null) {
    this.lib = lib;
    this.ps = ps;
    this.fastScoring = fastScoring;
    const lmath = lib.ps_get_logmath(ps);
    this.lnPerUnit = lib.logmath_log_to_ln(lmath, 1) * (1 << SENSCR_SHIFT);
  }

  /** Loads the model (150-230 ms for the models here). Throws if the library refuses it. */
  static create(opts: DecoderOptions): SphinxDecoder {
    const lib = sphinx();
    const argv = mergeArgs(['-hmm', opts.hmm, ...(opts.dict ? ['-dict', opts.dict] : []), ...BASE_ARGS], opts.args ?? []);
    const config = lib.cmd_ln_parse_r(null, lib.ps_args(), argv.length, argv, 1);
    if (!config) throw new Error(`pocketsphinx rejected the options ${argv.join(' ')}`);
    const ps = lib.ps_init(config);
    // ps_init retains the config; drop our reference either way.
    lib.cmd_ln_free_r(config);
    if (!ps) throw new Error(`pocketsphinx could not load the model at ${opts.hmm}`);
    const mode = opts.fastScoring ?? 'off';
    const fast = mode !== 'off' && (fastScoring()?.(ps, mode === 'on') ?? false);
    return new SphinxDecoder(lib, ps, fast, fast && mode === 'on' ? readingScope() : null);
  }

  private get handle(): Ptr {
    if (!this.ps) throw new Error('decoder already freed');
    return this.ps;
  }

  /** True when the word is in the dictionary (model's or added). */
  hasWord(word: string): boolean {
    return this.added.has(word) || this.lib.ps_lookup_word(this.handle, word) !== null;
  }

  /**
   * Adds a word with a phone sequence. Searches created afterwards see it; pass update=true
   * only when the current search must see it too (it re-initialises that search).
   */
  addWord(word: string, phones: string[], update = false): boolean {
    if (this.added.has(word)) return true;
    const rv = this.lib.ps_add_word(this.handle, word, phones.join(' '), update ? 1 : 0);
    if (rv < 0) return false;
    this.added.add(word);
    return true;
  }

  /** Beams apply to searches created after the call (fsg_search_init reads them). */
  setBeams(beams: Beams): void {
    const config = this.lib.ps_get_config(this.handle);
    this.lib.cmd_ln_set_float_r(config, '-beam', beams.beam);
    this.lib.cmd_ln_set_float_r(config, '-pbeam', beams.pbeam);
    this.lib.cmd_ln_set_float_r(config, '-wbeam', beams.wbeam);
  }

  /** Sets a float option that searches read when they are created (e.g. -wip, -pip). */
  setFloatOption(name: string, value: number): void {
    this.lib.cmd_ln_set_float_r(this.lib.ps_get_config(this.handle), name, value);
  }

  floatOption(name: string): number {
    return this.lib.cmd_ln_float_r(this.lib.ps_get_config(this.handle), name);
  }

  /** Installs (or replaces) a JSGF grammar search under `name` and makes it current. */
  setJsgf(name: string, jsgf: string): void {
    if (this.lib.ps_set_jsgf_string(this.handle, name, jsgf) < 0) {
      throw new Error(`pocketsphinx rejected the grammar ${name}`);
    }
    this.useSearch(name);
  }

  /** Installs an unconstrained phone-loop search (no phone LM) and makes it current. */
  setPhoneLoop(name: string): void {
    if (this.lib.ps_set_allphone(this.handle, name, null) < 0) {
      throw new Error(`pocketsphinx could not create the phone loop ${name}`);
    }
    this.useSearch(name);
  }

  /** Installs an n-gram language model search from a file and makes it current. */
  setLmFile(name: string, path: string): void {
    if (this.lib.ps_set_lm_file(this.handle, name, path) < 0) {
      throw new Error(`pocketsphinx could not load the language model ${path}`);
    }
    this.useSearch(name);
  }

  useSearch(name: string): void {
    if (this.lib.ps_set_search(this.handle, name) < 0) throw new Error(`no search named ${name}`);
  }

  /**
   * Decodes one whole utterance with the current search (batch feature normalisation). A
   * `warp` other than 1 computes the features with the filterbank's frequency axis scaled by
   * 1/warp (vocal tract length normalisation: a warp above 1 brings a shorter vocal tract's
   * higher formants down to where the model expects them), on a front end of its own that is
   * otherwise the decoder's. `reading` (PassOptions.reading): with shared fast scoring, the
   * passes of one reading take each other's top-N lists of identical frames, and the cepstra
   * of audio an earlier pass of the reading on this thread computed (`cepstraOf`).
   */
  decode(pcm: Int16Array, warp = 1, reading?: number): void {
    const share = reading === undefined ? null : this.share;
    share?.(reading!);
    try {
      // The library computes an unwarped utterance's cepstra itself, unless a pass shares them.
      const cepstra = share ? this.cepstraOf(pcm, warp, reading!) : warp === 1 ? null : this.cepstra(this.warpedFrontEnd(warp), pcm);
      this.startUtt();
      if (cepstra) this.processCepstra(cepstra);
      else this.processRaw(pcm, true);
      this.endUtt();
    } finally {
      share?.(0);
    }
  }

  /**
   * The whole utterance's cepstra from a front end, as the library computes them for itself
   * (acmod_process_full_raw): every frame and the partial one at the end. mfcc_t is a 4-byte
   * float (the Debian build is not fixed-point).
   */
  private cepstra(fe: Ptr, pcm: Int16Array): Cepstra {
    const lib = this.lib;
    const count: [number] = [0];
    lib.fe_start_utt(fe);
    lib.fe_process_frames(fe, [null], [pcm.length], null, count, null);
    const rows = count[0] + 1;
    const width = lib.fe_get_output_size(fe);
    const block = lib.fe_create_2d(rows, width, 4);
    const samples = koffi.alloc('int16_t', Math.max(1, pcm.length));
    try {
      koffi.encode(samples, 'int16_t', pcm, pcm.length);
      const frames: [number] = [count[0]];
      if (lib.fe_process_frames(fe, [samples], [pcm.length], block, frames, null) < 0) throw new Error('fe_process_frames failed');
      const tail = new Int32Array(1);
      const lastRow = koffi.decode(block, frames[0] * koffi.sizeof('void *'), 'void *') as Ptr;
      lib.fe_end_utt(fe, lastRow, tail);
      const data = koffi.decode(block, 'void *') as Ptr;
      return { data: new Float32Array(koffi.view(data, rows * width * 4).slice(0)), frames: frames[0] + tail[0], width };
    } finally {
      koffi.free(samples);
      lib.fe_free_2d(block);
    }
  }

  /** Searches the whole utterance on cepstra (a copy: the library normalises them in place). */
  private processCepstra(c: Cepstra): void {
    const rows = Math.max(1, c.frames);
    const block = this.lib.fe_create_2d(rows, c.width, 4);
    try {
      const data = koffi.decode(block, 'void *') as Ptr;
      new Float32Array(koffi.view(data, rows * c.width * 4)).set(c.data.subarray(0, c.frames * c.width));
      if (this.lib.ps_process_cep(this.handle, block, c.frames, 0, 1) < 0) throw new Error('ps_process_cep failed');
    } finally {
      this.lib.fe_free_2d(block);
    }
  }

  /** The cepstra of `pcm` for a pass of `reading`: an earlier pass's on this thread when it had the same audio and warp. */
  private cepstraOf(pcm: Int16Array, warp: number, reading: number): Cepstra {
    const fe = warp === 1 ? this.lib.ps_get_fe(this.handle) : this.warpedFrontEnd(warp);
    const frontEnd = koffi.address(fe);
    const kept = readingCepstra.find((c) => c.reading === reading && c.frontEnd === frontEnd && sameSamples(c.pcm, pcm));
    if (kept) return kept.cepstra;
    const cepstra = this.cepstra(fe, pcm);
    readingCepstra.push({ reading, frontEnd, pcm: pcm.slice(), cepstra });
    if (readingCepstra.length > CEPSTRA_KEPT) readingCepstra.shift();
    return cepstra;
  }

  private warpedFrontEnd(warp: number): Ptr {
    const known = this.frontEnds.get(warp);
    if (known) return known;
    const config = this.lib.ps_get_config(this.handle);
    this.lib.cmd_ln_set_str_r(config, '-warp_type', 'inverse_linear');
    this.lib.cmd_ln_set_str_r(config, '-warp_params', String(warp));
    const fe = this.lib.fe_init_auto_r(config);
    // The decoder's own front end was made before; later searches do not read these options.
    this.lib.cmd_ln_set_str_r(config, '-warp_params', null);
    if (!fe) throw new Error(`pocketsphinx could not make a front end warped by ${warp}`);
    this.frontEnds.set(warp, fe);
    return fe;
  }

  startUtt(): void {
    if (this.lib.ps_start_utt(this.handle) < 0) throw new Error('ps_start_utt failed');
  }

  /**
   * Feeds samples; `fullUtt` says the chunk is the whole utterance. Returns frames searched.
   * Live audio (not `fullUtt`) goes in slices of at most 100 ms: libpocketsphinx 5prealpha's
   * live cepstral mean normalisation (cmn_live) crashed the process when several seconds
   * were fed in one call and more audio followed; slices this size are what a microphone gives.
   */
  processRaw(pcm: Int16Array, fullUtt = false): number {
    if (pcm.length === 0) return 0;
    const step = fullUtt ? pcm.length : LIVE_SLICE_SAMPLES;
    let frames = 0;
    for (let at = 0; at < pcm.length; at += step) {
      const slice = step === pcm.length ? pcm : pcm.subarray(at, at + step);
      const rv = this.lib.ps_process_raw(this.handle, slice, slice.length, 0, fullUtt ? 1 : 0);
      if (rv < 0) throw new Error('ps_process_raw failed');
      frames += rv;
    }
    return frames;
  }

  endUtt(): void {
    if (this.lib.ps_end_utt(this.handle) < 0) throw new Error('ps_end_utt failed');
  }

  /** Frames decoded in the current or last utterance. */
  frames(): number {
    return this.lib.ps_get_n_frames(this.handle);
  }

  /** Best hypothesis so far (partial during an utterance), or null when there is none. */
  hypothesis(): Hypothesis | null {
    const score = new Int32Array(1);
    const text = this.lib.ps_get_hyp(this.handle, score);
    if (text === null) return null;
    return { text, score: score[0] * this.lnPerUnit };
  }

  /** Word (or phone) segments of the best path. */
  segments(): DecodedSegment[] {
    const lib = this.lib;
    const out: DecodedSegment[] = [];
    const sf = new Int32Array(1);
    const ef = new Int32Array(1);
    const ascr = new Int32Array(1);
    const lscr = new Int32Array(1);
    const lback = new Int32Array(1);
    let seg = lib.ps_seg_iter(this.handle, new Int32Array(1));
    while (seg) {
      lib.ps_seg_frames(seg, sf, ef);
      lib.ps_seg_prob(seg, ascr, lscr, lback);
      out.push({
        word: lib.ps_seg_word(seg),
        startFrame: sf[0],
        endFrame: ef[0] + 1,
        ascr: ascr[0] * this.lnPerUnit,
        lscr: lscr[0] * this.lnPerUnit,
      });
      // ps_seg_next frees the iterator when it returns NULL.
      seg = lib.ps_seg_next(seg);
    }
    return out;
  }

  free(): void {
    for (const fe of this.frontEnds.values()) this.lib.fe_free(fe);
    this.frontEnds.clear();
    if (this.ps) this.lib.ps_free(this.ps);
    this.ps = null;
  }
}

/** Later options replace earlier ones of the same name (the parser rejects duplicates). */
function mergeArgs(base: string[], extra: string[]): string[] {
  const options = new Map<string, string>();
  for (const list of [base, extra]) {
    for (let i = 0; i + 1 < list.length; i += 2) options.set(list[i], list[i + 1]);
  }
  return [...options].flat();
}
