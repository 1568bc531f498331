/**
 * Report freezing (spec "Report freezing"): a stored record is shown exactly as it was made,
 * never rescored. Records stamped with the older standard `v20260705a-legacy` get only the
 * lossless presentation merge that the current standard implies (since `v20260705a` tone is
 * part of accuracy, not a dimension of its own):
 *   - a separate `report.dimensions.tone` comment is appended to `dimensions.accuracy`;
 *   - `report.dimensionSuggestions.tone` items are appended to `dimensionSuggestions.accuracy`.
 * No text is dropped and no number is touched; the stored record itself is not rewritten.
 */
import type { EvaluationRecord } from '../storage/types.js';

export const LEGACY_RUBRIC = 'v20260705a-legacy';

export interface ReportView {
  recordId: string;
  score: unknown;
  report: unknown;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Joins two comments; the separator keeps the sentences apart without adding words. */
function joinComments(accuracy: unknown, tone: string): string {
  const head = typeof accuracy === 'string' ? accuracy.trim() : '';
  return head === '' ? tone : `${head} ${tone}`;
}

function mergeDimensions(report: Json): void {
  const dimensions = report.dimensions;
  if (!isObject(dimensions) || !('tone' in dimensions)) return;
  const { tone, ...rest } = dimensions;
  const toneText = typeof tone === 'string' ? tone.trim() : '';
  report.dimensions = toneText === '' ? rest : { ...rest, accuracy: joinComments(rest.accuracy, toneText) };
}

function mergeSuggestions(report: Json): void {
  const buckets = report.dimensionSuggestions;
  if (!isObject(buckets) || !('tone' in buckets)) return;
  const { tone, ...rest } = buckets;
  const toneItems = Array.isArray(tone) ? tone : [];
  const accuracy = Array.isArray(rest.accuracy) ? rest.accuracy : [];
  report.dimensionSuggestions = { ...rest, accuracy: [...accuracy, ...toneItems] };
}

/** The presentation of a legacy report; a deep copy, the input is left as it is. */
export function mergeLegacyTone(report: unknown): unknown {
  if (!isObject(report)) return report;
  const copy = structuredClone(report);
  mergeDimensions(copy);
  mergeSuggestions(copy);
  return copy;
}

function isLegacy(record: EvaluationRecord, report: unknown): boolean {
  return record.rubricVersion === LEGACY_RUBRIC || (isObject(report) && report.rubricVersion === LEGACY_RUBRIC);
}

/** `data` of `GET /api/v1/report/{recordId}`: score = the stored `result`, report = the stored `report`. */
export function presentRecord(record: EvaluationRecord): ReportView {
  const response = isObject(record.response) ? record.response : {};
  const report = response.report ?? null;
  return {
    recordId: record.id,
    score: response.result ?? null,
    report: isLegacy(record, report) ? mergeLegacyTone(report) : report,
  };
}
