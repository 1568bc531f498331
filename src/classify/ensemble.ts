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
  softmax(logits, max);
  return { hidden, probs: logits };
}

/** Logits turned into probabilities in place (`max`: their largest, taken off before exp). */
function softmax(logits: Float64Array, max: number): void {
  let sum = 0;
  for (let c = 0; c < logits.length; c++) {
    logits[c] = Math.exp(logits[c] - max);
    sum += logits[c];
  }
  for (let c = 0; c < logits.length; c++) logits[c] /= sum;
}

/** A member's weights in flat typed arrays (w1 row-major by hidden unit, w2 by class), for scoring. */
interface Packed {
  w1: Float64Array;
  b1: Float64Array;
  w2: Float64Array;
  b2: Float64Array;
}

/** Members packed once each: a loaded model's weights do not change. */
const packed = new WeakMap<Net, Packed>();

function packedOf(net: Net): Packed {
  let p = packed.get(net);
  if (!p) packed.set(net, (p = { w1: Float64Array.from(net.w1.flat()), b1: Float64Array.from(net.b1), w2: Float64Array.from(net.w2.flat()), b2: Float64Array.from(net.b2) }));
  return p;
}

/**
 * The ensemble's posterior over its classes: the mean of the members'. The same arithmetic as
 * `netForward` over each member, on its packed weights (scoring runs it for every phone or
 * syllable of a reading; training, whose weights change, uses `netForward`).
 */
export function posterior(model: Ensemble, features: ArrayLike<number>): Float64Array {
  const z = standardised(model, features);
  const d = z.length;
  const classes = model.nets[0].b2.length;
  const out = new Float64Array(classes);
  const hidden = new Float64Array(model.nets[0].b1.length);
  const logits = new Float64Array(classes);
  for (const net of model.nets) {
    const { w1, b1, w2, b2 } = packedOf(net);
    const units = b1.length;
    for (let h = 0; h < units; h++) {
      let s = b1[h];
      const row = h * d;
      for (let i = 0; i < d; i++) s += w1[row + i] * z[i];
      hidden[h] = Math.tanh(s);
    }
    let max = -Infinity;
    for (let c = 0; c < classes; c++) {
      let s = b2[c];
      const row = c * units;
      for (let h = 0; h < units; h++) s += w2[row + h] * hidden[h];
      logits[c] = s;
      max = Math.max(max, s);
    }
    softmax(logits, max);
    for (let c = 0; c < classes; c++) out[c] += logits[c] / model.nets.length;
  }
  return out;
}
