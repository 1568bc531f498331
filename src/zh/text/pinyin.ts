/**
 * Citation pinyin of the readable characters, in context. The text is first cut into words by
 * jieba (@node-rs/jieba, its full dictionary with word frequencies), then each word is read by
 * pinyin-pro's segmenter (`segment`, which picks polyphone readings from the word it finds:
 * 银行 yin2 hang2, 行走 xing2 zou3, 长大 zhang3 da4, 重复 chong2 fu4). pinyin-pro's own
 * dictionary holds only words with a polyphonic character, so on a whole sentence it takes such
 * a word across a word boundary it does not know: 行情 hang2 qing2 out of 执行情况, 目的 mu4 di4
 * out of 项目的. jieba's part-of-speech tags also say when 的, 地, 得, 了 and 着 are structural
 * particles, which are read neutral (最大限度地反映: de5, where pinyin-pro reads 地 di4).
 * An optional refPinyin overrides the readings character by character.
 */
import { segment, OutputFormat } from 'pinyin-pro';
import { Jieba } from '@node-rs/jieba';
import { dict } from '@node-rs/jieba/dict.js';
import { invalid } from '../../errors.js';
import { asciiSyllable, isSyllable } from './syllables.js';

/**
 * pinyin-pro's reverse maximum matching: on our test sentences it picks the same readings as
 * its default (maximum probability) at about a third of the cost.
 */
const OPTIONS = { format: OutputFormat.AllSegment, toneType: 'num', toneSandhi: false, v: true, segmentit: 1 } as const;

/** jieba's tags of the words around a particle: before it, after it (undefined at the run's edges). */
interface Around {
  before?: string;
  after?: string;
}

/** Verbs (v, vn, vd, …), adverbs, prepositions and set phrases: what an adverbial 地 leads into. */
const leadsToVerb = (tag?: string) => tag !== undefined && (/^v/.test(tag) || ['d', 'p', 'l'].includes(tag));
/** Adjectives, adverbs, descriptive words and set phrases: what an adverbial 地 follows. */
const describes = (tag?: string) => tag !== undefined && ['a', 'ad', 'an', 'd', 'z', 'i', 'l'].includes(tag);

/**
 * Structural particles by jieba's tag (uj 的, ul 了, uz 着, uv 地, ud 得), with their neutral
 * reading. jieba tags nearly every 地 standing alone uv, so 地 is read as the particle only where
 * it joins an adverbial to a verb: a verb, adverb, preposition or set phrase after it, or an
 * adjective or adverb before it and a word after it (最大限度地反映, 惊讶地问, 冷静地将; the
 * noun of 迁至他地 and of a text with words cut in two, 有一个地歌曲方, keeps di4). 得 is the
 * particle after a verb or adjective with a word after it (读得很好; the verb of 得了九十分 keeps de2).
 */
const PARTICLES: Readonly<Record<string, { tag: string; reading: string; where?: (a: Around) => boolean }>> = {
  的: { tag: 'uj', reading: 'de5' },
  了: { tag: 'ul', reading: 'le5' },
  着: { tag: 'uz', reading: 'zhe5' },
  地: { tag: 'uv', reading: 'de5', where: ({ before, after }) => before !== undefined && (leadsToVerb(after) || (describes(before) && after !== undefined)) },
  得: { tag: 'ud', reading: 'de5', where: ({ before, after }) => after !== undefined && before !== undefined && /^[va]/.test(before) },
};

/** The segmenter, made on first use (loading its dictionary is the text layer's first-call cost: `npm run bench:zh-text`). */
let jieba: Jieba | null = null;
const segmenter = () => (jieba ??= Jieba.withDict(dict));
const words = (text: string) => segmenter().tag(text, false);

/** Loads the word segmenter's dictionary now rather than with the first text (the server's start-up). */
export function loadWordSegmenter(): void {
  segmenter();
}

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
 * Reads a run of Chinese characters (one clause or line, no punctuation inside). A character of
 * a word of two or more characters is read from that word; a particle by its tag (PARTICLES); a
 * word of one character as pinyin-pro reads it in the whole run (为 in 以此为例 wei2, from
 * its 为例). Words whose pinyin does not split into one syllable per character fall back to the
 * characters' own readings.
 */
export function contextPinyin(chars: string[]): ContextPinyin {
  const text = chars.join('');
  // pinyin-pro over the whole run, read only when a one-character word needs it.
  let inRun: (Reading | null)[] | null = null;
  const readings: (Reading | null)[] = [];
  const wordIds: number[] = [];
  const tagged = words(text);
  tagged.forEach(({ word, tag }, wordId) => {
    const particle = PARTICLES[word];
    const isParticle = particle?.tag === tag && (!particle.where || particle.where({ before: tagged[wordId - 1]?.tag, after: tagged[wordId + 1]?.tag }));
    const at = readings.length;
    const length = Array.from(word).length;
    const read = isParticle ? [parseReading(particle.reading)] : length > 1 ? readRun(word) : (inRun ??= readRun(text)).slice(at, at + length);
    for (const r of read) {
      readings.push(r);
      wordIds.push(wordId);
    }
  });
  return { readings, wordIds };
}

/** One reading per character of `run` from pinyin-pro's segmenter (see contextPinyin). */
function readRun(run: string): (Reading | null)[] {
  return segment(run, OPTIONS).flatMap((part) => {
    const origin = Array.from(part.origin);
    const syllables = part.result.match(SYLLABLE) ?? [];
    const perChar = syllables.length === origin.length;
    return origin.map((ch, k) => {
      if (perChar) return parseReading(syllables[k]);
      return HAN.test(ch) ? parseReading(segment(ch, OPTIONS)[0]?.result ?? '') : null;
    });
  });
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
