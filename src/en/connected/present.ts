/**
 * The spec's connected-speech result shape from a ConnectedResult, with the caller's slack,
 * scale and precision applied to the scores (raw metrics stay in their own units).
 */
import type { EvaluationConfig } from '../../evaluation/config.js';
import { applySlack, shapeScore } from '../../assessment/shaping.js';
import type { ConnectedResult } from './assess.js';

export function presentConnected(r: ConnectedResult, config: Pick<EvaluationConfig, 'slack' | 'scale' | 'precision'>): Record<string, unknown> {
  const s = (v: number) => shapeScore(applySlack(v, config.slack), config.scale, config.precision);
  return {
    connected_overall: s(r.connectedOverall),
    linking: s(r.linking),
    rhythm: s(r.rhythm),
    elision: s(r.elision),
    reduction: s(r.reduction),
    n_boundaries: r.nBoundaries,
    boundaries: r.boundaries.map((b) => ({
      between: b.between,
      tags: b.tags,
      gap_ms: b.gapMs,
      continuity: b.continuity,
      realized: b.realized,
      start_ms: b.startMs,
      end_ms: b.endMs,
    })),
    raw: {
      linking_rate: r.raw.linking_rate,
      nPVI_V: round(r.raw.nPVI_V),
      pctV: round(r.raw.pctV),
      deltaC_ms: round(r.raw.deltaC_ms),
      elision_rate: r.raw.elision_rate,
      weak_form_rate: r.raw.weak_form_rate,
      mean_gap_ms: round(r.raw.mean_gap_ms),
      words_per_minute: round(r.raw.words_per_minute),
      accuracy: r.raw.accuracy,
    },
    calibrated: r.calibrated,
    classifier: r.classifier,
    posterior_used: r.posterior_used,
    warning: r.warnings,
  };
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}
