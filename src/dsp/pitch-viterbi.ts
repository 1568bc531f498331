/**
 * Viterbi smoothing over the per-frame F0 candidates plus one unvoiced state, in the spirit of
 * pYIN's HMM (Mauch & Dixon 2014, section 2.2) but over a handful of candidates per frame
 * instead of 480 pitch bins.
 *
 * Costs are negative log probabilities (nats):
 *  - emission of candidate c: −ln p_c; of the unvoiced state: −ln(1 − Σ p_c);
 *  - voiced → voiced: SEMITONE_COST per semitone of F0 change (an octave costs ≈ 8.4 nats,
 *    so a jump needs clearly better evidence, while intonation moves < 1 st per 10 ms);
 *  - voiced ↔ unvoiced switch: −ln 0.02, so one-frame voicing blips need strong evidence.
 */
import type { Candidates } from './yin.js';

const SEMITONE_COST = 0.7;
const SWITCH_COST = -Math.log(0.02);
const FLOOR = 1e-5;

/** Returns, per frame, the chosen candidate index, or −1 for unvoiced. */
export function viterbiPath(cands: Candidates, voicing: Float32Array, n: number): Int8Array {
  const K = cands.perFrame;
  const S = K + 1; // slot K is the unvoiced state
  const cost = new Float64Array(n * S).fill(Infinity);
  const back = new Int8Array(n * S).fill(-1);
  const semis = new Float32Array(n * K); // candidate F0 in semitones (lag → −12·log2 lag)
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < cands.count[i]; c++) semis[i * K + c] = -12 * Math.log2(cands.lag[i * K + c]);
  }
  for (let i = 0; i < n; i++) {
    const cnt = cands.count[i];
    const uvEmit = -Math.log(Math.max(FLOOR, 1 - voicing[i]));
    for (let s = 0; s < S; s++) {
      const voiced = s < K;
      if (voiced && s >= cnt) continue;
      const emit = voiced ? -Math.log(Math.max(FLOOR, cands.prob[i * K + s])) : uvEmit;
      if (i === 0) {
        cost[s] = emit;
        continue;
      }
      let best = Infinity;
      let arg = -1;
      const prev = (i - 1) * S;
      const pcnt = cands.count[i - 1];
      for (let q = 0; q < pcnt; q++) {
        const trans = voiced ? SEMITONE_COST * Math.abs(semis[i * K + s] - semis[(i - 1) * K + q]) : SWITCH_COST;
        const v = cost[prev + q] + trans;
        if (v < best) {
          best = v;
          arg = q;
        }
      }
      const fromUv = cost[prev + K] + (voiced ? SWITCH_COST : 0);
      if (fromUv < best) {
        best = fromUv;
        arg = K;
      }
      cost[i * S + s] = best + emit;
      back[i * S + s] = arg;
    }
  }
  const path = new Int8Array(n);
  let state = K;
  let bestEnd = Infinity;
  for (let s = 0; s < S; s++) {
    if (cost[(n - 1) * S + s] < bestEnd) {
      bestEnd = cost[(n - 1) * S + s];
      state = s;
    }
  }
  for (let i = n - 1; i >= 0; i--) {
    path[i] = state === K ? -1 : state;
    if (i > 0) state = back[i * S + state];
  }
  return path;
}
