/**
 * Sentences and clauses of the reference text, for sentence-level results, pause judgement
 * (a pause is expected at punctuation) and rhythm (rated only with three or more clauses).
 *
 * Boundaries:
 *  - sentence end: 。！？；… and their ASCII / full-width forms (. ! ? ;), and a blank line;
 *  - clause end: ，、： and , : plus the dash ——, and a single line break (verse lines).
 * Closing quotes and brackets right after a boundary mark stay with the sentence they close
 * (他说：“好。” is one sentence). A boundary cuts only after at least one readable character,
 * so leading or repeated punctuation never makes an empty clause.
 */
import { CHAR_TYPE, type TextToken } from './normalize.js';

export type PauseKind = 'sentence' | 'clause' | 'end';

export interface TextSpan {
  index: number;
  /** Tokens [tokenStart, tokenEnd) including the trailing punctuation. */
  tokenStart: number;
  tokenEnd: number;
  /** Code-point offsets into the original reference text, end exclusive. */
  beginIndex: number;
  endIndex: number;
  /** The original text of the span. */
  text: string;
  /** Number of readable (charType 0) characters. */
  readableCount: number;
  /** What follows the span: the pause a reader is expected to make there. */
  pauseAfter: PauseKind;
}

export interface Sentence extends TextSpan {
  /** Clauses [clauseStart, clauseEnd) of this sentence. */
  clauseStart: number;
  clauseEnd: number;
}

const SENTENCE_END = new Set(Array.from('。！？；…!?;.｡．'));
const CLAUSE_END = new Set(Array.from('，、：,:—'));
const CLOSING = new Set(Array.from('”’」』）》〉】〕)]}"\''));

function boundaryAt(tokens: TextToken[], k: number, breaks: Map<number, number>): PauseKind | null {
  const t = tokens[k];
  if (t.charType === CHAR_TYPE.PUNCTUATION && SENTENCE_END.has(t.text)) return 'sentence';
  if (t.charType === CHAR_TYPE.PUNCTUATION && CLAUSE_END.has(t.text)) return 'clause';
  const lineBreaks = breaks.get(k);
  if (lineBreaks !== undefined) return lineBreaks >= 2 ? 'sentence' : 'clause';
  return null;
}

/** Number of line breaks between token k and token k+1, keyed by k. */
function breaksBetween(tokens: TextToken[], lineBreaks: number[]): Map<number, number> {
  const out = new Map<number, number>();
  let k = 0;
  for (const b of lineBreaks) {
    while (k + 1 < tokens.length && tokens[k + 1].begin < b) k++;
    if (tokens[k] && tokens[k].end <= b && k + 1 < tokens.length) out.set(k, (out.get(k) ?? 0) + 1);
  }
  return out;
}

function span(ref: string[], tokens: TextToken[], index: number, from: number, to: number, pauseAfter: PauseKind): TextSpan {
  let readableCount = 0;
  for (let k = from; k < to; k++) if (tokens[k].charType === CHAR_TYPE.HANZI) readableCount++;
  const beginIndex = tokens[from].begin;
  const endIndex = tokens[to - 1].end;
  return { index, tokenStart: from, tokenEnd: to, beginIndex, endIndex, text: ref.slice(beginIndex, endIndex).join(''), readableCount, pauseAfter };
}

export function splitClauses(ref: string, tokens: TextToken[], lineBreaks: number[]): { clauses: TextSpan[]; sentences: Sentence[] } {
  const cps = Array.from(ref);
  const breaks = breaksBetween(tokens, lineBreaks);
  const clauses: TextSpan[] = [];
  const sentences: Sentence[] = [];
  let clauseFrom = 0;
  let sentenceFrom = 0;
  let sentenceClause = 0;
  let readable = 0;
  for (let k = 0; k < tokens.length; k++) {
    if (tokens[k].charType === CHAR_TYPE.HANZI) readable++;
    let kind = boundaryAt(tokens, k, breaks);
    if (kind === null || readable === 0) continue;
    // Keep closing quotes/brackets and further marks of the same boundary with this span.
    while (k + 1 < tokens.length && !breaks.has(k) && tokens[k + 1].charType === CHAR_TYPE.PUNCTUATION &&
      (CLOSING.has(tokens[k + 1].text) || SENTENCE_END.has(tokens[k + 1].text) || CLAUSE_END.has(tokens[k + 1].text))) {
      k++;
      if (SENTENCE_END.has(tokens[k].text)) kind = 'sentence';
    }
    if (k === tokens.length - 1) kind = 'end';
    clauses.push(span(cps, tokens, clauses.length, clauseFrom, k + 1, kind));
    clauseFrom = k + 1;
    readable = 0;
    if (kind !== 'clause') {
      sentences.push({ ...span(cps, tokens, sentences.length, sentenceFrom, k + 1, kind), clauseStart: sentenceClause, clauseEnd: clauses.length });
      sentenceFrom = k + 1;
      sentenceClause = clauses.length;
    }
  }
  if (clauseFrom < tokens.length) {
    if (readable === 0 && clauses.length > 0) {
      // Trailing marks without text join the last clause and sentence.
      const last = clauses.length - 1;
      clauses[last] = span(cps, tokens, last, clauses[last].tokenStart, tokens.length, 'end');
    } else {
      clauses.push(span(cps, tokens, clauses.length, clauseFrom, tokens.length, 'end'));
    }
  }
  if (sentenceFrom < tokens.length || sentenceClause < clauses.length) {
    if (sentenceClause < clauses.length) {
      sentences.push({ ...span(cps, tokens, sentences.length, sentenceFrom, tokens.length, 'end'), clauseStart: sentenceClause, clauseEnd: clauses.length });
    } else if (sentences.length > 0) {
      const last = sentences[sentences.length - 1];
      sentences[sentences.length - 1] = { ...span(cps, tokens, last.index, last.tokenStart, tokens.length, 'end'), clauseStart: last.clauseStart, clauseEnd: last.clauseEnd };
    }
  }
  return { clauses, sentences };
}
