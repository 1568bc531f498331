import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Recognizer, recognizerSetup, standaloneRecognizer } from '../../src/acoustic/recognize.js';
import { SphinxEngine } from '../../src/acoustic/sphinx/engine.js';
import { referenceFromText } from '../../src/acoustic/progress-reference.js';
import { loadDictionary } from '../../src/acoustic/lexicon.js';
import { resolveModels } from '../../src/models.js';
import { chineseChars, editDistance, englishWords, errorRate } from '../../src/acoustic/recognize-metrics.js';
import { splitIntoCharacters } from '../../src/acoustic/recognize-words.js';
import { decodeAudio } from '../../src/audio/decode.js';
import type { RecognizeResult } from '../../src/acoustic/types.js';
import { REPO_ROOT, SHARED_DATA_DIR, tempDir } from '../helpers/app.js';

const cache = tempDir('kouyu-asr-');
const recognizer = standaloneRecognizer(path.join(REPO_ROOT, 'models'), cache);
after(() => {
  recognizer.close();
  fs.rmSync(cache, { recursive: true, force: true });
});

async function pcmOf(file: string): Promise<Int16Array> {
  return (await decodeAudio(fs.readFileSync(file))).pcm;
}

function checkTimings(res: RecognizeResult, pcm: Int16Array): void {
  const frames = Math.ceil(pcm.length / 160);
  let last = 0;
  for (const w of res.words) {
    assert.ok(w.startFrame >= last, `words overlap at ${w.word}`);
    assert.ok(w.endFrame >= w.startFrame && w.endFrame <= frames + 1, `word ${w.word} outside the audio`);
    last = w.startFrame;
  }
}

test('unit: edit distance and error rate', () => {
  assert.equal(editDistance(['a', 'b', 'c'], ['a', 'c', 'd']), 2);
  assert.equal(errorRate([{ ref: [...'abcd'], hyp: [...'abcd'] }, { ref: [...'ab'], hyp: [] }]), 2 / 6);
  assert.deepEqual(chineseChars('你好，世界。'), ['你', '好', '世', '界']);
  assert.deepEqual(englishWords("Mister Dashwood's, house."), ['mister', "dashwood's", 'house']);
});

test('unit: Mandarin words split into characters in proportion to their phones', () => {
  const lexicon = { phones: [], lookup: (c: string) => (c === '阿' ? [['a']] : [['x', 'y']]) };
  const parts = splitIntoCharacters({ word: '阿姨们', startFrame: 10, endFrame: 60 }, lexicon);
  assert.deepEqual(parts, [
    { word: '阿', startFrame: 10, endFrame: 20 },
    { word: '姨', startFrame: 20, endFrame: 40 },
    { word: '们', startFrame: 40, endFrame: 60 },
  ]);
});

test('English: librivox sentences recognised with WER below 0.45, confidence in (0, 1]', async () => {
  const dir = path.join(SHARED_DATA_DIR, 'en', 'librivox');
  // The two shortest sentences (3.0 s and 3.3 s), to keep the suite short.
  const ids = ['sense_and_sensibility_01_austen_64kb-0880', 'sense_and_sensibility_01_austen_64kb-0930'];
  const pairs = [];
  for (const id of ids) {
    const pcm = await pcmOf(path.join(dir, `${id}.flac`));
    const res = recognizer.recognize('en', pcm);
    checkTimings(res, pcm);
    assert.ok(res.confidence !== null && res.confidence > 0 && res.confidence <= 1, `confidence ${res.confidence}`);
    assert.equal(res.text, res.words.map((w) => w.word).join(' '));
    pairs.push({ ref: englishWords(fs.readFileSync(path.join(dir, `${id}.txt`), 'utf8')), hyp: englishWords(res.text) });
  }
  // Measured 0.19 on these two and 0.27 on all 13 librivox + LJ Speech sentences
  // (bench/recognize.ts); a recogniser unrelated to the audio scores about 1.
  const wer = errorRate(pairs);
  assert.ok(wer < 0.45, `WER ${wer.toFixed(3)}`);
});

test('Mandarin: the repaired LM recognises AISHELL with CER below 0.6 and per-character times', async () => {
  const dir = path.join(SHARED_DATA_DIR, 'zh', 'aishell-s0150');
  const refs = new Map(fs.readFileSync(path.join(dir, 'transcripts.tsv'), 'utf8').trim().split('\n').map((l) => l.split('\t') as [string, string]));
  const pairs = [];
  for (const id of ['BAC009S0150W0203', 'BAC009S0150W0209', 'BAC009S0150W0211']) {
    const pcm = await pcmOf(path.join(dir, `${id}.flac`));
    const res = recognizer.recognize('zh', pcm);
    checkTimings(res, pcm);
    assert.equal(res.confidence, null);
    assert.ok(res.words.every((w) => [...w.word].length === 1), 'one character per word');
    assert.equal(res.text, res.words.map((w) => w.word).join(''));
    pairs.push({ ref: chineseChars(refs.get(id) ?? ''), hyp: chineseChars(res.text) });
  }
  // Three short news sentences (3-4 s), measured 0.1 together; over 20 sentences
  // (W0200-W0219, bench/recognize.ts) the CER is about 0.45, some sentences near 1 where the
  // 5,000-word LM lacks the words. Unrelated text scores about 1, so 0.6 is well beyond chance.
  const cer = errorRate(pairs);
  assert.ok(cer < 0.6, `CER ${cer.toFixed(3)}`);
});

test('empty audio gives an empty result, not an error', () => {
  const res = recognizer.recognize('en', new Int16Array(0));
  assert.deepEqual(res.words, []);
  assert.equal(res.text, '');
});

test('recognition shares the alignment engine\'s decoder: align, recognise, align again give consistent results', async () => {
  const models = path.join(REPO_ROOT, 'models');
  const engine = SphinxEngine.create(models, ['en']);
  try {
    const dir = path.join(SHARED_DATA_DIR, 'en', 'librivox');
    const id = 'sense_and_sensibility_01_austen_64kb-0880';
    const pcm = await pcmOf(path.join(dir, `${id}.flac`));
    const { units } = referenceFromText(fs.readFileSync(path.join(dir, `${id}.txt`), 'utf8'), 'en', loadDictionary(resolveModels(models).en.dict, 'en'));
    const grammar = { slots: units.map((u) => ({ alternatives: [u] })) };
    const before = engine.align('en', pcm, grammar);
    const rec = new Recognizer(recognizerSetup(models, cache));
    const first = rec.recognize('en', engine.decoder('en'), pcm, null);
    const afterAlign = engine.align('en', pcm, grammar);
    const second = rec.recognize('en', engine.decoder('en'), pcm, null);
    assert.ok(before.ok && afterAlign.ok);
    assert.deepEqual(afterAlign.units.map((u) => [u.slot, u.startFrame, u.endFrame]), before.units.map((u) => [u.slot, u.startFrame, u.endFrame]));
    assert.equal(second.text, first.text);
    assert.ok(errorRate([{ ref: englishWords(units.map((u) => u.label).join(' ')), hyp: englishWords(first.text) }]) < 0.5);
  } finally {
    engine.close();
  }
});
