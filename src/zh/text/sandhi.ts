/**
 * Tone sandhi: the tone a native speaker is expected to realise for each syllable, given the
 * citation tones. Applied within a phrase (a run of readable characters between punctuation
 * or unread tokens); `words` are the phrase's lexical words (ICU word segmentation).
 *
 * 1. 一 (yi1, only when its citation reading is yi1):
 *    - yi1 when it counts or orders: after 第, next to a digit or 十 (十一, 一二三, 二零一四;
 *      not before 百千万亿, which take the ordinary rule: 一百 yi4, 一万 yi2),
 *      before 月/号 (dates), at the end of a word or phrase (统一, 万一);
 *    - yi5 (neutral) between two identical syllables (看一看, 想一想);
 *    - otherwise yi2 before tone 4 (and before a neutral tone, whose underlying tone is most
 *      often 4: 一个), yi4 before tones 1, 2, 3.
 * 2. 不 (bu4): bu5 between identical syllables (好不好, 是不是); bu2 before tone 4 (不对);
 *    otherwise bu4.
 * 3. Third tone: in a run of consecutive citation tone-3 syllables, a tone 3 before a tone 3
 *    becomes tone 2 (你好 ni2 hao3). Runs of three or more follow their prosodic structure
 *    (Shih 1986; Chen 2000, ch. 9): the run is cut into chunks — lexical words, and
 *    consecutive one-syllable words paired into two-syllable feet from the left — and the
 *    rule applies inside each chunk first (every syllable but the chunk's last becomes 2),
 *    then across chunk boundaries from right to left, where a chunk's last syllable becomes 2
 *    only if the next chunk still starts with a 3 after its own sandhi. Hence
 *    展览馆 [展览][馆] → zhan2 lan2 guan3, 小老虎 [小][老虎] → xiao3 lao2 hu3,
 *    我也很好 [我也][很好] → wo2 ye3 hen2 hao3. Neutral tones break a run.
 * 4. Neutral tone (neutral.ts): the light second syllable of common words and of reduplicated
 *    verbs, applied after rule 3 so that 想想 → xiang2 xiang5 and 小姐 keeps xiao2.
 */
import { neutralPositions } from './neutral.js';

export interface SandhiSyllable {
  char: string;
  syllable: string;
  tone: number;
  /** Index of the lexical word this character belongs to (non-decreasing along the phrase). */
  word: number;
}

/** Digits and 十: next to these, 一 is read as a digit (十一, 一九八四, 二零一四). */
const DIGIT_CHARS = new Set(Array.from('零〇一二三四五六七八九十'));
const DATE_AFTER_YI = new Set(['月', '号']);

function yiTone(p: SandhiSyllable[], i: number): number {
  const prev = p[i - 1];
  const next = p[i + 1];
  if (!next) return 1;
  if (prev?.char === '第') return 1;
  if (prev && next && prev.char === next.char) return 5;
  if ((prev && DIGIT_CHARS.has(prev.char)) || DIGIT_CHARS.has(next.char)) return 1;
  if (DATE_AFTER_YI.has(next.char)) return 1;
  if (next.word !== p[i].word && p[i].word === prev?.word) return 1; // word-final: 统一, 万一
  return next.tone === 4 || next.tone === 5 ? 2 : 4;
}

function buTone(p: SandhiSyllable[], i: number): number {
  const prev = p[i - 1];
  const next = p[i + 1];
  if (!next) return 4;
  if (prev && prev.char === next.char) return 5;
  return next.tone === 4 ? 2 : 4;
}

/** Chunks of a tone-3 run [from, to): lexical words, with lone one-syllable words paired into feet. */
function chunksOf(p: SandhiSyllable[], from: number, to: number): [number, number][] {
  const words: [number, number][] = [];
  for (let i = from; i < to; ) {
    let j = i + 1;
    while (j < to && p[j].word === p[i].word) j++;
    words.push([i, j]);
    i = j;
  }
  const chunks: [number, number][] = [];
  for (let k = 0; k < words.length; k++) {
    const [a, b] = words[k];
    const next = words[k + 1];
    if (b - a === 1 && next && next[1] - next[0] === 1) {
      chunks.push([a, next[1]]);
      k++;
    } else chunks.push([a, b]);
  }
  return chunks;
}

function thirdToneRun(p: SandhiSyllable[], out: number[], from: number, to: number): void {
  const chunks = chunksOf(p, from, to);
  for (const [a, b] of chunks) for (let i = a; i < b - 1; i++) out[i] = 2;
  for (let k = chunks.length - 2; k >= 0; k--) {
    const last = chunks[k][1] - 1;
    if (out[chunks[k + 1][0]] === 3) out[last] = 2;
  }
}

/** Realised tones of a phrase (same length as the input). */
export function applySandhi(phrase: SandhiSyllable[]): number[] {
  const out = phrase.map((s) => s.tone);
  phrase.forEach((s, i) => {
    if (s.char === '一' && s.syllable === 'yi' && s.tone === 1) out[i] = yiTone(phrase, i);
    else if (s.char === '不' && s.syllable === 'bu' && s.tone === 4) out[i] = buTone(phrase, i);
  });
  for (let i = 0; i < phrase.length; ) {
    if (phrase[i].tone !== 3) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < phrase.length && phrase[j].tone === 3) j++;
    if (j - i >= 2) thirdToneRun(phrase, out, i, j);
    i = j;
  }
  const neutral = neutralPositions(phrase.map((s) => s.char), phrase.map((s) => s.word));
  neutral.forEach((light, i) => {
    if (light) out[i] = 5;
  });
  return out;
}
