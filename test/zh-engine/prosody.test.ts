/**
 * Pauses inside a Mandarin clause: a phrase break between words is no fault, a pause inside a
 * word or reading word by word is (src/zh/engine/prosody.ts). On hand-made timings and on a
 * native reading with silence spliced in.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { decodeAudio, type DecodedAudio } from '../../src/audio/decode.js';
import type { AcousticBackend } from '../../src/acoustic/types.js';
import type { Assessment } from '../../src/assessment/types.js';
import { parseEvaluationConfig } from '../../src/evaluation/config.js';
import { createInThreadBackend } from '../../src/acoustic/backend.js';
import { createMandarinEngine, type MandarinEngine } from '../../src/zh/engine/engine.js';
import { prosody, type TimedSyllable } from '../../src/zh/engine/prosody.js';
import { REPO_ROOT, SHARED_DATA_DIR, testConfig } from '../helpers/app.js';

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

// W0127 越高越安全第二个指标: read with a natural pause between 越高越安全 and 第二个指标 (words
// 越高|越|安全|第二个|指标 in the text's segmentation).
const S127 = { id: 'BAC009S0150W0127', text: '越高越安全第二个指标' };
let backend: AcousticBackend;
let engine: MandarinEngine;
let reading: DecodedAudio;

before(async () => {
  backend = createInThreadBackend(testConfig(), { langs: ['zh'] });
  engine = await createMandarinEngine({ backend, modelsDir: path.join(REPO_ROOT, 'models') });
  reading = await decodeAudio(fs.readFileSync(path.join(SHARED_DATA_DIR, 'zh', 'aishell-s0150', `${S127.id}.flac`)));
});
after(() => backend.close());

const assess = (audio: DecodedAudio) => engine.assess(parseEvaluationConfig({ coreType: 'sentence', language: 'zh-CN', referenceText: S127.text }), audio);

/** The reading with 400 ms of near-silence put in after each of characters `after` (their aligned ends). */
function withSilences(a: Assessment, after: number[]): DecodedAudio {
  const chars = a.units.filter((u) => u.charType === 0);
  const cuts = after.map((k) => chars[k].span!.end * 160).sort((x, y) => x - y);
  const pieces: Int16Array[] = [];
  let from = 0;
  for (const at of cuts) {
    pieces.push(reading.pcm.subarray(from, at), Int16Array.from({ length: 6400 }, (_, i) => ((i * 7919) % 5) - 2));
    from = at;
  }
  pieces.push(reading.pcm.subarray(from));
  const pcm = new Int16Array(pieces.reduce((n, p) => n + p.length, 0));
  pieces.reduce((at, p) => (pcm.set(p, at), at + p.length), 0);
  return { ...reading, pcm, durationSec: pcm.length / reading.sampleRate };
}

test('a native reading that breaks a clause between words keeps its fluency; silence inside a word or after every word costs it', async () => {
  const native = await assess(reading);
  // Before phrase breaks were told apart: fluency 65 and overall 81.5 for this reading.
  assert.ok(native.dimensions.fluency >= 85, `fluency ${native.dimensions.fluency}`);
  assert.ok(native.overall >= 90, `overall ${native.overall}`);
  assert.equal(native.sentences[0].scores.fluency, native.dimensions.fluency);
  const insideWord = await assess(withSilences(native, [8]));
  assert.ok(insideWord.dimensions.fluency < native.dimensions.fluency - 10, `silence inside 指标: ${insideWord.dimensions.fluency}`);
  assert.ok(insideWord.sentences[0].scores.fluency < insideWord.dimensions.fluency, 'the sentence shows the break too');
  // The advice names the pause; the natural reading is praised.
  assert.match(insideWord.suggestions.fluency, /停顿/);
  assert.equal(native.suggestions.fluency, '朗读流畅自然。');
  const wordByWord = await assess(withSilences(native, [1, 2, 7]));
  assert.ok(wordByWord.dimensions.fluency < native.dimensions.fluency - 10, `word by word: ${wordByWord.dimensions.fluency}`);
});
