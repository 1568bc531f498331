/**
 * koffi binding to Debian's libpocketsphinx3 (0.8+5prealpha) and libsphinxbase3.
 *
 * Only the symbols the backend uses are declared; signatures follow the 5prealpha headers
 * (pocketsphinx.h, ps_search.h, cmd_ln.h, logmath.h, err.h), checked against `nm -D` of the
 * installed libraries. Pointers to library objects stay opaque. Every call is synchronous and
 * must run in a worker thread, never on the event loop of the HTTP server.
 */
import koffi from 'koffi';
import { nativeLibrary } from '../../native.js';

const LIB_SPHINXBASE = 'libsphinxbase.so.3';
const LIB_POCKETSPHINX = 'libpocketsphinx.so.3';

/** Opaque handles (decoder, config, segment iterator, logmath table, n-gram model). */
export type Ptr = unknown;

export interface SphinxLib {
  /** arg_t const *ps_args(void): the decoder's option definitions. */
  ps_args(): Ptr;
  /** cmd_ln_t *cmd_ln_parse_r(cmd_ln_t *inout, arg_t const *defn, int32 argc, char *argv[], int32 strict) */
  cmd_ln_parse_r(inout: Ptr | null, defn: Ptr, argc: number, argv: string[], strict: number): Ptr | null;
  cmd_ln_free_r(config: Ptr): number;
  cmd_ln_set_float_r(config: Ptr, name: string, value: number): void;
  cmd_ln_float_r(config: Ptr, name: string): number;
  /**
   * Sends library logging nowhere (NULL stream disables it). The stream is one global of the
   * library shared by all threads; nothing may reopen it (no `-logfn`, see decoder.ts).
   */
  err_set_logfp(fp: Ptr | null): void;
  ps_init(config: Ptr): Ptr | null;
  ps_free(ps: Ptr): number;
  ps_get_config(ps: Ptr): Ptr;
  ps_get_logmath(ps: Ptr): Ptr;
  /** int ps_add_word(ps, word, phones (space separated), update) */
  ps_add_word(ps: Ptr, word: string, phones: string, update: number): number;
  /** char *ps_lookup_word(ps, word): space-separated phones or NULL; owned by the caller. */
  ps_lookup_word(ps: Ptr, word: string): string | null;
  ps_set_jsgf_string(ps: Ptr, name: string, jsgf: string): number;
  ps_set_allphone(ps: Ptr, name: string, lm: Ptr | null): number;
  ps_set_lm_file(ps: Ptr, name: string, path: string): number;
  ps_set_search(ps: Ptr, name: string): number;
  ps_get_search(ps: Ptr): string | null;
  ps_unset_search(ps: Ptr, name: string): number;
  ps_start_utt(ps: Ptr): number;
  /** int ps_process_raw(ps, int16 const *data, size_t n_samples, int no_search, int full_utt) */
  ps_process_raw(ps: Ptr, data: Int16Array, nSamples: number, noSearch: number, fullUtt: number): number;
  ps_end_utt(ps: Ptr): number;
  ps_get_in_speech(ps: Ptr): number;
  /** char const *ps_get_hyp(ps, int32 *out_best_score) */
  ps_get_hyp(ps: Ptr, outBestScore: Int32Array): string | null;
  ps_get_prob(ps: Ptr): number;
  ps_get_n_frames(ps: Ptr): number;
  /**
   * ps_seg_t *ps_seg_iter(ps): 5prealpha takes one argument, 0.8 took a second
   * `int32 *out_best_score`; the extra pointer is declared so either ABI is safe to call.
   */
  ps_seg_iter(ps: Ptr, outBestScore: Int32Array): Ptr | null;
  ps_seg_next(seg: Ptr): Ptr | null;
  ps_seg_word(seg: Ptr): string;
  /** void ps_seg_frames(seg, int *out_sf, int *out_ef): end frame inclusive. */
  ps_seg_frames(seg: Ptr, outSf: Int32Array, outEf: Int32Array): void;
  /** int32 ps_seg_prob(seg, int32 *out_ascr, int32 *out_lscr, int32 *out_lback) */
  ps_seg_prob(seg: Ptr, outAscr: Int32Array, outLscr: Int32Array, outLback: Int32Array): number;
  ps_seg_free(seg: Ptr): void;
  /** fe_t *ps_get_fe(ps): the decoder's own front end. */
  ps_get_fe(ps: Ptr): Ptr;
  /** int ps_process_cep(ps, mfcc_t **data, int n_frames, int no_search, int full_utt) */
  ps_process_cep(ps: Ptr, data: Ptr, nFrames: number, noSearch: number, fullUtt: number): number;
  cmd_ln_set_str_r(config: Ptr, name: string, value: string | null): void;
  /** fe_t *fe_init_auto_r(cmd_ln_t *config): a front end of its own from a decoder's options. */
  fe_init_auto_r(config: Ptr): Ptr | null;
  fe_free(fe: Ptr): number;
  /** Cepstral coefficients per frame. */
  fe_get_output_size(fe: Ptr): number;
  fe_start_utt(fe: Ptr): number;
  /**
   * int fe_process_frames(fe, int16 const **inout_spch, size_t *inout_nsamps, mfcc_t **buf_cep,
   * int32 *inout_nframes, int32 *out_frameidx); with a null buffer it counts the frames.
   */
  fe_process_frames(fe: Ptr, spch: [Ptr | null], nSamples: [number], cep: Ptr | null, nFrames: [number], frameIdx: null): number;
  /** int fe_end_utt(fe, mfcc_t *out_cepvector, int32 *out_nframes): the last, partial frame. */
  fe_end_utt(fe: Ptr, cep: Ptr, nFrames: Int32Array): number;
  /** void *fe_create_2d(int32 d1, int32 d2, int32 elem_size): rows of d2 elements, as mfcc_t ** */
  fe_create_2d(rows: number, cols: number, elemSize: number): Ptr;
  fe_free_2d(block: Ptr): void;
  /** Converts a log value of the decoder's logmath table to a natural log. */
  logmath_log_to_ln(lmath: Ptr, logb: number): number;
  logmath_get_shift(lmath: Ptr): number;
}

let cached: SphinxLib | null = null;

/** Loads the libraries once per thread and declares the functions. */
export function sphinx(): SphinxLib {
  if (cached) return cached;
  const base = koffi.load(LIB_SPHINXBASE);
  const ps = koffi.load(LIB_POCKETSPHINX);
  cached = {
    ps_args: ps.func('void *ps_args()'),
    cmd_ln_parse_r: base.func('void *cmd_ln_parse_r(void *inout, void *defn, int32_t argc, const char **argv, int32_t strict)'),
    cmd_ln_free_r: base.func('int cmd_ln_free_r(void *config)'),
    cmd_ln_set_float_r: base.func('void cmd_ln_set_float_r(void *config, const char *name, double value)'),
    cmd_ln_float_r: base.func('double cmd_ln_float_r(void *config, const char *name)'),
    err_set_logfp: base.func('void err_set_logfp(void *fp)'),
    ps_init: ps.func('void *ps_init(void *config)'),
    ps_free: ps.func('int ps_free(void *ps)'),
    ps_get_config: ps.func('void *ps_get_config(void *ps)'),
    ps_get_logmath: ps.func('void *ps_get_logmath(void *ps)'),
    ps_add_word: ps.func('int ps_add_word(void *ps, const char *word, const char *phones, int update)'),
    ps_lookup_word: ps.func('char *ps_lookup_word(void *ps, const char *word)'),
    ps_set_jsgf_string: ps.func('int ps_set_jsgf_string(void *ps, const char *name, const char *jsgf)'),
    ps_set_allphone: ps.func('int ps_set_allphone(void *ps, const char *name, void *lm)'),
    ps_set_lm_file: ps.func('int ps_set_lm_file(void *ps, const char *name, const char *path)'),
    ps_set_search: ps.func('int ps_set_search(void *ps, const char *name)'),
    ps_get_search: ps.func('const char *ps_get_search(void *ps)'),
    ps_unset_search: ps.func('int ps_unset_search(void *ps, const char *name)'),
    ps_start_utt: ps.func('int ps_start_utt(void *ps)'),
    ps_process_raw: ps.func('int ps_process_raw(void *ps, const int16_t *data, size_t n, int no_search, int full_utt)'),
    ps_end_utt: ps.func('int ps_end_utt(void *ps)'),
    ps_get_in_speech: ps.func('uint8_t ps_get_in_speech(void *ps)'),
    ps_get_hyp: ps.func('const char *ps_get_hyp(void *ps, _Out_ int32_t *out_best_score)'),
    ps_get_prob: ps.func('int32_t ps_get_prob(void *ps)'),
    ps_get_n_frames: ps.func('int ps_get_n_frames(void *ps)'),
    ps_seg_iter: ps.func('void *ps_seg_iter(void *ps, _Out_ int32_t *out_best_score)'),
    ps_seg_next: ps.func('void *ps_seg_next(void *seg)'),
    ps_seg_word: ps.func('const char *ps_seg_word(void *seg)'),
    ps_seg_frames: ps.func('void ps_seg_frames(void *seg, _Out_ int *out_sf, _Out_ int *out_ef)'),
    ps_seg_prob: ps.func('int32_t ps_seg_prob(void *seg, _Out_ int32_t *ascr, _Out_ int32_t *lscr, _Out_ int32_t *lback)'),
    ps_seg_free: ps.func('void ps_seg_free(void *seg)'),
    ps_get_fe: ps.func('void *ps_get_fe(void *ps)'),
    ps_process_cep: ps.func('int ps_process_cep(void *ps, void *data, int n_frames, int no_search, int full_utt)'),
    cmd_ln_set_str_r: base.func('void cmd_ln_set_str_r(void *config, const char *name, const char *value)'),
    fe_init_auto_r: base.func('void *fe_init_auto_r(void *config)'),
    fe_free: base.func('int fe_free(void *fe)'),
    fe_get_output_size: base.func('int fe_get_output_size(void *fe)'),
    fe_start_utt: base.func('int fe_start_utt(void *fe)'),
    fe_process_frames: base.func('int fe_process_frames(void *fe, _Inout_ void **spch, _Inout_ size_t *nsamps, void *buf, _Inout_ int32_t *nframes, void *idx)'),
    fe_end_utt: base.func('int fe_end_utt(void *fe, void *cep, _Out_ int32_t *nframes)'),
    fe_create_2d: base.func('void *fe_create_2d(int32_t d1, int32_t d2, int32_t elem)'),
    fe_free_2d: base.func('void fe_free_2d(void *p)'),
    logmath_log_to_ln: base.func('double logmath_log_to_ln(void *lmath, int logb)'),
    logmath_get_shift: base.func('int logmath_get_shift(void *lmath)'),
  };
  cached.err_set_logfp(null);
  return cached;
}

/**
 * Installs the exact, vectorised codebook evaluation (native/fast-scoring.c) in a decoder of a
 * phonetically-tied or semi-continuous model: the same scores as the library's own, bit for
 * bit, for less CPU. With `shared`, a phonetically-tied model's top-N lists are shared between
 * the passes of one reading (`readingScope`) over the same frames, on any thread.
 * Null when the native piece is not built (`npm run build` compiles it where a C compiler
 * exists).
 */
export type FastScoringInstaller = (ps: Ptr, shared: boolean) => boolean;

/** Sets the calling thread's reading (0: none) for the shared lists of the passes that follow. */
export type ReadingScope = (reading: number) => void;

interface NativeScoring {
  install: FastScoringInstaller;
  scope: ReadingScope;
  shared: () => number;
  check: (mode: HistoryCheck) => void;
  histories: () => { checked: number; wrong: number };
}

let native: NativeScoring | null | undefined;

function nativeScoring(): typeof native {
  if (native !== undefined) return native;
  native = null;
  const file = nativeLibrary('libkouyu-scoring.so');
  if (file) {
    sphinx();
    const lib = koffi.load(file);
    const install = lib.func('int kps_install(void *ps, int share)');
    const scope = lib.func('void kps_reading(double reading)');
    const shared = lib.func('double kps_lists_shared(void)');
    const check = lib.func('void kps_check(int mode)');
    const checked = lib.func('double kps_histories_checked(void)');
    const wrong = lib.func('double kps_histories_wrong(void)');
    native = {
      install: (ps, share) => install(ps, share ? 1 : 0) === 1,
      scope: (reading) => scope(reading),
      shared: () => shared(),
      check: (mode) => check(mode === 'off' ? 0 : mode === 'on' ? 1 : 2),
      histories: () => ({ checked: checked(), wrong: wrong() }),
    };
  }
  return native;
}

export function fastScoring(): FastScoringInstaller | null {
  return nativeScoring()?.install ?? null;
}

export function readingScope(): ReadingScope | null {
  return nativeScoring()?.scope ?? null;
}

/** How many codebook top-N lists the calling thread's passes took from earlier passes (0 without the native piece). */
export function listsShared(): number {
  return nativeScoring()?.shared() ?? 0;
}

/**
 * For tests: decoders made while the check is on also keep every codebook's top-N list as the
 * library does, and compare each list left behind while its codebook was inactive with it when
 * it is brought up to date (docs/acoustic.md, "Inactive codebooks left behind"); `scanned`
 * checks the same with every list scanned, none found directly (as without AVX2).
 */
export type HistoryCheck = 'off' | 'on' | 'scanned';

export function checkHistories(mode: HistoryCheck): void {
  nativeScoring()?.check(mode);
}

/** Lists brought up to date under the check, and how many differed from the library's. */
export function historiesChecked(): { checked: number; wrong: number } {
  return nativeScoring()?.histories() ?? { checked: 0, wrong: 0 };
}

