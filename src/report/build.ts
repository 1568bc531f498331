/**
 * Builds the spec's report object around a body (template or model-written): the structure,
 * version, tree and scores are always the writer's own, whatever wrote the text, and every
 * body string passes the number guard last.
 */
import type { Assessment } from '../assessment/types.js';
import type { EvaluationConfig } from '../evaluation/config.js';
import { containsNumber, dropNumericSentences } from './numbers.js';
import { dimensionScores, dimensionTree, REPORT_RUBRIC_VERSION } from './rubric.js';
import type { Voice } from './slots.js';
import { composeTemplate, type ReportBody } from './template/compose.js';
import { DIMENSION_KEYS, type Report, type ReportEvidence, type SkillInsight } from './types.js';

export const TEMPLATE_SOURCE = 'template';
export const FALLBACK_SOURCE = 'template-fallback';
export const LLM_SOURCE = 'llm';

/** Last line of defence: a body string that shows a number loses the sentences that do. */
export function guardText(text: string): string {
  return containsNumber(text) ? dropNumericSentences(text) : text;
}

export function assembleReport(
  source: string,
  body: Omit<ReportBody, 'suggestionIds'>,
  a: Assessment,
  ev: ReportEvidence,
  config: EvaluationConfig,
  insights?: SkillInsight[],
): Report {
  const list = (xs: readonly string[]) => xs.map(guardText).filter((t) => t !== '');
  const report: Report = {
    source,
    summary: guardText(body.summary),
    dimensions: Object.fromEntries(DIMENSION_KEYS.map((d) => [d, guardText(body.dimensions[d])])) as Report['dimensions'],
    suggestions: list(body.suggestions),
    dimensionSuggestions: Object.fromEntries(DIMENSION_KEYS.map((d) => [d, list(body.dimensionSuggestions[d])])) as Report['dimensionSuggestions'],
    rubricVersion: REPORT_RUBRIC_VERSION,
    dimensionTree: dimensionTree(a),
    dimensionScores: dimensionScores(a, ev, config),
  };
  if (insights && insights.length) report.skillInsights = insights;
  return report;
}

/** The offline path: deterministic for the same assessment, config and slots. */
export function templateReport(a: Assessment, ev: ReportEvidence, voice: Voice, config: EvaluationConfig, source = TEMPLATE_SOURCE): Report {
  return assembleReport(source, composeTemplate(ev, voice), a, ev, config);
}
