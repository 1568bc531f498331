/**
 * The template path: a deterministic natural-language report from the evidence. Order follows
 * what matters most for this learner: each dimension's weight for the grade band times its
 * shortfall (so an early reader hears about skipped characters before expressiveness), and
 * the caller's focus goes first. Wording varies per record through a seeded choice.
 */
import type { Voice } from '../slots.js';
import { DIMENSION_KEYS, type DimensionKey, type Finding, type ReportEvidence } from '../types.js';
import { variation } from '../vary.js';
import type { PhraseBank, Say, Suggestion } from './bank.js';
import { englishBank } from './en.js';
import { chineseBank } from './zh.js';

export interface ReportBody {
  summary: string;
  dimensions: Record<DimensionKey, string>;
  suggestions: string[];
  dimensionSuggestions: Record<DimensionKey, string[]>;
  /** Suggestion ids per dimension, for checks that slots never move a suggestion. */
  suggestionIds: Record<DimensionKey, string[]>;
}

/** At most this many items in the flat (legacy) suggestion list. */
const FLAT_MAX = 6;

/** Dimensions from most to least important: focus first, then weight × (shortfall + finding severity). */
/** Dimensions a single word or letter is not judged on (delivery needs connected text). */
export const notJudged = (ev: ReportEvidence, d: DimensionKey) => ev.singleItem && (d === 'fluency' || d === 'reading_skill' || d === 'emotion');

export function priorityOrder(ev: ReportEvidence, voice: Voice): DimensionKey[] {
  const weight = (d: DimensionKey) => {
    if (notJudged(ev, d)) return -1;
    const findings = ev.findings.filter((f) => f.dimension === d).reduce((a, f) => a + f.severity, 0);
    // A named problem counts like a fifteen-point shortfall (at most three of them per dimension).
    return ev.weights[d] * (100 - ev.scores[d] + 15 * Math.min(3, findings));
  };
  const rest = [...DIMENSION_KEYS].filter((d) => !voice.focus.includes(d)).sort((a, b) => weight(b) - weight(a));
  return [...voice.focus, ...rest];
}

function byDimension(ev: ReportEvidence, voice: Voice): Record<DimensionKey, Finding[]> {
  const out = Object.fromEntries(DIMENSION_KEYS.map((d) => [d, [] as Finding[]])) as Record<DimensionKey, Finding[]>;
  const boost = (f: Finding) => (voice.focusTone && f.kind === 'tone' ? 1 : 0);
  for (const f of [...ev.findings].sort((a, b) => b.severity + boost(b) - (a.severity + boost(a)))) out[f.dimension].push(f);
  return out;
}

export function composeTemplate(ev: ReportEvidence, voice: Voice): ReportBody {
  const bank: PhraseBank = voice.language === 'zh' ? chineseBank : englishBank;
  const say: Say = { ev, v: variation(ev.seed), voice };
  const order = priorityOrder(ev, voice);
  const findings = byDimension(ev, voice);
  const dimensions = {} as Record<DimensionKey, string>;
  const buckets = {} as Record<DimensionKey, Suggestion[]>;
  for (const d of DIMENSION_KEYS) {
    const skip = notJudged(ev, d) && findings[d].length === 0 && !ev.noEvidence;
    dimensions[d] = skip ? bank.notJudged(d, say) : bank.comment(d, findings[d], say);
    buckets[d] = skip ? [] : bank.suggestions(d, findings[d], say);
  }
  if (!ev.noEvidence && DIMENSION_KEYS.every((d) => buckets[d].length === 0)) {
    const d = DIMENSION_KEYS.filter((x) => !notJudged(ev, x)).sort((x, y) => ev.scores[x] - ev.scores[y])[0];
    buckets[d].push(bank.nextStep(d, say));
  }
  // Flat list: round-robin over dimensions in priority order so the most important come first.
  const flat: string[] = [];
  for (let round = 0; flat.length < FLAT_MAX && round < 3; round++) {
    for (const d of order) if (buckets[d][round] && flat.length < FLAT_MAX) flat.push(buckets[d][round].text);
  }
  return {
    summary: bank.summary(order.filter((d) => !notJudged(ev, d)), findings, say),
    dimensions,
    suggestions: flat,
    dimensionSuggestions: Object.fromEntries(DIMENSION_KEYS.map((d) => [d, buckets[d].map((s) => s.text)])) as Record<DimensionKey, string[]>,
    suggestionIds: Object.fromEntries(DIMENSION_KEYS.map((d) => [d, buckets[d].map((s) => s.id)])) as Record<DimensionKey, string[]>,
  };
}
