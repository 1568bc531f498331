/**
 * Caller-supplied pronunciations of the compat protocol (`customized_lexicon`,
 * `customized_pron`; see compat.ts for their form) applied to a Mandarin task: each listed
 * word's characters take the given numeric-tone pinyin wherever the word occurs in the
 * reference, and the result reaches the engine as a complete `refPinyin`. An explicit
 * `refPinyin` wins. For Chinese only the first pronunciation of a word is used (a character
 * has one expected reading).
 */
import { invalid } from '../errors.js';
import { analyzeMandarinText } from '../zh/text/index.js';
import type { EvaluationConfig } from './config.js';

export function withCustomPinyin(config: EvaluationConfig, lexicon: Record<string, string[]>): EvaluationConfig {
  const entries = Object.entries(lexicon).filter(([word]) => /\p{Script=Han}/u.test(word));
  if (config.language !== 'zh-CN' || config.refPinyin || entries.length === 0) return config;
  const text = analyzeMandarinText(config.referenceText, { genre: config.genre ?? undefined });
  const reading = text.chars.map((c) => c.rawpinyin);
  const byOffset = new Map(text.chars.map((c) => [c.beginIndex, c.charIndex]));
  const ref = [...config.referenceText];
  for (const [word, prons] of entries) {
    const chars = [...word];
    const syllables = prons[0].trim().split(/\s+/);
    if (syllables.length !== chars.length) {
      throw invalid(`customized pronunciation of "${word}" has ${syllables.length} syllables for ${chars.length} characters`);
    }
    for (let at = 0; at + chars.length <= ref.length; at++) {
      if (!chars.every((ch, k) => ref[at + k] === ch)) continue;
      chars.forEach((_, k) => {
        const index = byOffset.get(at + k);
        if (index !== undefined) reading[index] = syllables[k];
      });
    }
  }
  return { ...config, refPinyin: reading.join(' ') };
}
