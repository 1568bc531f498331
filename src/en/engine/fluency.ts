/**
 * Fluency and phrasing measurements from the word alignment (pure).
 *
 * Rate: words per minute over the span from the first to the last read word (leading and
 * trailing silence excluded), and articulation rate in phones per second of phonation.
 * Pauses: silent gaps between read words of at least PAUSE_MS (Goldman-Eisler 1968 and most
 * L2 fluency work count silences from 200-250 ms; Kormos & Dénes 2004). Phrasing judges each
 * word boundary (Cucchiarini et al. 2002 on pause placement and rated fluency): at punctuation a
 * break is expected; at a phrase boundary without punctuation a break is allowed but not
 * required; inside a phrase a pause is a fault. Phrase boundaries of unpunctuated text are
 * predicted by the "chinks 'n chunks" rule (Liberman & Church 1992; Taylor & Black 1998): a
 * break may fall where a content word is followed by a function word (preposition, conjunction,
 * auxiliary, pronoun, article), which opens the next phrase.
 */
import type { EnglishWord } from '../text/types.js';
import type { ReadingEvidence } from './evidence.js';

/** Shortest silence counted as a pause, ms. */
export const PAUSE_MS = 250;
/** Pause inside a clause longer than this is a hesitation that breaks the phrase, ms. */
export const HESITATION_MS = 500;
/** A sentence or clause boundary read with less than this is run through, ms. */
export const MIN_BREAK_MS = 120;
/** Longest pause still acceptable at an unpunctuated phrase boundary (a short breath), ms. */
export const MAX_PHRASE_BREAK_MS = 500;

/** Words that open a phrase besides those with weak forms (prepositions, conjunctions, wh-words). */
const PHRASE_OPENERS = new Set([
  'in', 'on', 'with', 'by', 'about', 'after', 'before', 'because', 'when', 'while', 'since', 'until', 'if', 'so',
  'then', 'which', 'who', 'whom', 'whose', 'where', 'why', 'how', 'what', 'though', 'although', 'unless', 'into',
  'onto', 'over', 'under', 'through', 'during', 'without', 'near', 'like', 'they', 'it', 'this', 'these', 'those',
  'my', 'our', 'their', 'its', 'not', 'very', 'once', 'now',
]);

function opensPhrase(word: string, functionWord: boolean): boolean {
  return functionWord || PHRASE_OPENERS.has(word.toLowerCase());
}

export interface BoundaryPhrasing {
  /** Index of the word before the boundary. */
  afterWord: number;
  /** The text has punctuation here (a break is expected). */
  expectBreak: boolean;
  /** An unpunctuated phrase boundary (a break is allowed). */
  phraseBoundary: boolean;
  /** Sentence end (stronger break) as against a clause boundary. */
  sentenceEnd: boolean;
  pauseMs: number;
  /** Our judgement: a break where one belongs, none where none belongs. */
  appropriate: boolean;
}

export interface FluencyMeasures {
  wordsRead: number;
  speechSeconds: number;
  wordsPerMinute: number;
  phonesPerSecond: number;
  /**
   * Pauses between read words where the text has no punctuation. A break at punctuation is
   * phrasing (`boundaries`), not a fault of fluency: the fluency maps are fitted on
   * speechocean762, whose texts have none, so its experts judged only pauses of this kind.
   */
  pauseCount: number;
  /** Total silence of those pauses, seconds. */
  pauseSeconds: number;
  /** Pauses inside phrases (no punctuation, no phrase boundary) longer than HESITATION_MS. */
  hesitations: number;
  meanPauseMs: number;
  /** Words said twice (set once extra speech has been looked for; 0 before). */
  repetitions: number;
  boundaries: BoundaryPhrasing[];
}

/**
 * Whether the text asks for a break between two read words: punctuation after the first, or a
 * sentence ending between them. Such a break is phrasing, not a pause of the reader's fluency.
 */
function breakExpected(word: EnglishWord, next: EnglishWord): boolean {
  return word.punctuationAfter !== '' || next.sentenceIndex !== word.sentenceIndex;
}

export function measureFluency(ev: ReadingEvidence): FluencyMeasures {
  const read = ev.words.filter((w) => w.status === 'read');
  const speechSeconds = Math.max(0.01, (ev.speechEnd - ev.speechStart) / 100);
  let phoneFrames = 0;
  let phones = 0;
  for (const w of read) {
    phoneFrames += w.endFrame - w.startFrame;
    phones += w.phones.length;
  }
  const boundaries: BoundaryPhrasing[] = [];
  let pauseCount = 0;
  let pauseFrames = 0;
  let hesitations = 0;
  for (let k = 0; k + 1 < read.length; k++) {
    const w = read[k];
    // Extra speech placed between the two words is not a pause.
    const pauseMs = Math.max(0, read[k + 1].startFrame - w.endFrame - (w.extraAfter ?? 0)) * 10;
    const sentenceEnd = read[k + 1].entry.word.sentenceIndex !== w.entry.word.sentenceIndex;
    const expectBreak = breakExpected(w.entry.word, read[k + 1].entry.word);
    // A break at punctuation is phrasing, judged below, not a pause of the reader's fluency.
    if (pauseMs >= PAUSE_MS && !expectBreak) {
      pauseCount++;
      pauseFrames += pauseMs / 10;
    }
    const next = read[k + 1];
    const phraseBoundary =
      !expectBreak && !w.entry.functionWord && opensPhrase(next.entry.word.spoken[0] ?? '', next.entry.functionWord);
    if (!expectBreak && !phraseBoundary && pauseMs >= HESITATION_MS) hesitations++;
    const appropriate = expectBreak
      ? pauseMs >= MIN_BREAK_MS
      : phraseBoundary
        ? pauseMs < MAX_PHRASE_BREAK_MS
        : pauseMs < PAUSE_MS;
    boundaries.push({ afterWord: w.index, expectBreak, phraseBoundary, sentenceEnd, pauseMs, appropriate });
  }
  return {
    wordsRead: read.length,
    speechSeconds,
    wordsPerMinute: (read.length / speechSeconds) * 60,
    phonesPerSecond: phoneFrames > 0 ? phones / (phoneFrames / 100) : 0,
    pauseCount,
    pauseSeconds: pauseFrames / 100,
    hesitations,
    meanPauseMs: pauseCount ? (pauseFrames * 10) / pauseCount : 0,
    repetitions: 0,
    boundaries,
  };
}
