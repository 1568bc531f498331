/**
 * A plain reference for progress sessions from text and the model's dictionary: Mandarin one
 * unit per Han character, English one unit per word. Scoring layers normally build their units
 * with their own text engines (polyphones, numbers, letter-to-sound); this is the simple form
 * tools, benchmarks and tests use. Words the dictionary lacks are reported, not guessed.
 * Pure.
 */
import type { AcousticLang, AlignUnit, Lexicon } from './types.js';

export interface TextReference {
  units: AlignUnit[];
  /** Tokens left out because the dictionary has no pronunciation for them. */
  missing: string[];
}

export function referenceFromText(text: string, lang: AcousticLang, lexicon: Lexicon): TextReference {
  const tokens = lang === 'zh'
    ? text.match(/\p{Script=Han}/gu) ?? []
    : text.toLowerCase().replace(/[^a-z' ]+/g, ' ').split(/\s+/).filter((w) => w !== '');
  const units: AlignUnit[] = [];
  const missing: string[] = [];
  for (const label of tokens) {
    const prons = lexicon.lookup(label);
    if (prons && prons.length > 0) units.push({ label, prons });
    else missing.push(label);
  }
  return { units, missing };
}
