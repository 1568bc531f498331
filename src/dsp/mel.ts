/**
 * Triangular filters on the mel scale (Davis & Mermelstein 1980) over the bins of a real FFT:
 * the band edges evenly spaced in mel from `lowHz` to `highHz`, each band rising from its lower
 * edge to its centre and falling to its upper edge. `warp` reads every bin's frequency through
 * vocal tract length perturbation (Jaitly & Hinton 2013): f × warp, bent above 4.8 kHz so the
 * band's edge stays at Nyquist (1: as recorded).
 */
export interface MelFilterBank {
  /** Band b weighs bins[from[b]..from[b+1]) by the weights at the same places. */
  from: Int32Array;
  bins: Int32Array;
  weights: Float64Array;
}

export interface MelFilterOptions {
  bands: number;
  lowHz: number;
  highHz: number;
  fftSize: number;
  sampleRate: number;
  warp?: number;
}

const mel = (hz: number) => 2595 * Math.log10(1 + hz / 700);
const hzOfMel = (m: number) => 700 * (10 ** (m / 2595) - 1);
const WARP_KNEE_HZ = 4800;

function warped(hz: number, warp: number, nyquist: number): number {
  const bend = (WARP_KNEE_HZ * Math.min(warp, 1)) / warp;
  return hz <= bend ? hz * warp : nyquist - ((nyquist - WARP_KNEE_HZ * Math.min(warp, 1)) / (nyquist - bend)) * (nyquist - hz);
}

export function melFilterBank(o: MelFilterOptions): MelFilterBank {
  const warp = o.warp ?? 1;
  const edges = Array.from({ length: o.bands + 2 }, (_, i) => hzOfMel(mel(o.lowHz) + ((mel(o.highHz) - mel(o.lowHz)) * i) / (o.bands + 1)));
  const from = new Int32Array(o.bands + 1);
  const bins: number[] = [];
  const weights: number[] = [];
  for (let b = 0; b < o.bands; b++) {
    from[b] = bins.length;
    const [lo, mid, hi] = [edges[b], edges[b + 1], edges[b + 2]];
    for (let k = 1; k < o.fftSize / 2; k++) {
      const hz = warped((k * o.sampleRate) / o.fftSize, warp, o.sampleRate / 2);
      if (hz <= lo || hz >= hi) continue;
      bins.push(k);
      weights.push(hz <= mid ? (hz - lo) / (mid - lo) : (hi - hz) / (hi - mid));
    }
  }
  from[o.bands] = bins.length;
  return { from, bins: Int32Array.from(bins), weights: Float64Array.from(weights) };
}

/** The bank's log energies of one power spectrum into `out` (`floor` added to each band: silence stays finite). */
export function melLogEnergies(bank: MelFilterBank, power: ArrayLike<number>, floor: number, out: Float32Array | Float64Array): void {
  for (let b = 0; b + 1 < bank.from.length; b++) {
    let e = floor;
    for (let i = bank.from[b]; i < bank.from[b + 1]; i++) e += bank.weights[i] * power[bank.bins[i]];
    out[b] = Math.log(e);
  }
}
