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
  const b = buildStructure(ref, raw, kind);
  return { kind, text: ref, tokens: b.tokens, words: b.words, sentences: b.sentences, clauses: b.clauses };
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

/** Walks the raw tokens once, collecting words, tokens, clauses and sentences. */
class StructureBuilder {
  readonly tokens: EnglishToken[] = [];
  readonly words: EnglishWord[] = [];
  readonly sentences: EnglishSentence[] = [];
  readonly clauses: EnglishClause[] = [];
  private sentenceBegin = 0;
  private sentenceFirstWord = 0;
  private sentenceClauses: number[] = [];
  private clauseBegin = -1;
  private clauseFirstWord = 0;

  constructor(private readonly ref: string, private readonly kind: EnglishTextKind) {}

  addWord(t: RawToken): void {
    if (this.words.length === this.sentenceFirstWord) {
      this.sentenceBegin = firstNonSpace(this.ref, this.sentenceBegin, t.beginIndex);
    }
    if (this.clauseBegin < 0) this.clauseBegin = t.beginIndex;
    this.tokens.push({ text: t.text, beginIndex: t.beginIndex, endIndex: t.endIndex, charType: 0, wordIndex: this.words.length });
    this.words.push(toWord(t, this.words.length, this.sentences.length, this.clauses.length, this.kind));
  }

  /** Punctuation and symbols: recorded, attached to the word before, never read. */
  addMark(t: RawToken): void {
    this.tokens.push({ text: t.text, beginIndex: t.beginIndex, endIndex: t.endIndex, charType: t.charType });
    if (this.words.length > 0 && !t.joinsNumbers) this.words[this.words.length - 1].punctuationAfter += t.text;
  }

  closeClause(): void {
    if (this.words.length > this.clauseFirstWord) {
      this.sentenceClauses.push(this.clauses.length);
      this.clauses.push({
        index: this.clauses.length, sentenceIndex: this.sentences.length, beginIndex: this.clauseBegin,
        endIndex: this.words[this.words.length - 1].endIndex, firstWord: this.clauseFirstWord, endWord: this.words.length,
      });
    }
    this.clauseFirstWord = this.words.length;
    this.clauseBegin = -1;
  }

  closeSentence(end: number, terminator: string): void {
    this.closeClause();
    if (this.words.length === this.sentenceFirstWord) return;
    this.sentences.push({
      index: this.sentences.length, text: this.ref.slice(this.sentenceBegin, end).trim(),
      beginIndex: this.sentenceBegin, endIndex: end, firstWord: this.sentenceFirstWord,
      endWord: this.words.length, clauseIndices: this.sentenceClauses, terminator,
    });
    this.sentenceFirstWord = this.words.length;
    this.sentenceClauses = [];
    this.sentenceBegin = end;
  }
}

function buildStructure(ref: string, raw: RawToken[], kind: EnglishTextKind): StructureBuilder {
  const b = new StructureBuilder(ref, kind);
  for (let i = 0; i < raw.length; i++) {
    const t = raw[i];
    if (t.charType === 0) { b.addWord(t); continue; }
    b.addMark(t);
    if (SENTENCE_END.test(t.text)) {
      // Further stops and closing quotes/brackets stay with the sentence they end.
      while (i + 1 < raw.length && raw[i + 1].charType !== 0 && (SENTENCE_END.test(raw[i + 1].text) || CLOSER.test(raw[i + 1].text))) {
        b.addMark(raw[++i]);
      }
      b.closeSentence(raw[i].endIndex, t.text);
    } else if (CLAUSE_BREAK.test(t.text)) {
      b.closeClause();
    }
  }
  b.closeSentence(ref.trimEnd().length, '');
  return b;
}

function firstNonSpace(ref: string, from: number, limit: number): number {
  let at = from;
  while (at < limit && /\s/.test(ref[at])) at++;
  return at;
}

function toWord(t: RawToken, index: number, sentenceIndex: number, clauseIndex: number, kind: EnglishTextKind): EnglishWord {
  const isLetter = kind === 'alpha';
  return {
    index,
    text: t.text,
    beginIndex: t.beginIndex,
    endIndex: t.endIndex,
    form: isLetter ? 'letter' : (t.form ?? 'word'),
    spoken: isLetter ? [`${t.text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()}.`] : (t.spoken ?? []),
    ...(!isLetter && t.otherReadings ? { otherReadings: t.otherReadings } : {}),
    parts: t.parts ?? [{ part: t.text, beginIndex: t.beginIndex, endIndex: t.endIndex }],
    sentenceIndex,
    clauseIndex,
    punctuationAfter: '',
  };
}
