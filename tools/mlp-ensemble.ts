/**
 * Training of the engines' small classifiers (src/classify/ensemble.ts: the tones of
 * src/zh/tone, the initials and finals of src/zh/parts, the English phones of
 * src/en/phone-spectrum): an ensemble of perceptrons, one
 * per fold of the utterances, each trained on the other folds and stopped early when its own
 * fold's cross-entropy stops falling (so the members differ in data as well as initialisation,
 * and the stopping point is never chosen on the data a figure is reported on). Each member:
 * cross-entropy, Adam (Kingma & Ba 2015) on mini-batches, L2 weight decay, seeded
 * initialisation and shuffling. Weights are rounded to 4 decimals so model.json stays small.
 */
import { netForward, standardised, type Ensemble, type Net } from '../src/classify/ensemble.js';

export type Weights = Ensemble;
export interface Example {
  x: number[];
  y: number;
  /** Utterance index: folds never split an utterance. */
  utt: number;
}

export interface TrainOptions {
  hidden: number;
  /** Most epochs per member. */
  epochs: number;
  /** Members (folds). */
  folds: number;
  seed: number;
  rate?: number;
  l2?: number;
  /** Epochs without a better fold loss before a member stops. */
  patience?: number;
  /** Classes (default 4: the tones). */
  classes?: number;
}

function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

function standardise(xs: number[][]): { mean: number[]; std: number[] } {
  const d = xs[0].length;
  const mean = new Array<number>(d).fill(0);
  const std = new Array<number>(d).fill(0);
  for (const x of xs) x.forEach((v, i) => (mean[i] += v / xs.length));
  for (const x of xs) x.forEach((v, i) => (std[i] += (v - mean[i]) ** 2 / xs.length));
  return { mean, std: std.map((v) => Math.sqrt(v) || 1) };
}

const round = (v: number) => Math.round(v * 1e4) / 1e4;
const copy = (n: Net): Net => ({ w1: n.w1.map((w) => [...w]), b1: [...n.b1], w2: n.w2.map((w) => [...w]), b2: [...n.b2] });

export function trainEnsemble(data: Example[], o: TrainOptions): Weights {
  const { mean, std } = standardise(data.map((s) => s.x));
  const rank = new Map([...new Set(data.map((s) => s.utt))].map((u, i) => [u, i]));
  const z = data.map((s) => ({ z: standardised({ mean, std }, s.x), y: s.y, fold: rank.get(s.utt)! % o.folds }));
  const nets: Net[] = [];
  for (let f = 0; f < o.folds; f++) {
    nets.push(
      trainNet(
        z.filter((s) => s.fold !== f),
        z.filter((s) => s.fold === f),
        o,
        o.seed + f,
      ),
    );
  }
  return { mean: mean.map(round), std: std.map(round), nets: nets.map((n) => ({ w1: n.w1.map((w) => w.map(round)), b1: n.b1.map(round), w2: n.w2.map((w) => w.map(round)), b2: n.b2.map(round) })) };
}

type Standardised = { z: Float64Array; y: number };

function loss(net: Net, data: Standardised[]): number {
  let sum = 0;
  for (const s of data) sum -= Math.log(Math.max(1e-9, netForward(net, s.z).probs[s.y]));
  return sum / data.length;
}

function trainNet(train: Standardised[], stop: Standardised[], o: TrainOptions, seed: number): Net {
  const rand = rng(seed);
  const d = train[0].z.length;
  const H = o.hidden;
  const C = o.classes ?? 4;
  const rate = o.rate ?? 0.01;
  const l2 = o.l2 ?? 1e-4;
  const init = (n: number, fan: number) => Array.from({ length: n }, () => (rand() * 2 - 1) * Math.sqrt(3 / fan));
  const net: Net = { w1: Array.from({ length: H }, () => init(d, d)), b1: new Array(H).fill(0), w2: Array.from({ length: C }, () => init(H, H)), b2: new Array(C).fill(0) };
  const params = [...net.w1, net.b1, ...net.w2, net.b2];
  const adam = params.map((p) => ({ m: new Float64Array(p.length), v: new Float64Array(p.length) }));
  let t = 0;
  const order = train.map((_, i) => i);
  let best = { loss: loss(net, stop), net: copy(net), epoch: 0 };
  for (let epoch = 1; epoch <= o.epochs && epoch - best.epoch <= (o.patience ?? 5); epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (let b = 0; b < order.length; b += 32) {
      const grads = params.map((p) => new Float64Array(p.length));
      const batch = order.slice(b, b + 32);
      for (const idx of batch) backprop(net, train[idx], grads, H, C);
      t++;
      params.forEach((p, pi) => {
        const g = grads[pi];
        const st = adam[pi];
        for (let k = 0; k < p.length; k++) {
          const gk = g[k] / batch.length + l2 * p[k];
          st.m[k] = 0.9 * st.m[k] + 0.1 * gk;
          st.v[k] = 0.999 * st.v[k] + 0.001 * gk * gk;
          p[k] -= (rate * (st.m[k] / (1 - 0.9 ** t))) / (Math.sqrt(st.v[k] / (1 - 0.999 ** t)) + 1e-8);
        }
      });
    }
    const l = loss(net, stop);
    if (l < best.loss) best = { loss: l, net: copy(net), epoch };
  }
  return best.net;
}

function backprop(net: Net, s: Standardised, grads: Float64Array[], H: number, C: number): void {
  const { hidden, probs } = netForward(net, s.z);
  const dOut = Array.from(probs, (p, c) => p - (c === s.y ? 1 : 0));
  const dHidden = new Float64Array(H);
  for (let c = 0; c < C; c++) {
    const gw2 = grads[H + 1 + c];
    for (let h = 0; h < H; h++) {
      gw2[h] += dOut[c] * hidden[h];
      dHidden[h] += dOut[c] * net.w2[c][h];
    }
    grads[H + 1 + C][c] += dOut[c];
  }
  for (let h = 0; h < H; h++) {
    const g = dHidden[h] * (1 - hidden[h] ** 2);
    const gw1 = grads[h];
    for (let i = 0; i < s.z.length; i++) gw1[i] += g * s.z[i];
    grads[H][h] += g;
  }
}
