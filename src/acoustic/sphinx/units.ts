/**
 * Turns decoded segments into the contract's unit and phone segments: the word pass gives
 * which slot, alternative and pronunciation each word was (or an inserted phone, or silence);
 * the phone pass gives the phones' frames and scores, and the units' final spans.
 * Pure functions over decoder output.
 */
import { INSERTION_LABEL, type GrammarSpec, type PhoneSegment, type UnitSegment } from '../types.js';
import type { DecodedSegment } from './decoder.js';
import { isNullWord, isPronWord, phonesOfWord, type WordRole } from './grammar.js';

/** Word-pass units: slot words, merged runs of inserted phones, and silence/fillers. */
export function buildUnits(
  segments: readonly DecodedSegment[],
  roles: readonly WordRole[],
  grammar: GrammarSpec,
  offset: number,
): UnitSegment[] {
  const units: UnitSegment[] = [];
  let r = 0;
  for (const seg of segments) {
    if (isNullWord(seg.word)) continue;
    const startFrame = seg.startFrame + offset;
    const endFrame = seg.endFrame + offset;
    if (!isPronWord(seg.word)) {
      units.push({ slot: -1, label: fillerLabel(seg.word), pron: 0, startFrame, endFrame, score: seg.ascr, phones: [] });
      continue;
    }
    const role = roles[r++];
    if (role.kind === 'slot') {
      const alt = grammar.slots[role.slot].alternatives[role.alt];
      units.push({ slot: role.slot, label: alt.label, pron: role.pron, startFrame, endFrame, score: seg.ascr, phones: [] });
      continue;
    }
    const phone: PhoneSegment = { phone: role.phone, startFrame, endFrame, score: seg.ascr };
    const prev = units[units.length - 1];
    if (prev && prev.label === INSERTION_LABEL && prev.slot === -1 && prev.endFrame === startFrame) {
      prev.endFrame = endFrame;
      prev.score += seg.ascr;
      prev.phones.push(phone);
    } else {
      units.push({ slot: -1, label: INSERTION_LABEL, pron: 0, startFrame, endFrame, score: seg.ascr, phones: [phone] });
    }
  }
  return units;
}

/** True for units that carry phones: slot words and insertions (not silence or fillers). */
export function isContentUnit(u: UnitSegment): boolean {
  return u.slot >= 0 || u.label === INSERTION_LABEL;
}

/** The phones of a content unit: its chosen pronunciation, or the inserted phones. */
export function unitPhones(u: UnitSegment, grammar: GrammarSpec): string[] {
  if (u.slot < 0) return u.phones.map((p) => p.phone);
  const alt = grammar.slots[u.slot].alternatives.find((a) => a.label === u.label);
  if (!alt) throw new Error(`unit ${u.label} is not an alternative of slot ${u.slot}`);
  return alt.prons[u.pron];
}

/**
 * Phone-pass result folded into the units. Each content unit takes its phones in order; its
 * span becomes [first phone start, last phone end) and its score the sum of its phones', so
 * phones always nest inside their unit. Silence between units becomes silence units; silence
 * the decoder put between two phones of one unit stays inside that unit's span.
 */
export function refineWithPhones(
  units: readonly UnitSegment[],
  phoneSegments: readonly DecodedSegment[],
  phonesPerUnit: readonly string[][],
  offset: number,
): UnitSegment[] {
  const content = units.filter(isContentUnit);
  const out: UnitSegment[] = [];
  let k = 0;
  let current: UnitSegment | null = null;
  for (const seg of phoneSegments) {
    if (isNullWord(seg.word)) continue;
    const startFrame = seg.startFrame + offset;
    const endFrame = seg.endFrame + offset;
    if (!isPronWord(seg.word)) {
      if (current === null) {
        out.push({ slot: -1, label: fillerLabel(seg.word), pron: 0, startFrame, endFrame, score: seg.ascr, phones: [] });
      }
      continue;
    }
    if (current === null) {
      const u = content[k];
      current = { ...u, startFrame, endFrame, score: 0, phones: [] };
      out.push(current);
    }
    current.phones.push({ phone: phonesOfWord(seg.word)[0], startFrame, endFrame, score: seg.ascr });
    current.endFrame = endFrame;
    current.score += seg.ascr;
    if (current.phones.length === phonesPerUnit[k].length) {
      current = null;
      k++;
    }
  }
  return out;
}

function fillerLabel(word: string): string {
  return word.replace(/\(\d+\)$/, '');
}
