/**
 * Genre of a reference text: classical_poem, modern_poem or prose (spec: Evaluation config,
 * `genre`; the automatic choice marks classical_poem only for highly regular regulated verse).
 *
 * classical_poem: the lines — split at punctuation and line breaks — are 4 (jueju) or 8
 *   (lüshi) lines that all have exactly 5 or all exactly 7 Chinese characters, and the text
 *   has nothing else (no Latin letters, digits or symbols). Up to two short leading lines
 *   without punctuation (a title, an author line like 唐·李白) are set aside first.
 * modern_poem: at least 4 non-empty lines separated by line breaks, a median line length of
 *   at most 15 characters, and at least half the lines ending without a sentence-final mark
 *   (。！？…): verse broken by layout rather than by sentences.
 * prose: everything else.
 */
import { CHAR_TYPE, normalizeText, type TextToken } from './normalize.js';

export type Genre = 'prose' | 'classical_poem' | 'modern_poem';
export const GENRES: readonly Genre[] = ['prose', 'classical_poem', 'modern_poem'];

const SENTENCE_FINAL = /[。！？…!?]$/u;

function physicalLines(ref: string): string[] {
  return ref.split(/\r?\n|\r/).map((l) => l.trim()).filter((l) => l !== '');
}

function isRegulatedVerse(lines: string[], tokensOk: boolean): boolean {
  if (!tokensOk) return false;
  const verse = lines.flatMap((l) => l.split(/[\p{P}\s]+/u)).filter((l) => l !== '');
  if (verse.length !== 4 && verse.length !== 8) return false;
  const len = Array.from(verse[0]).length;
  if (len !== 5 && len !== 7) return false;
  return verse.every((l) => Array.from(l).length === len && /^\p{Script=Han}+$/u.test(l));
}

/** Detects the genre of a reference text; `tokens` (from normalizeText) saves normalising twice. */
export function detectGenre(ref: string, tokens: TextToken[] = normalizeText(ref).tokens): Genre {
  const lines = physicalLines(ref);
  const onlyHanAndPunct = tokens.every((t) => t.charType === CHAR_TYPE.HANZI || t.charType === CHAR_TYPE.PUNCTUATION);
  const noDigits = !/[0-9０-９]/.test(ref);
  for (let skip = 0; skip <= Math.min(2, lines.length - 1); skip++) {
    const head = lines.slice(0, skip);
    if (head.some((l) => Array.from(l).length > 12 || /[，。！？；,.!?;]/u.test(l))) break;
    if (isRegulatedVerse(lines.slice(skip), onlyHanAndPunct && noDigits)) return 'classical_poem';
  }
  if (lines.length >= 4) {
    const lengths = lines.map((l) => Array.from(l.replace(/[\p{P}\s]/gu, '')).length).sort((a, b) => a - b);
    const median = lengths[lengths.length >> 1];
    const open = lines.filter((l) => !SENTENCE_FINAL.test(l)).length;
    if (median <= 15 && open * 2 >= lines.length) return 'modern_poem';
  }
  return 'prose';
}
