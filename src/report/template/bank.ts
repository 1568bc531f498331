/**
 * What a language's phrase bank provides to the template composer. Banks turn findings into
 * sentences; they choose wording (seeded variation, voice) but never which dimension a finding
 * or a suggestion belongs to — that is fixed by the finding itself.
 */
import type { Voice } from '../slots.js';
import type { DimensionKey, Finding, ReportEvidence } from '../types.js';
import type { Variation } from '../vary.js';

export interface Say {
  ev: ReportEvidence;
  v: Variation;
  voice: Voice;
}

/** A suggestion with the id of the finding (or level) it answers. */
export interface Suggestion {
  id: string;
  text: string;
}

export interface PhraseBank {
  comment(d: DimensionKey, findings: Finding[], s: Say): string;
  suggestions(d: DimensionKey, findings: Finding[], s: Say): Suggestion[];
  /** Comment on a dimension that a single word or letter is not judged on. */
  notJudged(d: DimensionKey, s: Say): string;
  /** A next step for a reading with nothing to correct (a teacher still says what to try next). */
  nextStep(d: DimensionKey, s: Say): Suggestion;
  /** `order`: dimensions from most to least important for this learner. */
  summary(order: DimensionKey[], byDim: Record<DimensionKey, Finding[]>, s: Say): string;
}

/** Findings of one kind, most severe first. */
export const ofKind = (fs: readonly Finding[], ...kinds: Finding['kind'][]) =>
  fs.filter((f) => kinds.includes(f.kind)).sort((a, b) => b.severity - a.severity);
