/**
 * Produced lexical stress. A stressed English syllable is longer, louder and higher or
 * moving in pitch than its neighbours (Fry 1958; Beckman 1986); cues are compared inside the
 * word so speaker, loudness and rate cancel out. Per vowel: prominence = z(duration) +
 * z(energy) + z(F0), z over the word's vowels; the most prominent vowel is the produced
 * primary stress. Monosyllables carry no lexical stress contrast and are judged as matching.
 * Pure: evidence and frame arrays in, judgements out.
 */
import { isVowel, syllabify } from '../lexicon/index.js';
import type { WordEvidence } from './evidence.js';
import { meanOver, type SignalFrames } from './signal.js';

export interface SyllableStress {
  /** Lexical stress of the syllable's vowel (1 primary, 2 secondary, 0 none). */
  refStress: 0 | 1 | 2;
  /** Produced: 1 when this is the most prominent vowel of the word, else 0. */
  stress: 0 | 1;
  prominence: number;
  /** The syllable's phones with the stress digit on the vowel ("R EH1"). */
  phonetic: string;
  /** Phone index range [first, end) of the syllable in the word's phones. */
  firstPhone: number;
  endPhone: number;
}

export interface StressJudgement {
  syllables: SyllableStress[];
  /** Produced primary on the lexical primary (true for monosyllables). */
  matched: boolean;
  /** Prominence of the lexical primary minus the strongest other vowel (0 for monosyllables). */
  margin: number;
  polysyllabic: boolean;
}

export function judgeStress(word: WordEvidence, signal: SignalFrames): StressJudgement {
  const syllables = syllabify(word.pron);
  const vowels = word.phones.map((p, i) => (isVowel(p.phone) ? i : -1)).filter((i) => i >= 0);
  const cues = vowels.map((i) => vowelCues(word, i, signal));
  const zd = zScores(cues.map((c) => c.dur));
  const ze = zScores(cues.map((c) => c.energy));
  const zf = zScores(cues.map((c) => c.f0));
  // Pitch weighs half: F0 also carries intonation, which moves it across whole words.
  const z = zd.map((v, k) => v + ze[k] + 0.5 * zf[k]);
  const top = z.length ? z.indexOf(Math.max(...z)) : -1;
  let phoneCursor = 0;
  const out: SyllableStress[] = syllables.map((syl, k) => {
    const n = syl.phones.length;
    const first = phoneCursor;
    phoneCursor += n;
    const ref = (word.pron.stress[k] ?? 0) as 0 | 1 | 2;
    const phonetic = syl.phones.map((ph) => (isVowel(ph) ? `${ph}${ref}` : ph)).join(' ');
    return { refStress: ref, stress: k === top ? 1 : 0, prominence: round2(z[k] ?? 0), phonetic, firstPhone: first, endPhone: first + n };
  });
  const primary = word.pron.stress.indexOf(1);
  const polysyllabic = vowels.length >= 2 && primary >= 0 && word.status === 'read';
  if (!polysyllabic) return { syllables: out, matched: word.status === 'read', margin: 0, polysyllabic: false };
  const others = z.filter((_, k) => k !== primary);
  const margin = z[primary] - Math.max(...others);
  return { syllables: out, matched: top === primary, margin, polysyllabic: true };
}

function vowelCues(word: WordEvidence, i: number, signal: SignalFrames): { dur: number; energy: number; f0: number } {
  const p = word.phones[i];
  if (p.startFrame < 0) return { dur: 0, energy: -100, f0: 0 };
  const f0 = meanOver(signal.f0, p.startFrame, p.endFrame, true);
  return {
    dur: Math.log(Math.max(1, p.endFrame - p.startFrame)),
    energy: meanOver(signal.energyDb, p.startFrame, p.endFrame),
    // Semitones re 100 Hz; an unvoiced vowel gets the word's lowest value through NaN → mean.
    f0: Number.isFinite(f0) ? 12 * Math.log2(f0 / 100) : NaN,
  };
}

function zScores(values: number[]): number[] {
  const finite = values.filter(Number.isFinite);
  if (finite.length < 2) return values.map(() => 0);
  const mean = finite.reduce((a, b) => a + b, 0) / finite.length;
  const sd = Math.sqrt(finite.reduce((a, b) => a + (b - mean) ** 2, 0) / finite.length) || 1;
  return values.map((v) => (Number.isFinite(v) ? (v - mean) / sd : 0));
}

function round2(v: number): number {
  return Math.round(v * 100) / 100;
}
