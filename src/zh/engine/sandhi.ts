/**
 * Which realised tones the tone judgement accepts. The text layer gives one expected sandhi
 * tone; in runs of third tones prosodic grouping can leave a middle syllable low (Duanmu 2007,
 * "The Phonology of Standard Chinese", ch. 11), so there both 2 and 3 are accepted. Neutral
 * tones are not judged.
 */
import { isJudgedTone } from '../tone/classifier.js';
import type { ZhToken } from './text.js';

/** Which read syllables have their tone judged (classifier.ts `isJudgedTone`): the tone model's context. */
export function judgedTones(tokens: ZhToken[], read: number[]): boolean[] {
  return read.map((i) => isJudgedTone(tokens[i].sandhiTone, tokens[i].tone));
}

/** Tones a reader may correctly realise for a syllable (third-tone run middles accept 2 or 3). */
export function acceptedTones(tokens: ZhToken[], read: number[], k: number): number[] {
  const t = tokens[read[k]];
  if (t.tone === 5) return [1, 2, 3, 4, 5];
  const prev = k > 0 ? tokens[read[k - 1]] : null;
  if (t.tone === 3 && t.sandhiTone === 2 && prev && prev.tone === 3 && prev.clause === t.clause) return [2, 3];
  return t.sandhiTone === t.tone ? [t.tone] : [t.sandhiTone];
}
