/**
 * Training of the tone perceptron (src/zh/tone/classifier.ts): cross-entropy, Adam
 * (Kingma & Ba 2015) on mini-batches, L2 weight decay, seeded initialisation and shuffling.
 * Weights are rounded to 4 decimals so model.json stays small.
 */
import { forward, type ToneModel } from '../src/zh/tone/classifier.js';

type Weights = Pick<ToneModel, 'mean' | 'std' | 'w1' | 'b1' | 'w2' | 'b2'>;

export interface TrainOptions {
  hidden: number;
  epochs: number;
  seed: number;
  rate?: number;
  l2?: number;
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

export function trainMlp(data: { x: number[]; y: number }[], o: TrainOptions): Weights {
  const rand = rng(o.seed);
  const d = data[0].x.length;
  const H = o.hidden;
  const C = 4;
  const rate = o.rate ?? 0.01;
  const l2 = o.l2 ?? 1e-4;
  const { mean, std } = standardise(data.map((s) => s.x));
  const init = (n: number, fan: number) => Array.from({ length: n }, () => (rand() * 2 - 1) * Math.sqrt(3 / fan));
  const m: Weights = { mean, std, w1: Array.from({ length: H }, () => init(d, d)), b1: new Array(H).fill(0), w2: Array.from({ length: C }, () => init(H, H)), b2: new Array(C).fill(0) };
  const params = [...m.w1, m.b1, ...m.w2, m.b2];
  const adam = params.map((p) => ({ m: new Float64Array(p.length), v: new Float64Array(p.length) }));
  let t = 0;
  const order = data.map((_, i) => i);
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (let b = 0; b < order.length; b += 32) {
      const grads = params.map((p) => new Float64Array(p.length));
      const batch = order.slice(b, b + 32);
      for (const idx of batch) backprop(m as ToneModel, data[idx], grads, H, C);
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
  }
  const r = (v: number) => Math.round(v * 1e4) / 1e4;
  return { mean: mean.map(r), std: std.map(r), w1: m.w1.map((w) => w.map(r)), b1: m.b1.map(r), w2: m.w2.map((w) => w.map(r)), b2: m.b2.map(r) };
}

function backprop(m: ToneModel, s: { x: number[]; y: number }, grads: Float64Array[], H: number, C: number): void {
  const { hidden, probs } = forward(m, s.x);
  const z = s.x.map((v, i) => (v - m.mean[i]) / (m.std[i] || 1));
  const dOut = Array.from(probs, (p, c) => p - (c === s.y ? 1 : 0));
  const dHidden = new Float64Array(H);
  for (let c = 0; c < C; c++) {
    const gw2 = grads[H + 1 + c];
    for (let h = 0; h < H; h++) {
      gw2[h] += dOut[c] * hidden[h];
      dHidden[h] += dOut[c] * m.w2[c][h];
    }
    grads[H + 1 + C][c] += dOut[c];
  }
  for (let h = 0; h < H; h++) {
    const g = dHidden[h] * (1 - hidden[h] ** 2);
    const gw1 = grads[h];
    for (let i = 0; i < z.length; i++) gw1[i] += g * z[i];
    grads[H][h] += g;
  }
}

export function accuracy(m: Weights, data: { x: number[]; y: number }[]): number {
  let ok = 0;
  for (const s of data) {
    const p = forward(m as ToneModel, s.x).probs;
    let best = 0;
    for (let c = 1; c < p.length; c++) if (p[c] > p[best]) best = c;
    if (best === s.y) ok++;
  }
  return ok / data.length;
}
