/**
 * Rhythm metrics over vocalic and consonantal intervals (pure). An interval is a maximal run
 * of adjacent vowel (or consonant) phones of the alignment; a pause of PAUSE_FRAMES or more
 * ends a run. Grabe & Low (2002), "Durational variability in speech and the rhythm class
 * hypothesis": nPVI_V = 100 · mean |d_k − d_k+1| / ((d_k + d_k+1)/2) over successive vocalic
 * intervals; Ramus, Nespor & Mehler (1999): %V = vocalic share of interval time, ΔC = standard
 * deviation of consonantal intervals (ms). British/American read speech: nPVI_V ≈ 57-73,
 * %V ≈ 40-45; syllable-timed speech and many Mandarin-L1 readers lower nPVI_V (≈ 40-50).
 */
import { isVowel } from '../lexicon/index.js';

export interface TimedPhone {
  phone: string;
  startFrame: number;
  endFrame: number;
}

export interface RhythmMetrics {
  nPVI_V: number;
  pctV: number;
  deltaC_ms: number;
  vocalicIntervals: number;
}

const PAUSE_FRAMES = 25;

export function rhythmMetrics(phones: readonly TimedPhone[]): RhythmMetrics {
  const vocalic: number[][] = [];
  const consonantal: number[] = [];
  let run: { vowel: boolean; frames: number } | null = null;
  let prevEnd = -Infinity;
  const groups: number[] = [];
  const close = () => {
    if (!run) return;
    if (run.vowel) groups.push(run.frames);
    else consonantal.push(run.frames);
    run = null;
  };
  for (const p of phones) {
    if (p.startFrame < 0) continue;
    if (p.startFrame - prevEnd >= PAUSE_FRAMES) {
      close();
      if (groups.length) vocalic.push(groups.splice(0));
    }
    const v = isVowel(p.phone);
    if (run && run.vowel !== v) close();
    run ??= { vowel: v, frames: 0 };
    run.frames += p.endFrame - p.startFrame;
    prevEnd = p.endFrame;
  }
  close();
  if (groups.length) vocalic.push(groups.splice(0));
  return {
    nPVI_V: npvi(vocalic),
    pctV: pctV(vocalic.flat(), consonantal),
    deltaC_ms: sd(consonantal) * 10,
    vocalicIntervals: vocalic.flat().length,
  };
}

/** Pairs are taken inside each stretch between pauses only. */
function npvi(stretches: number[][]): number {
  let sum = 0;
  let n = 0;
  for (const d of stretches) {
    for (let k = 0; k + 1 < d.length; k++) {
      sum += Math.abs(d[k] - d[k + 1]) / ((d[k] + d[k + 1]) / 2);
      n++;
    }
  }
  return n ? (100 * sum) / n : 0;
}

function pctV(v: number[], c: number[]): number {
  const tv = v.reduce((a, b) => a + b, 0);
  const tc = c.reduce((a, b) => a + b, 0);
  return tv + tc > 0 ? (100 * tv) / (tv + tc) : 0;
}

function sd(x: number[]): number {
  if (x.length < 2) return 0;
  const m = x.reduce((a, b) => a + b, 0) / x.length;
  return Math.sqrt(x.reduce((a, b) => a + (b - m) ** 2, 0) / x.length);
}
