/**
 * Turns a schema-valid model answer into a report body under the writer's rules: numbers are
 * removed sentence by sentence, tone advice sits under accuracy, speech-rate advice under
 * fluency with the 【语速】 marker (and the marker nowhere else), insights quote the reference
 * verbatim and without numbers, and the language is the one asked for. Null: not usable.
 */
import { guardText } from '../build.js';
import { quotable } from '../numbers.js';
import type { Voice } from '../slots.js';
import type { ReportBody } from '../template/compose.js';
import { DIMENSION_KEYS, type DimensionKey, type SkillInsight } from '../types.js';
import { LIMITS, type ModelAnswer } from './schema.js';

const PACE = /语速|速度|太快|太慢|偏快|偏慢|\bpace\b|\bspeed\b|too fast|too slow|slow down|speed up/i;
const TONE = /声调|第[一二三四]声|轻声|变调/;
const MARK = '【语速】';

function languageOk(text: string, voice: Voice): boolean {
  const han = (text.match(/\p{Script=Han}/gu) ?? []).length;
  const latin = (text.match(/[A-Za-z]/g) ?? []).length;
  return voice.language === 'zh' ? han > latin / 4 : latin > 3 * han;
}

export function acceptAnswer(answer: ModelAnswer, voice: Voice, reference: string, order: DimensionKey[]): { body: Omit<ReportBody, 'suggestionIds'>; insights: SkillInsight[] } | null {
  const summary = guardText(answer.summary);
  const dimensions = {} as Record<DimensionKey, string>;
  for (const d of DIMENSION_KEYS) dimensions[d] = guardText(answer.dimensions[d]);
  if (summary === '' || DIMENSION_KEYS.some((d) => dimensions[d] === '')) return null;
  if (!languageOk([summary, ...Object.values(dimensions)].join(''), voice)) return null;

  const buckets = Object.fromEntries(DIMENSION_KEYS.map((d) => [d, [] as string[]])) as Record<DimensionKey, string[]>;
  for (const d of DIMENSION_KEYS) {
    for (const raw of answer.dimensionSuggestions[d]) {
      const text = guardText(raw.replaceAll(MARK, '').trim());
      if (text === '') continue;
      // Rubric v20260705a: tone advice is accuracy advice; speech-rate advice is fluency advice.
      const home: DimensionKey = TONE.test(text) ? 'accuracy' : PACE.test(text) ? 'fluency' : d;
      buckets[home].push(home === 'fluency' && PACE.test(text) ? `${MARK}${text}` : text);
    }
  }
  const flat: string[] = [];
  for (let round = 0; round < LIMITS.suggestionsPerDimension; round++) for (const d of order) if (buckets[d][round]) flat.push(buckets[d][round]);

  const insights = answer.skillInsights
    .filter((i) => i.quote.trim() !== '' && [...i.quote].length <= LIMITS.quote && reference.includes(i.quote.trim()) && quotable(i.quote))
    .map((i) => ({ aspect: i.aspect, observation: guardText(i.observation), quote: i.quote.trim(), confidence: i.confidence }))
    .filter((i) => i.observation !== '')
    .slice(0, LIMITS.insights);
  return { body: { summary, dimensions, suggestions: flat.slice(0, 6), dimensionSuggestions: buckets }, insights };
}
