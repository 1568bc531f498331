/**
 * Places in the reference text as the report names them: the unit, the lexical word around a
 * Mandarin character (Intl.Segmenter's dictionary word break, ICU), the expected pronunciation
 * and the neighbours (used when a unit cannot be quoted because it shows a number).
 */
import type { UnitAssessment } from '../assessment/types.js';
import type { TextRef } from './types.js';

/** Lexical word spans of a Chinese text, by code-point index. */
export function wordSpans(reference: string): { begin: number; end: number; text: string }[] {
  const out: { begin: number; end: number; text: string }[] = [];
  const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });
  let cp = 0;
  for (const s of segmenter.segment(reference)) {
    const len = Array.from(s.segment).length;
    if (s.isWordLike) out.push({ begin: cp, end: cp + len, text: s.segment });
    cp += len;
  }
  return out;
}

/** The reference units that count as read text (scored characters or words, in order). */
export function readUnits(units: readonly UnitAssessment[]): UnitAssessment[] {
  return units.filter((u) => u.charType === 0 && (u.readType === 0 || u.readType === 2) && u.beginIndex >= 0);
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

export function refMaker(reference: string, units: readonly UnitAssessment[], zh: boolean) {
  const spans = zh ? wordSpans(reference) : [];
  const read = readUnits(units);
  const order = new Map(read.map((u, i) => [u, i]));
  const wordOf = (u: UnitAssessment) => {
    const span = spans.find((s) => s.begin <= u.beginIndex && u.beginIndex < s.end);
    return { span, word: span && span.end - span.begin > 1 ? span.text : null };
  };
  // The same character in the same word, or the same English word, more than once in the text.
  const key = (u: UnitAssessment) => (zh ? `${wordOf(u).word ?? ''}|${u.text}` : u.text.toLowerCase());
  const same = new Map<string, UnitAssessment[]>();
  for (const u of read) same.set(key(u), [...(same.get(key(u)) ?? []), u]);
  return (u: UnitAssessment): TextRef => {
    const i = order.get(u) ?? -1;
    const { span, word } = wordOf(u);
    const twins = same.get(key(u)) ?? [u];
    const occurrence = twins.length < 2 ? null : twins[0] === u ? 'earlier' : twins[twins.length - 1] === u ? 'later' : 'middle';
    const inWord = !span || !word ? null : u.beginIndex === span.begin ? 'start' : u.endIndex >= span.end ? 'end' : 'middle';
    return {
      text: u.text,
      word,
      inWord,
      occurrence,
      expected: zh ? str(u.extra.symbolpinyin) : null,
      index: u.beginIndex,
      before: i > 0 ? read[i - 1].text : null,
      after: i >= 0 && i + 1 < read.length ? read[i + 1].text : null,
      sentence: u.sentence,
    };
  };
}

/** Code-point slice of the reference between two units (what separates them: punctuation, spaces). */
export function between(reference: string, a: UnitAssessment, b: UnitAssessment): string {
  return Array.from(reference).slice(a.endIndex, b.beginIndex).join('');
}

/** ARPAbet (CMUdict set, lower case) to IPA, so English phone advice names sounds readably. */
const ARPABET_IPA: Record<string, string> = {
  aa: 'ɑ', ae: 'æ', ah: 'ʌ', ao: 'ɔ', aw: 'aʊ', ay: 'aɪ', b: 'b', ch: 'tʃ', d: 'd', dh: 'ð', eh: 'ɛ', er: 'ɝ', ey: 'eɪ',
  f: 'f', g: 'ɡ', hh: 'h', ih: 'ɪ', iy: 'i', jh: 'dʒ', k: 'k', l: 'l', m: 'm', n: 'n', ng: 'ŋ', ow: 'oʊ', oy: 'ɔɪ',
  p: 'p', r: 'r', s: 's', sh: 'ʃ', t: 't', th: 'θ', uh: 'ʊ', uw: 'u', v: 'v', w: 'w', y: 'j', z: 'z', zh: 'ʒ',
};

/** `/θ/` for "th"; null for anything outside the set (silence, garbage). */
export function ipaOf(arpabet: string | null | undefined): string | null {
  if (!arpabet) return null;
  const ipa = ARPABET_IPA[arpabet.toLowerCase().replace(/[0-9]/g, '')];
  return ipa ? `/${ipa}/` : null;
}
