/**
 * Shaping recogniser output: which decoded tokens are words, their spelling without the
 * dictionary's variant marks, and Mandarin words split into characters with times shared out in
 * proportion to each character's phones (the ASR endpoint gives per-character timestamps; an
 * initial and a final take comparable time on average in read speech, so phone count is a
 * reasonable proxy without a second alignment pass).
 * Pure functions.
 */
import type { Lexicon } from './types.js';

export interface TimedWord {
  word: string;
  startFrame: number;
  /** Exclusive, 10 ms frames. */
  endFrame: number;
}

/** Sentence marks, silence, fillers (`[NOISE]`, `++BREATH++`) and null transitions are not words. */
export function isWordToken(token: string): boolean {
  if (token === '<s>' || token === '</s>' || token === '<sil>' || token === '(NULL)') return false;
  return !/^\[.*\]$/.test(token) && !/^\+\+.*\+\+$/.test(token);
}

/** `read(2)` is the second pronunciation of `read`. */
export function cleanWord(token: string): string {
  return token.replace(/\(\d+\)$/, '');
}

/** Phones of a character in the dictionary; 2 (initial + final) when it has none. */
function phoneCount(ch: string, lexicon: Lexicon | null): number {
  const prons = lexicon?.lookup(ch);
  return prons && prons.length > 0 ? Math.max(1, prons[0].length) : 2;
}

/** Splits a Mandarin word into characters; Latin letters and digits stay together as one token. */
export function splitIntoCharacters(word: TimedWord, lexicon: Lexicon | null): TimedWord[] {
  const chars = word.word.match(/[A-Za-z0-9]+|./gu) ?? [];
  if (chars.length <= 1) return [word];
  const weights = chars.map((c) => phoneCount(c, lexicon));
  const total = weights.reduce((a, b) => a + b, 0);
  const span = word.endFrame - word.startFrame;
  const out: TimedWord[] = [];
  let acc = 0;
  let start = word.startFrame;
  chars.forEach((c, i) => {
    acc += weights[i];
    const end = i === chars.length - 1 ? word.endFrame : word.startFrame + Math.round((span * acc) / total);
    out.push({ word: c, startFrame: start, endFrame: Math.max(start, end) });
    start = Math.max(start, end);
  });
  return out;
}
