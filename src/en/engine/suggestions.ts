/**
 * Short English suggestion texts per dimension (compositeReport *Suggest keys): they name
 * what to work on, never a score number (the report rules forbid numbers in text).
 */
import type { Suggestions } from '../../assessment/types.js';
import type { EnglishAssessment } from './types.js';

const GOOD = 80;

export function englishSuggestions(a: EnglishAssessment): Suggestions {
  const d = a.dimensions;
  const skipped = a.words.filter((w) => w.readStatus === 'skipped').map((w) => w.text);
  const weak = a.words.filter((w) => w.readStatus === 'mispronounced').map((w) => w.text);
  const phones = new Set(a.words.flatMap((w) => w.phones.filter((p) => p.error === 'substitution' || p.error === 'deletion').map((p) => p.expected)));
  const list = (xs: string[]) => xs.slice(0, 5).join(', ');
  return {
    integrity: skipped.length
      ? `Read every word; these were left out: ${list(skipped)}.`
      : a.extraWords.some((w) => w.readStatus === 'inserted')
        ? 'Read only the words of the text; words that are not in it were heard.'
        : 'Every word of the text was read.',
    accuracy:
      d.accuracy >= GOOD
        ? 'Pronunciation is clear.'
        : `Practise ${weak.length ? list(weak) : 'the marked words'}${phones.size ? `, especially the sounds ${list([...phones].map((p) => `/${p.toLowerCase()}/`))}` : ''}.`,
    fluency:
      d.fluency >= GOOD
        ? 'The reading flows at a comfortable pace.'
        : a.fluencyMeasures.hesitations > 0
          ? 'Avoid stopping inside phrases; read a phrase in one breath.'
          : 'Read more smoothly, joining the words of a phrase.',
    skill:
      d.readingSkill >= GOOD
        ? 'Pauses, stress and intonation suit the text.'
        : a.skill.phrasing < GOOD
          ? 'Pause at commas and full stops, and not inside a phrase.'
          : 'Stress the right syllable of longer words and let the voice fall at the end of statements.',
    emotion: d.emotion >= GOOD ? 'The voice sounds lively.' : 'Vary your pitch more to sound engaged.',
  };
}
