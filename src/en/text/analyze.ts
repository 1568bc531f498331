/**
 * analyzeEnglishText: the reference text of an English evaluation → read words with their
 * offsets and spoken forms, punctuation tokens (charType 1, never scored), sentences and
 * clauses. Pure: no I/O. Invalid texts throw `invalid(...)` (400, 40001).
 */
import { invalid } from '../../errors.js';
import { scanTokens, type RawToken } from './scan.js';
import type {
  EnglishClause, EnglishSentence, EnglishTextAnalysis, EnglishTextKind, EnglishToken, EnglishWord,
} from './types.js';

/** The spec's limit on referenceText ("Limits": 1000 characters). */
export const MAX_REFERENCE_CHARS = 1000;

const SENTENCE_END = /^[.!?…。！？]$/u;
const CLAUSE_BREAK = /^[,;:—–()[\]{}"“”«»/，；：]$/u;
/** Closing marks that stay with the sentence they follow ('He said "no."' ends after the quote). */
const CLOSER = /^[)"”’'\]»]$/u;

export interface AnalyzeOptions {
  kind?: EnglishTextKind;
}

export function analyzeEnglishText(ref: string, opts: AnalyzeOptions = {}): EnglishTextAnalysis {
  const kind = opts.kind ?? 'sentence';
  if (typeof ref !== 'string' || ref.trim() === '') throw invalid('referenceText is empty');
  if (ref.length > MAX_REFERENCE_CHARS) {
    throw invalid(`referenceText has ${ref.length} characters; at most ${MAX_REFERENCE_CHARS} are allowed`);
  }
  const raw = scanTokens(ref);
  if (!raw.some((t) => t.charType === 0)) {
    throw invalid('referenceText has no readable English words (only punctuation or symbols)');
  }
  if (kind === 'alpha') checkAlpha(raw);
  const built = buildStructure(ref, raw, kind);
  return { kind, text: ref, ...built };
}

/** The alpha kind reads single letters separated by spaces ("A B C", "a b c"). */
function checkAlpha(raw: RawToken[]): void {
  for (const t of raw) {
    if (t.charType !== 0) continue;
    if (!/^\p{Script=Latin}$/u.test(t.text)) {
      throw invalid(`alpha referenceText must be single letters separated by spaces; "${t.text}" is not a letter`);
    }
  }
}

interface Builder {
  tokens: EnglishToken[];
  words: EnglishWord[];
  sentences: EnglishSentence[];
  clauses: EnglishClause[];
}

function buildStructure(ref: string, raw: RawToken[], kind: EnglishTextKind): Builder {
  const b: Builder = { tokens: [], words: [], sentences: [], clauses: [] };
  let sentenceBegin = 0;
  let clauseBegin = -1;
  let clauseFirstWord = 0;
  let sentenceFirstWord = 0;
  let sentenceClauses: number[] = [];
  const closeClause = (): void => {
    if (b.words.length > clauseFirstWord) {
      const end = b.words[b.words.length - 1].endIndex;
      sentenceClauses.push(b.clauses.length);
      b.clauses.push({
        index: b.clauses.length, sentenceIndex: b.sentences.length, beginIndex: clauseBegin,
        endIndex: end, firstWord: clauseFirstWord, endWord: b.words.length,
      });
    }
    clauseFirstWord = b.words.length;
    clauseBegin = -1;
  };
  const closeSentence = (end: number, terminator: string): void => {
    closeClause();
    if (b.words.length > sentenceFirstWord) {
      b.sentences.push({
        index: b.sentences.length, text: ref.slice(sentenceBegin, end).trim(), beginIndex: sentenceBegin,
        endIndex: end, firstWord: sentenceFirstWord, endWord: b.words.length,
        clauseIndices: sentenceClauses, terminator,
      });
      sentenceFirstWord = b.words.length;
      sentenceClauses = [];
      sentenceBegin = end;
    }
  };
  for (let i = 0; i < raw.length; i++) {
    const t = raw[i];
    if (t.charType === 0) {
      if (b.words.length === sentenceFirstWord) sentenceBegin = firstNonSpace(ref, sentenceBegin, t.beginIndex);
      if (clauseBegin < 0) clauseBegin = t.beginIndex;
      b.tokens.push({ text: t.text, beginIndex: t.beginIndex, endIndex: t.endIndex, charType: 0, wordIndex: b.words.length });
      b.words.push(toWord(t, b, kind));
      continue;
    }
    b.tokens.push({ text: t.text, beginIndex: t.beginIndex, endIndex: t.endIndex, charType: t.charType });
    if (b.words.length > 0) b.words[b.words.length - 1].punctuationAfter += t.text;
    if (SENTENCE_END.test(t.text)) {
      let end = t.endIndex;
      while (i + 1 < raw.length && raw[i + 1].charType !== 0 && (SENTENCE_END.test(raw[i + 1].text) || CLOSER.test(raw[i + 1].text))) {
        i++;
        b.tokens.push({ text: raw[i].text, beginIndex: raw[i].beginIndex, endIndex: raw[i].endIndex, charType: raw[i].charType });
        if (b.words.length > 0) b.words[b.words.length - 1].punctuationAfter += raw[i].text;
        end = raw[i].endIndex;
      }
      closeSentence(end, t.text);
    } else if (CLAUSE_BREAK.test(t.text)) {
      closeClause();
    }
  }
  closeSentence(ref.trimEnd().length, '');
  return b;
}

function firstNonSpace(ref: string, from: number, limit: number): number {
  let at = from;
  while (at < limit && /\s/.test(ref[at])) at++;
  return at;
}

function toWord(t: RawToken, b: Builder, kind: EnglishTextKind): EnglishWord {
  const isLetter = kind === 'alpha';
  return {
    index: b.words.length,
    text: t.text,
    beginIndex: t.beginIndex,
    endIndex: t.endIndex,
    form: isLetter ? 'letter' : (t.form ?? 'word'),
    spoken: isLetter ? [`${t.text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()}.`] : (t.spoken ?? []),
    parts: t.parts ?? [{ part: t.text, beginIndex: t.beginIndex, endIndex: t.endIndex }],
    sentenceIndex: b.sentences.length,
    clauseIndex: b.clauses.length,
    punctuationAfter: '',
  };
}
