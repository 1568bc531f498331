/**
 * The scoring-standard side of the report: version stamps, the dimension tree with the weights
 * actually applied, and the dimension scores (spec "Report object", Versioning).
 *
 * dimensionScores are on the request's `scale` (as every int field of `result`), rounded to
 * integers; null when the recording gave no evidence for that dimension (no reading heard;
 * speech rate also for single-word kinds, where no rate is measured).
 */
import type { Assessment } from '../assessment/types.js';
import { shapeInt } from '../assessment/shaping.js';
import type { EvaluationConfig } from '../evaluation/config.js';
import { LEGACY_RUBRIC } from '../records/freeze.js';
import type { Report, ReportEvidence } from './types.js';

/** Current scoring standard (spec Versioning). */
export const REPORT_RUBRIC_VERSION = 'v20260705a';
/** Stamp of records made under the older standard; lookup keeps their values (src/records/freeze.ts). */
export const LEGACY_RUBRIC_VERSION = LEGACY_RUBRIC;

/** Share of tone inside Mandarin accuracy (the Mandarin engine's TONE_SHARE, rubric v20260705a). */
const ZH_TONE_SHARE = 0.25;

interface TreeNode {
  key: string;
  weight: number | null;
  children?: TreeNode[];
}

/**
 * Five dimensions with the weights applied for this grade band (they sum to 1), each with the
 * sub-indicators the spec names under it. Sub-indicator weights are given where the engine
 * combines them linearly (Mandarin accuracy: pronunciation and tone); null where the engine
 * combines them otherwise. Tone sits under accuracy since v20260705a.
 */
export function dimensionTree(a: Assessment): Record<string, unknown> {
  const zh = a.language === 'zh-CN';
  const w = { integrity: a.weights.integrity, accuracy: a.weights.accuracy, fluency: a.weights.fluency, reading_skill: a.weights.readingSkill, emotion: a.weights.emotion };
  const leaf = (key: string, weight: number | null = null): TreeNode => ({ key, weight });
  const toneKnown = a.sub.tone !== null;
  const accuracy: TreeNode[] = zh
    ? [leaf('pronunciation', toneKnown ? 1 - ZH_TONE_SHARE : 1), leaf('tone', toneKnown ? ZH_TONE_SHARE : 0), leaf('nasal'), leaf('phoneme')]
    : [leaf('pronunciation'), leaf('phoneme'), leaf('stress')];
  const children: TreeNode[] = [
    { key: 'integrity', weight: w.integrity },
    { key: 'accuracy', weight: w.accuracy, children: accuracy },
    // Mandarin fluency = 0.45 speech rate + 0.35 pause fluency + 0.2 naturalness (src/zh/engine/prosody.ts).
    { key: 'fluency', weight: w.fluency, children: zh ? [leaf('speechRate', 0.45), leaf('pause', 0.35), leaf('naturalness', 0.2)] : [leaf('speechRate'), leaf('naturalness'), leaf('pause')] },
    { key: 'reading_skill', weight: w.reading_skill, children: [leaf('pause'), leaf('stress'), leaf('intonation'), ...(a.sub.rhythm === null ? [] : [leaf('rhythm')])] },
    { key: 'emotion', weight: w.emotion, children: [leaf('prosody')] },
  ];
  return { weights: w, children };
}

export function dimensionScores(a: Assessment, ev: ReportEvidence, config: EvaluationConfig): Report['dimensionScores'] {
  const int = (v: number) => shapeInt(v, config.scale);
  const none = ev.noEvidence;
  return {
    accuracy: none ? null : int(a.dimensions.accuracy),
    fluency: none ? null : int(a.dimensions.fluency),
    integrity: int(a.dimensions.integrity),
    affect: none ? null : int(a.dimensions.emotion),
    speechRate: none || ev.pace === 'unknown' ? null : int(a.sub.speedScore),
  };
}
