/**
 * Word posterior probabilities of the last n-gram decode, read from the word lattice.
 *
 * With `-bestpath yes` (the library default) the segment iterator walks the lattice's best path
 * after a forward-backward pass over the lattice, and `ps_seg_prob` returns each word's posterior
 * probability (as a log in the decoder's logmath base), the standard lattice confidence measure
 * (Wessel et al. 2001, "Confidence measures for large vocabulary continuous speech recognition").
 *
 * `SphinxDecoder.segments()` reads the same iterator but keeps only scores, so the posterior is
 * read here through the binding directly, on the decoder's own handle.
 */
import { sphinx, type Ptr } from './sphinx/ffi.js';
import type { SphinxDecoder } from './sphinx/decoder.js';

export interface WordPosterior {
  word: string;
  /** Probability in [0, 1]. */
  posterior: number;
}

/** The decoder's native handle (kept private by the wrapper). */
function handleOf(decoder: SphinxDecoder): Ptr {
  const handle = (decoder as unknown as { ps: Ptr | null }).ps;
  if (!handle) throw new Error('decoder already freed');
  return handle;
}

export function wordPosteriors(decoder: SphinxDecoder): WordPosterior[] {
  const lib = sphinx();
  const ps = handleOf(decoder);
  const lmath = lib.ps_get_logmath(ps);
  const a = new Int32Array(1);
  const b = new Int32Array(1);
  const c = new Int32Array(1);
  const out: WordPosterior[] = [];
  let seg = lib.ps_seg_iter(ps, new Int32Array(1));
  while (seg) {
    const logPost = lib.ps_seg_prob(seg, a, b, c);
    const posterior = Math.exp(lib.logmath_log_to_ln(lmath, logPost));
    out.push({ word: lib.ps_seg_word(seg), posterior: Math.min(1, Math.max(0, posterior)) });
    // ps_seg_next frees the iterator when it returns NULL.
    seg = lib.ps_seg_next(seg);
  }
  return out;
}
