/**
 * The JSON schema the model must answer with (OpenAI-compatible `response_format` of type
 * `json_schema`, strict), and the check of an answer against it. The model writes only text:
 * the report's structure, version, tree and scores are added by the writer afterwards.
 */
import { DIMENSION_KEYS, type DimensionKey, type SkillInsight } from '../types.js';

export const INSIGHT_ASPECTS = ['内在语', '情景再现', '对象感'] as const;
export const CONFIDENCE = ['low', 'medium', 'high'] as const;

/** Limits on model text (characters), so an answer cannot flood the stored record. */
export const LIMITS = { summary: 400, comment: 300, suggestion: 150, suggestionsPerDimension: 4, insights: 3, observation: 200, quote: 60 };

const text = { type: 'string' };
const perDimension = (item: object) => ({
  type: 'object',
  additionalProperties: false,
  required: [...DIMENSION_KEYS],
  properties: Object.fromEntries(DIMENSION_KEYS.map((d) => [d, item])),
});

export const REPORT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['summary', 'dimensions', 'dimensionSuggestions', 'skillInsights'],
  properties: {
    summary: text,
    dimensions: perDimension(text),
    dimensionSuggestions: perDimension({ type: 'array', items: text }),
    skillInsights: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['aspect', 'observation', 'quote', 'confidence'],
        properties: { aspect: { type: 'string', enum: [...INSIGHT_ASPECTS] }, observation: text, quote: text, confidence: { type: 'string', enum: [...CONFIDENCE] } },
      },
    },
  },
} as const;

export interface ModelAnswer {
  summary: string;
  dimensions: Record<DimensionKey, string>;
  dimensionSuggestions: Record<DimensionKey, string[]>;
  skillInsights: SkillInsight[];
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown, max: number): v is string => typeof v === 'string' && v.trim() !== '' && [...v].length <= max;

/** The answer when it has the schema's shape and limits; otherwise a reason it does not. */
export function checkAnswer(raw: unknown): { ok: true; answer: ModelAnswer } | { ok: false; reason: string } {
  if (!isObj(raw)) return { ok: false, reason: 'answer is not an object' };
  if (!isText(raw.summary, LIMITS.summary)) return { ok: false, reason: 'summary missing or too long' };
  const dims = raw.dimensions;
  const sugg = raw.dimensionSuggestions;
  if (!isObj(dims) || !isObj(sugg)) return { ok: false, reason: 'dimensions or dimensionSuggestions missing' };
  for (const d of DIMENSION_KEYS) {
    if (!isText(dims[d], LIMITS.comment)) return { ok: false, reason: `dimensions.${d} missing or too long` };
    const items = sugg[d];
    if (!Array.isArray(items) || items.length > LIMITS.suggestionsPerDimension || !items.every((s) => isText(s, LIMITS.suggestion))) {
      return { ok: false, reason: `dimensionSuggestions.${d} is not a short list of short texts` };
    }
  }
  const insights = raw.skillInsights;
  if (!Array.isArray(insights)) return { ok: false, reason: 'skillInsights missing' };
  for (const i of insights) {
    if (!isObj(i) || !(INSIGHT_ASPECTS as readonly unknown[]).includes(i.aspect) || !(CONFIDENCE as readonly unknown[]).includes(i.confidence)) {
      return { ok: false, reason: 'skillInsights item with an unknown aspect or confidence' };
    }
    if (!isText(i.observation, LIMITS.observation) || typeof i.quote !== 'string') return { ok: false, reason: 'skillInsights item without observation or quote' };
  }
  return { ok: true, answer: raw as unknown as ModelAnswer };
}
