/**
 * Citation pinyin of the readable characters, in context, from pinyin-pro's segmenter
 * (`segment`, which picks polyphone readings from the word it finds: 银行 yin2 hang2,
 * 行走 xing2 zou3, 长大 zhang3 da4, 重复 chong2 fu4), and the word boundaries that the
 * tone-sandhi rules use. An optional refPinyin overrides the readings character by character.
 */
import { segment, OutputFormat } from 'pinyin-pro';

/**
 * pinyin-pro's reverse maximum matching: on our test sentences it picks the same readings as
 * its default (maximum probability) at about a third of the cost.
 */
const OPTIONS = { format: OutputFormat.AllSegment, toneType: 'num', toneSandhi: false, v: true, segmentit: 1 } as const;
import { invalid } from '../../errors.js';
import { asciiSyllable, isSyllable } from './syllables.js';

export interface Reading {
  /** Toneless ASCII syllable (v for ü after n/l). */
  syllable: string;
  /** Citation tone 1–4, 5 for neutral. */
  tone: number;
}

export interface ContextPinyin {
  /** Per character of the input, its reading (null where pinyin-pro has none). */
  readings: (Reading | null)[];
  /** Per character, the index of the segmenter's word it belongs to. */
  wordIds: number[];
}

const SYLLABLE = /([a-zü]+)([0-5])/g;
const HAN = /^\p{Script=Han}$/u;

function parseReading(raw: string): Reading | null {
  const m = /^([a-zü]+)([0-5])$/.exec(raw);
  if (!m) return null;
  const syllable = asciiSyllable(m[1]);
  if (!isSyllable(syllable)) return null;
  return { syllable, tone: m[2] === '0' ? 5 : Number(m[2]) };
}

/**
 * Reads a run of Chinese characters (one clause or line, no punctuation inside). Words whose
 * pinyin does not split into one syllable per character fall back to the characters' own
 * readings.
 */
export function contextPinyin(chars: string[]): ContextPinyin {
  const readings: (Reading | null)[] = [];
  const wordIds: number[] = [];
  const parts = segment(chars.join(''), OPTIONS);
  parts.forEach((part, wordId) => {
    const origin = Array.from(part.origin);
    const syllables = part.result.match(SYLLABLE) ?? [];
    const perChar = syllables.length === origin.length;
    origin.forEach((ch, k) => {
      let r = perChar ? parseReading(syllables[k]) : null;
      if (!perChar && HAN.test(ch)) {
        const own = segment(ch, OPTIONS);
        r = parseReading(own[0]?.result ?? '');
      }
      readings.push(r);
      wordIds.push(wordId);
    });
  });
  return { readings, wordIds };
}

const REF_SYLLABLE = /^([a-zü:v]+)([0-5])$/i;

/**
 * Parses refPinyin: numeric-tone syllables separated by white space (tone 0 or 5 = neutral;
 * ü may be typed as ü, v or u:). Tokens made only of punctuation are ignored, so a refPinyin
 * that copies the text's punctuation is accepted. Throws 40001 naming the bad syllable.
 */
export function parseRefPinyin(refPinyin: string): Reading[] {
  const tokens = refPinyin.trim().split(/\s+/u).filter((t) => t !== '' && !/^\p{P}+$/u.test(t));
  return tokens.map((tok, k) => {
    const m = REF_SYLLABLE.exec(tok);
    if (!m) {
      throw invalid(`refPinyin syllable ${k + 1} "${tok}" is not numeric-tone pinyin (letters then a tone digit 1-5, e.g. "hang2")`);
    }
    const syllable = asciiSyllable(m[1]);
    if (!isSyllable(syllable)) throw invalid(`refPinyin syllable ${k + 1} "${tok}" is not a Mandarin syllable`);
    return { syllable, tone: m[2] === '0' ? 5 : Number(m[2]) };
  });
}
