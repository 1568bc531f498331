/**
 * Small classifiers of the engines (Mandarin tones, initials and finals; English phones over the
 * whole band): an ensemble of one-hidden-layer
 * perceptrons (tanh) with a softmax over the classes, on standardised features; the posterior
 * is the members' mean, which is better calibrated than any one member (Lakshminarayanan et al.
 * 2017, deep ensembles). Trained by tools/mlp-ensemble.ts. Pure inference.
 */

/** Hidden layer: w1[h][i], b1[h]; output layer: w2[c][h], b2[c]. */
export interface Net {
  w1: number[][];
  b1: number[];
  w2: number[][];
  b2: number[];
}

/** An ensemble on standardised inputs. */
export interface Ensemble {
  /** Input means and standard deviations used to standardise inputs. */
  mean: number[];
  std: number[];
  nets: Net[];
}

/** Standardised features. */
export function standardised(model: Pick<Ensemble, 'mean' | 'std'>, x: ArrayLike<number>): Float64Array {
  const z = new Float64Array(model.mean.length);
  for (let i = 0; i < z.length; i++) z[i] = (x[i] - model.mean[i]) / (model.std[i] || 1);
  return z;
}

/** One member's hidden activations and class probabilities. */
export function netForward(net: Net, z: Float64Array): { hidden: Float64Array; probs: Float64Array } {
  const hidden = new Float64Array(net.b1.length);
  for (let h = 0; h < hidden.length; h++) {
    let s = net.b1[h];
    const w = net.w1[h];
    for (let i = 0; i < z.length; i++) s += w[i] * z[i];
    hidden[h] = Math.tanh(s);
  }
  const logits = new Float64Array(net.b2.length);
  let max = -Infinity;
  for (let c = 0; c < logits.length; c++) {
    let s = net.b2[c];
    const w = net.w2[c];
    for (let h = 0; h < hidden.length; h++) s += w[h] * hidden[h];
    logits[c] = s;
    max = Math.max(max, s);
  }
  let sum = 0;
  for (let c = 0; c < logits.length; c++) {
    logits[c] = Math.exp(logits[c] - max);
    sum += logits[c];
  }
  for (let c = 0; c < logits.length; c++) logits[c] /= sum;
  return { hidden, probs: logits };
}

/** The ensemble's posterior over its classes: the mean of the members'. */
export function posterior(model: Ensemble, features: ArrayLike<number>): Float64Array {
  const z = standardised(model, features);
  const out = new Float64Array(model.nets[0].b2.length);
  for (const net of model.nets) {
    const p = netForward(net, z).probs;
    for (let c = 0; c < out.length; c++) out[c] += p[c] / model.nets.length;
  }
  return out;
}
