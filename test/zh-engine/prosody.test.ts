/**
 * Pauses inside a Mandarin clause on hand-made timings: a phrase break between words is no
 * fault, a pause inside a word or reading word by word is (src/zh/engine/prosody.ts). A native
 * reading with silence spliced in: test/zh-engine/engine.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prosody, type TimedSyllable } from '../../src/zh/engine/prosody.js';

/** Twelve syllables of 20 frames in six two-syllable words, one clause; `gaps` after syllable i. */
function clause(gaps: Record<number, number>): TimedSyllable[] {
  let t = 0;
  return Array.from({ length: 12 }, (_, i) => {
    const s = { startFrame: t, endFrame: t + 20, clause: 0, sentence: 0, word: Math.floor(i / 2), gapAfter: gaps[i] ?? 0, energyDb: 60, question: false };
    t += 20 + s.gapAfter;
    return s;
  });
}

const fluencyOf = (gaps: Record<number, number>) => prosody(clause(gaps), null, 'prose', 3, 1);

test('a pause between words is a phrase break, one per six syllables; inside a word, longer or more often it is a break', () => {
  const plain = fluencyOf({});
  // 400 ms after syllable 5 ends the third word: a phrase break, as fluent as no pause.
  const phrase = fluencyOf({ 5: 40 });
  assert.equal(phrase.fluency, plain.fluency);
  assert.equal(phrase.breaksBySentence.size, 0);
  // Two phrase breaks in twelve syllables are allowed; a third is reading word by word.
  assert.equal(fluencyOf({ 3: 40, 7: 40 }).fluency, plain.fluency);
  const wordByWord = fluencyOf({ 1: 40, 3: 40, 5: 40, 7: 40, 9: 40 });
  assert.ok(wordByWord.fluency < plain.fluency - 20, `word by word ${wordByWord.fluency} against ${plain.fluency}`);
  assert.equal(wordByWord.breaksBySentence.get(0), 3);
  // The same pause inside a word, or a pause of more than three times the tolerance between words.
  const inside = fluencyOf({ 4: 40 });
  assert.ok(inside.fluency < plain.fluency - 10, `inside a word ${inside.fluency}`);
  assert.equal(inside.breaksBySentence.get(0), 1);
  assert.ok(fluencyOf({ 5: 100 }).fluency < plain.fluency - 10, 'a hesitation of a second between words');
});
