/**
 * Builds the language-neutral units of a Mandarin reading: one per reference character
 * (read characters with their judgements, punctuation and other characters unscored), plus
 * inserted and repeated syllables placed after the character they followed.
 */
import type { PhoneAssessment, ReadStatus, ToneAssessment, UnitAssessment } from '../../assessment/types.js';
import { extraUnit } from '../../assessment/shaping.js';
import type { AlignedSyllable } from './align.js';
import type { Insertion } from './context.js';
import { markedPinyin, numericPinyin, plainPinyin } from './pinyin-format.js';
import type { SyllableTable } from './syllables.js';
import type { ZhText, ZhToken } from './text.js';

export interface CharJudgement {
  aligned: AlignedSyllable | null;
  pronunciation: number | null;
  gop: number | null;
  substituted: boolean;
  heard: string | null;
  tone: ToneAssessment | null;
  prominence: number;
  pauseAfter: number;
}

function pinyinFields(syllable: string, tone: number, sandhi: number): Record<string, unknown> {
  return {
    pinyin: plainPinyin(syllable),
    rawpinyin: numericPinyin(syllable, tone),
    symbolpinyin: markedPinyin(syllable, tone),
    normalized_syllables: [{ syllables: plainPinyin(syllable), pinyin: numericPinyin(syllable, tone), tone: `tone${tone}`, tone_sandhi: `tone${sandhi}` }],
  };
}

function phonesOf(table: SyllableTable, t: ZhToken, j: CharJudgement): PhoneAssessment[] {
  const a = j.aligned;
  if (!a) return [];
  const initial = table.initialOf(t.syllable);
  const final = table.finalOf(t.syllable);
  return a.phones.map((p, i) => {
    const isFinal = i === a.phones.length - 1;
    const gop = p.gop ?? null;
    const score = gop === null ? (j.pronunciation ?? 0) : Math.min(100, Math.max(0, 100 / (1 + Math.exp(-(gop + 4) / 0.9))));
    return {
      phoneme: isFinal ? final || t.syllable : initial || p.phone,
      phone: p.phone,
      category: isFinal ? 1 : 0,
      // A substituted syllable caps its phones too, so no phone looks better than the character.
      pronunciation: j.substituted ? Math.min(score, j.pronunciation ?? score) : score,
      toneIndex: isFinal ? `tone${t.sandhiTone}` : '',
      span: { start: p.startFrame, end: p.endFrame },
    };
  });
}

function pauseType(frames: number): number {
  // 0 none, 1 short (< 300 ms), 2 long.
  return frames <= 0 ? 0 : frames < 30 ? 1 : 2;
}

export function buildUnits(table: SyllableTable, text: ZhText, judged: readonly CharJudgement[], insertions: readonly Insertion[], labels: readonly string[]): UnitAssessment[] {
  const kOf = new Map(text.read.map((ti, k) => [ti, k]));
  const units: UnitAssessment[] = [];
  text.tokens.forEach((t, ti) => {
    const k = kOf.get(ti);
    const base = { text: t.text, charType: t.charType, readType: 0 as const, beginIndex: t.beginIndex, endIndex: t.endIndex, sentence: t.sentence };
    if (k === undefined) {
      units.push({ ...base, readStatus: 'correct', span: null, pronunciation: null, gop: null, prominence: 0, tone: null, pauseAfter: { type: 0, duration: 0 }, phones: [], extra: { ...t.fields }, heard: null });
      return;
    }
    const j = judged[k];
    // A character the model cannot spell has no acoustic evidence: reported correct, unscored.
    const modelled = table.prons.has(t.syllable);
    const status: ReadStatus = !j.aligned ? (modelled ? 'skipped' : 'correct') : j.substituted ? 'mispronounced' : 'correct';
    const readType = status === 'skipped' ? 2 : 0;
    const heardSyl = j.aligned ? (j.substituted ? j.heard : labels[k]) : null;
    units.push({
      ...base,
      readType,
      readStatus: status,
      span: j.aligned ? { start: j.aligned.startFrame, end: j.aligned.endFrame } : null,
      pronunciation: j.pronunciation,
      gop: j.gop,
      prominence: j.prominence,
      tone: j.tone,
      pauseAfter: { type: pauseType(j.pauseAfter), duration: j.pauseAfter },
      phones: phonesOf(table, t, j),
      extra: { ...t.fields },
      heard: heardSyl === null ? null : { text: t.text, syllable: heardSyl, final: table.finalOf(heardSyl) || heardSyl },
    });
    for (const ins of insertions.filter((x) => x.after === k)) units.push(...insertedUnits(table, ins, labels, k, t));
  });
  return units;
}

function insertedUnits(table: SyllableTable, ins: Insertion, labels: readonly string[], k: number, after: ZhToken): UnitAssessment[] {
  return ins.syllables.map((s) => {
    const repeated = table.same(s.syllable, labels[k]) || (k + 1 < labels.length && table.same(s.syllable, labels[k + 1]));
    return extraUnit({
      text: plainPinyin(s.syllable),
      readType: repeated ? 3 : 1,
      readStatus: repeated ? 'repeated' : 'inserted',
      beginIndex: -1,
      endIndex: -1,
      sentence: after.sentence,
      span: { start: s.startFrame, end: s.endFrame },
      extra: { tone: '', ...pinyinFields(s.syllable, 5, 5), word_parts: [] },
      heard: { text: plainPinyin(s.syllable), syllable: s.syllable, final: table.finalOf(s.syllable) || s.syllable },
    });
  });
}
