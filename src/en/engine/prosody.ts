/**
 * Reading skill and emotion from the prosody measurements (pure):
 * - phrasing (the spec's stopConnScore): share of word boundaries judged appropriate, a break
 *   at punctuation and none inside a clause, with the expected breaks weighing double;
 * - stress: mean fitted word-stress score of the words with a stress contrast;
 * - intonation: pitch range (flat reading under RANGE_FULL_ST loses marks) and whether the
 *   final movement suits the sentence type (statements fall, yes/no questions rise; a falling
 *   question is still allowed for wh-questions);
 * - prosodic: the fitted speechocean762 prosody score.
 * Emotion without a target emotion is expressiveness: the same pitch range measure.
 */
import { clamp100, EXPERT_FULL, fromExpert } from './dimensions.js';
import type { ReadingPlan } from './plan.js';
import type { ScoredReading } from './score.js';

/** F0 range (10-90 percentile) at which read speech sounds fully lively, semitones. */
export const RANGE_FULL_ST = 6;

export interface ProsodyJudgement {
  readingSkill: number;
  emotion: number;
  skill: { phrasing: number; stress: number; intonation: number; prosodic: number };
}

export function judgeProsody(plan: ReadingPlan, scored: ScoredReading): ProsodyJudgement {
  const phrasing = phrasingScore(scored);
  const poly = scored.words.filter((w) => w.stressJudgement.polysyllabic);
  const stress = poly.length ? poly.reduce((a, w) => a + fromExpert(w.stress, EXPERT_FULL.word), 0) / poly.length : 100;
  const range = clamp100((scored.intonation.rangeSt / RANGE_FULL_ST) * 100);
  const lastSentence = plan.analysis.sentences[plan.analysis.sentences.length - 1];
  const question = lastSentence?.terminator.includes('?') ?? false;
  const tone = scored.intonation.rearTone;
  const finalFit = question ? { rise: 100, fall: 80, flat: 70 }[tone] : { fall: 100, flat: 80, rise: 60 }[tone];
  const intonation = clamp100(0.6 * range + 0.4 * finalFit);
  const prosodic = fromExpert(scored.utterance.prosodic, EXPERT_FULL.utterance);
  const readingSkill = clamp100(0.4 * prosodic + 0.3 * phrasing + 0.15 * stress + 0.15 * intonation);
  const emotion = clamp100(50 + 0.5 * range);
  return { readingSkill, emotion, skill: { phrasing, stress, intonation, prosodic } };
}

/** Share of boundaries judged right, punctuation counting double (fluency.ts judges each). */
export function phrasingScore(scored: ScoredReading): number {
  let total = 0;
  let good = 0;
  for (const b of scored.fluency.boundaries) {
    const w = b.expectBreak ? 2 : 1;
    total += w;
    if (b.appropriate) good += w;
  }
  return total === 0 ? 100 : (good / total) * 100;
}
