/**
 * Small linear models with standardised inputs, the form every fitted map of the English
 * scoring model takes: y = bias + Σ w_i (x_i − mean_i) / std_i, clamped to the target's range.
 * Each input is first held inside the range it took in the fitted rows: a reading unlike any
 * the model was fitted on (a passage of 129 words against utterances of 1 to 10) is scored as
 * the nearest one it saw, never by extrapolating a weight (or a square) far beyond its data.
 * Fitting is ridge regression (Hoerl & Kennard 1970) by the normal equations, solved with
 * Gaussian elimination and partial pivoting; the models have at most a few dozen inputs.
 * Pure: arrays in, numbers out.
 */

export interface LinearModel {
  /** Feature names, in input order (documentation and a guard against stale files). */
  names: string[];
  mean: number[];
  std: number[];
  /** Smallest and largest value of each input in the fitted rows; inputs are held inside. */
  lo: number[];
  hi: number[];
  weights: number[];
  bias: number;
  /** Output range of the target (e.g. 0..10 for words and utterances; 0..1 for probabilities). */
  min: number;
  max: number;
  /** 'logistic': the output is a probability, 1 / (1 + e^−y) (logistic regression). */
  link?: 'identity' | 'logistic';
}

export function predict(model: LinearModel, x: readonly number[]): number {
  let y = model.bias;
  for (let i = 0; i < model.weights.length; i++) {
    const v = Number.isFinite(x[i]) ? Math.min(model.hi[i], Math.max(model.lo[i], x[i])) : model.mean[i];
    y += (model.weights[i] * (v - model.mean[i])) / model.std[i];
  }
  if (model.link === 'logistic') y = 1 / (1 + Math.exp(-y));
  return Math.min(model.max, Math.max(model.min, y));
}

/** Ridge fit of y on rows of X; `lambda` is the penalty per standardised weight, times n. */
export function fitRidge(names: string[], X: readonly number[][], y: readonly number[], range: [number, number], lambda = 1): LinearModel {
  const n = X.length;
  const d = names.length;
  const mean = new Array<number>(d).fill(0);
  const std = new Array<number>(d).fill(0);
  const lo = new Array<number>(d).fill(Infinity);
  const hi = new Array<number>(d).fill(-Infinity);
  // An input not measured in a row (NaN: a skipped phone has no forced score) stands at the
  // mean of the rows where it was, as `predict` scores it: it moves neither fit nor score.
  const seen = new Array<number>(d).fill(0);
  for (const row of X) {
    for (let j = 0; j < d; j++) {
      const v = row[j];
      if (!Number.isFinite(v)) continue;
      mean[j] += v;
      seen[j]++;
      lo[j] = Math.min(lo[j], v);
      hi[j] = Math.max(hi[j], v);
    }
  }
  for (let j = 0; j < d; j++) {
    mean[j] = seen[j] ? mean[j] / seen[j] : 0;
    if (!seen[j]) lo[j] = hi[j] = 0;
  }
  for (const row of X) for (let j = 0; j < d; j++) if (Number.isFinite(row[j])) std[j] += (row[j] - mean[j]) ** 2 / Math.max(1, seen[j]);
  for (let j = 0; j < d; j++) std[j] = Math.sqrt(std[j]) || 1;
  const yMean = y.reduce((a, b) => a + b, 0) / n;
  const A = Array.from({ length: d }, () => new Array<number>(d).fill(0));
  const b = new Array<number>(d).fill(0);
  for (let r = 0; r < n; r++) {
    const z = X[r].map((v, j) => standard(v, mean[j], std[j]));
    for (let i = 0; i < d; i++) {
      b[i] += z[i] * (y[r] - yMean);
      for (let j = 0; j < d; j++) A[i][j] += z[i] * z[j];
    }
  }
  for (let i = 0; i < d; i++) A[i][i] += lambda * n * 0.01;
  const weights = solve(A, b);
  return { names, mean, std, lo, hi, weights, bias: yMean, min: range[0], max: range[1] };
}

/**
 * Ridge-penalised logistic regression of binary y (0/1) on rows of X by Newton-Raphson
 * (iteratively reweighted least squares; McCullagh & Nelder 1989), on standardised inputs.
 * Each Newton step is halved until the penalised log-likelihood improves (a plain Newton step
 * can overshoot and diverge when an input nearly separates the classes, for example one that is
 * zero for almost every row), and iteration stops once the improvement is negligible.
 */
export function fitLogistic(names: string[], X: readonly number[][], y: readonly number[], lambda = 1, iterations = 50): LinearModel {
  const base = fitRidge(names, X, y, [0, 1], lambda);
  const d = names.length;
  const Z = X.map((row) => [...row.map((v, j) => standard(v, base.mean[j], base.std[j])), 1]);
  const w = new Array<number>(d + 1).fill(0);
  const pos = Math.min(1 - 1e-6, Math.max(1e-6, y.reduce((a, b) => a + b, 0) / y.length));
  w[d] = Math.log(pos / (1 - pos));
  // Penalised negative log-likelihood (the intercept is not penalised).
  const loss = (v: readonly number[]): number => {
    let s = 0;
    for (let r = 0; r < Z.length; r++) {
      let eta = 0;
      for (let j = 0; j <= d; j++) eta += v[j] * Z[r][j];
      // log(1 + e^eta) − y·eta, computed without overflow.
      s += (eta > 0 ? eta + Math.log1p(Math.exp(-eta)) : Math.log1p(Math.exp(eta))) - y[r] * eta;
    }
    for (let j = 0; j < d; j++) s += 0.5 * lambda * v[j] * v[j];
    return s;
  };
  let current = loss(w);
  for (let it = 0; it < iterations; it++) {
    const H = Array.from({ length: d + 1 }, () => new Array<number>(d + 1).fill(0));
    const g = new Array<number>(d + 1).fill(0);
    for (let r = 0; r < Z.length; r++) {
      const z = Z[r];
      let eta = 0;
      for (let j = 0; j <= d; j++) eta += w[j] * z[j];
      const p = 1 / (1 + Math.exp(-eta));
      const q = Math.max(1e-9, p * (1 - p));
      for (let i = 0; i <= d; i++) {
        g[i] += (y[r] - p) * z[i];
        const qz = q * z[i];
        for (let j = 0; j <= i; j++) H[i][j] += qz * z[j];
      }
    }
    for (let i = 0; i <= d; i++) for (let j = 0; j < i; j++) H[j][i] = H[i][j];
    for (let i = 0; i < d; i++) {
      H[i][i] += lambda;
      g[i] -= lambda * w[i];
    }
    const step = solve(H, g);
    let t = 1;
    let next = current;
    let trial = w;
    for (; t > 1e-4; t /= 2) {
      trial = w.map((v, i) => v + t * step[i]);
      next = loss(trial);
      if (next <= current) break;
    }
    if (!(next <= current)) break;
    for (let i = 0; i <= d; i++) w[i] = trial[i];
    const gain = current - next;
    current = next;
    if (gain < 1e-9 * Math.abs(current)) break;
  }
  return { ...base, weights: w.slice(0, d), bias: w[d], min: 0, max: 1, link: 'logistic' };
}

/** An input standardised; one not measured (NaN) at its mean, 0. */
function standard(v: number, mean: number, std: number): number {
  return Number.isFinite(v) ? (v - mean) / std : 0;
}

/** Solves A w = b (A symmetric positive definite after the ridge term). */
function solve(A: number[][], b: number[]): number[] {
  const d = b.length;
  const M = A.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < d; c++) {
    let p = c;
    for (let r = c + 1; r < d; r++) if (Math.abs(M[r][c]) > Math.abs(M[p][c])) p = r;
    [M[c], M[p]] = [M[p], M[c]];
    const pivot = M[c][c] || 1e-12;
    for (let r = 0; r < d; r++) {
      if (r === c) continue;
      const f = M[r][c] / pivot;
      for (let k = c; k <= d; k++) M[r][k] -= f * M[c][k];
    }
  }
  return M.map((row, i) => row[d] / (row[i] || 1e-12));
}

/** Pearson correlation of two equal-length series (NaN when either is constant). */
export function pearson(a: readonly number[], b: readonly number[]): number {
  const n = a.length;
  const ma = a.reduce((s, v) => s + v, 0) / n;
  const mb = b.reduce((s, v) => s + v, 0) / n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    sab += (a[i] - ma) * (b[i] - mb);
    saa += (a[i] - ma) ** 2;
    sbb += (b[i] - mb) ** 2;
  }
  return sab / Math.sqrt(saa * sbb);
}

/** Spearman rank correlation: Pearson of average ranks (ties share their mean rank). */
export function spearman(a: readonly number[], b: readonly number[]): number {
  return pearson(ranks(a), ranks(b));
}

function ranks(v: readonly number[]): number[] {
  const order = v.map((x, i) => [x, i] as const).sort((p, q) => p[0] - q[0]);
  const out = new Array<number>(v.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1][0] === order[i][0]) j++;
    for (let k = i; k <= j; k++) out[order[k][1]] = (i + j) / 2;
    i = j + 1;
  }
  return out;
}
