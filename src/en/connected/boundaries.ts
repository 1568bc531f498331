/**
 * Word-boundary judgements of connected speech (pure). Each boundary between two read words
 * gets the tags the text and the chosen pronunciations predict, and whether the reader
 * realised them:
 * - linking_CV / linking_VV / linking_r / gemination (lexicon linkingBetween): realised when
 *   the words run on without a silent gap (gap under LINK_GAP_MS; Roach 2009 ch. 14);
 * - elision: a word-final alveolar or other stop before a consonant ("last time", "good girl")
 *   is often unreleased or dropped in fluent speech (Gimson; Temperley 1987 on t/d deletion);
 *   realised when the aligner gave the stop its minimum duration or it is acoustically absent
 *   (GOP under ELIDED_GOP) while the words run on;
 * - weak_form: a function word read in its reduced form (the aligner chose the weak form).
 */
import { linkingBetween, type Pronunciation } from '../lexicon/index.js';
import type { WordEvidence } from '../engine/evidence.js';

export const LINK_GAP_MS = 60;
export const ELIDED_FRAMES = 4;
export const ELIDED_GOP = -3;
const STOPS = new Set(['P', 'T', 'K', 'B', 'D', 'G']);

export interface Boundary {
  between: [string, string];
  /** Indices of the two words. */
  words: [number, number];
  tags: string[];
  gapMs: number;
  /** 1 when the words run on, falling to 0 at a 300 ms silence. */
  continuity: number;
  /** Every predicted tag realised (null when nothing is predicted here). */
  realized: boolean | null;
  linkRealized: boolean | null;
  elisionRealized: boolean | null;
  startMs: number;
  endMs: number;
}

export function judgeBoundaries(words: readonly WordEvidence[]): Boundary[] {
  const out: Boundary[] = [];
  for (let i = 0; i + 1 < words.length; i++) {
    const a = words[i];
    const b = words[i + 1];
    if (a.status !== 'read' || b.status !== 'read') continue;
    if (a.entry.word.sentenceIndex !== b.entry.word.sentenceIndex) continue;
    out.push(judgeOne(a, b));
  }
  return out;
}

function judgeOne(a: WordEvidence, b: WordEvidence): Boundary {
  const gapMs = Math.max(0, b.startFrame - a.endFrame) * 10;
  const runOn = gapMs < LINK_GAP_MS && a.entry.word.punctuationAfter === '';
  const tags: string[] = [];
  const link = a.entry.word.punctuationAfter === '' ? linkingBetween(a.pron, b.pron, a.entry.word.spoken[a.entry.word.spoken.length - 1]) : null;
  if (link) tags.push(link.type);
  const elisionSite = isElisionSite(a.pron, b.pron) && a.entry.word.punctuationAfter === '';
  if (elisionSite) tags.push('elision');
  if (a.pron.source === 'weak') tags.push('weak_form');
  const last = a.phones[a.phones.length - 1];
  const elided = elisionSite && runOn && (last.endFrame - last.startFrame <= ELIDED_FRAMES || last.gop < ELIDED_GOP);
  const linkRealized = link ? runOn : null;
  const elisionRealized = elisionSite ? elided : null;
  const judged = [linkRealized, elisionRealized].filter((v): v is boolean => v !== null);
  return {
    between: [a.entry.word.text, b.entry.word.text],
    words: [a.index, b.index],
    tags,
    gapMs,
    continuity: Math.round(Math.max(0, 1 - gapMs / 300) * 100) / 100,
    realized: judged.length ? judged.every(Boolean) : null,
    linkRealized,
    elisionRealized,
    startMs: a.endFrame * 10,
    endMs: b.startFrame * 10,
  };
}

/** A final stop before a consonant-initial word (not the same stop: that is gemination). */
function isElisionSite(prev: Pronunciation, next: Pronunciation): boolean {
  const last = prev.phones[prev.phones.length - 1];
  const first = next.phones[0];
  if (!last || !first || !STOPS.has(last)) return false;
  return !/^(AA|AE|AH|AO|AW|AY|EH|ER|EY|IH|IY|OW|OY|UH|UW)$/.test(first) && first !== last;
}
