/**
 * Voicing decision and Viterbi smoothing over the per-frame F0 candidates.
 *
 * pYIN (Mauch & Dixon 2014, section 2.2) runs one HMM over pitch bins × {voiced, unvoiced}.
 * We split the two decisions, which is cheaper and behaves better on low-bit-rate speech
 * where dips are shallow (measured on the Ekho GSM clips: a joint HMM with a 2% switch
 * probability left 93 of 402 tone-3 clips with fewer than 5 voiced frames and a third of
 * all tone-3 frames voiced; this scheme leaves 13 such clips and half the frames voiced):
 *  1. A frame is voiced when the 3-frame median of its voicing probability (the pYIN prior
 *     mass of thresholds that find a dip) is at least VOICED_MIN. The median removes
 *     one-frame blips and fills one-frame holes.
 *  2. Within each voiced run, Viterbi over the candidates with costs in nats: emission
 *     −ln(p_c / Σp) (the candidates' share of the frame's voicing mass), transition
 *     SEMITONE_COST per semitone of F0 change, saturating at MAX_JUMP_ST (≈ 4.2 nats): any
 *     jump of 6 st or more costs the same, so a run that started on a subharmonic (period
 *     doubling at a creaky onset) can return to the true F0 once the evidence for it is
 *     clearly better, while intonation (< 1 st per 10 ms) is almost free.
 */
import type { Candidates } from './yin.js';

/** Minimum smoothed voicing probability of a voiced frame. White noise stays below 0.01. */
export const VOICED_MIN = 0.1;
const SEMITONE_COST = 0.7;
const MAX_JUMP_ST = 6;
const FLOOR = 1e-6;

export function voicedMask(voicing: Float32Array): Uint8Array {
  const n = voicing.length;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const a = voicing[Math.max(0, i - 1)];
    const b = voicing[i];
    const c = voicing[Math.min(n - 1, i + 1)];
    const med = Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
    out[i] = med >= VOICED_MIN ? 1 : 0;
  }
  return out;
}

/** Returns, per frame, the chosen candidate index, or −1 for unvoiced. */
export function viterbiPath(cands: Candidates, voicing: Float32Array, n: number): Int8Array {
  const voiced = voicedMask(voicing);
  const path = new Int8Array(n).fill(-1);
  let i = 0;
  while (i < n) {
    if (!voiced[i] || cands.count[i] === 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < n && voiced[j] && cands.count[j] > 0) j++;
    decodeRun(cands, voicing, i, j, path);
    i = j;
  }
  return path;
}

/** Viterbi over frames [from, to), all voiced with at least one candidate. */
function decodeRun(cands: Candidates, voicing: Float32Array, from: number, to: number, path: Int8Array): void {
  const K = cands.perFrame;
  const len = to - from;
  const cost = new Float64Array(len * K).fill(Infinity);
  const back = new Int8Array(len * K);
  const semis = (i: number, c: number) => -12 * Math.log2(cands.lag[i * K + c]);
  for (let t = 0; t < len; t++) {
    const i = from + t;
    const pv = Math.max(FLOOR, voicing[i]);
    for (let s = 0; s < cands.count[i]; s++) {
      const emit = -Math.log(Math.max(FLOOR, cands.prob[i * K + s] / pv));
      if (t === 0) {
        cost[s] = emit;
        continue;
      }
      const here = semis(i, s);
      let best = Infinity;
      let arg = 0;
      for (let q = 0; q < cands.count[i - 1]; q++) {
        const v = cost[(t - 1) * K + q] + SEMITONE_COST * Math.min(MAX_JUMP_ST, Math.abs(here - semis(i - 1, q)));
        if (v < best) {
          best = v;
          arg = q;
        }
      }
      cost[t * K + s] = best + emit;
      back[t * K + s] = arg;
    }
  }
  let state = 0;
  for (let s = 1; s < cands.count[to - 1]; s++) if (cost[(len - 1) * K + s] < cost[(len - 1) * K + state]) state = s;
  for (let t = len - 1; t >= 0; t--) {
    path[from + t] = state;
    state = back[t * K + state];
  }
}
