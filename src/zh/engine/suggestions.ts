/**
 * Short suggestion texts per dimension (compositeReport *Suggest keys). They name what to work
 * on, never score numbers; tone advice belongs to accuracy (rubric v20260705a); speech-rate
 * advice carries the 【语速】 prefix inside fluency.
 */
import type { Dimensions, SubIndicators, Suggestions, UnitAssessment } from '../../assessment/types.js';
import type { ProsodyScores } from './prosody.js';
import { PLACE_PARTNER } from './sibilants.js';
import { initialOf } from './syllables.js';

function listChars(units: readonly UnitAssessment[], pick: (u: UnitAssessment) => boolean, max = 5): string {
  return [...new Set(units.filter(pick).map((u) => u.text))].slice(0, max).join('、');
}

/** A character heard with the other place of the same sibilant (s for sh, zh for z, ...): flat and retroflex confused. */
function placeConfused(u: UnitAssessment): boolean {
  const partner = PLACE_PARTNER[initialOf(String(u.extra.pinyin ?? ''))];
  return u.readStatus === 'mispronounced' && partner !== undefined && partner === initialOf(u.heard?.syllable ?? '');
}

export function suggestionsFor(units: readonly UnitAssessment[], d: Dimensions, sub: SubIndicators, p: ProsodyScores): Suggestions {
  const skipped = listChars(units, (u) => u.readStatus === 'skipped');
  const inserted = units.some((u) => u.readType === 1 || u.readType === 3);
  const wrong = listChars(units, (u) => u.readStatus === 'mispronounced');
  const toneWrong = listChars(units, (u) => u.readType === 0 && !!u.tone?.error);
  const integrity = skipped
    ? `有漏读的字（${skipped}），请逐字读完整。`
    : inserted
      ? '有增读或重复的地方，请按原文朗读。'
      : '朗读完整，保持逐字读全的好习惯。';
  const parts: string[] = [];
  if (wrong) parts.push(`注意读准这些字的声母和韵母：${wrong}。`);
  const place = listChars(units, placeConfused);
  if (place) parts.push(`注意区分平舌音（z、c、s）和翘舌音（zh、ch、sh）：${place}。`);
  if (toneWrong) parts.push(`注意这些字的声调：${toneWrong}。`);
  if (sub.nasal !== null && sub.nasal < 70) parts.push('注意区分前鼻音和后鼻音。');
  const accuracy = parts.length ? parts.join('') : d.accuracy >= 85 ? '字音和声调准确，继续保持。' : '放慢速度，把每个字的声韵调读清楚。';
  const rate = p.speedScore >= 90 ? '' : p.speed < 150 ? '【语速】语速偏慢，可以读得更连贯一些。' : '【语速】语速偏快，注意放慢节奏。';
  // Breaks inside clauses first (the pause fluency), then uneven syllables (naturalness: reading
  // character by character), else praise.
  const fluency =
    rate || (p.pauseFluency < 70 ? '句中停顿较多，试着按词语和意群连读。' : sub.naturalness < 70 ? '字音长短不匀，不要一字一顿，按词语连起来读。' : '朗读流畅自然。');
  const skill = sub.pause < 70 ? '在标点处适当停顿，句中意群之间不要断开。' : sub.intonation < 70 ? '注意语调的起伏和句末的升降。' : '停连得当，语调自然。';
  const emotion = d.emotion < 60 ? '可以加强语气和声音的起伏，读出文章的感情。' : '情感表达自然，继续保持。';
  return { integrity, accuracy, fluency, skill, emotion };
}
