/**
 * The compat channel's intermediate results know words the way the final scorer does: English
 * words outside the dictionary through letter-to-sound, the compat custom pronunciations,
 * numbers as their spoken words; Mandarin digits as the characters read. End to end on a real
 * recording, a correctly read out-of-dictionary last word is reported read and matched, and the
 * round is then scored early.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { AcousticBackend } from '../../src/acoustic/types.js';
import { decodeAudio } from '../../src/audio/decode.js';
import { wavBuffer } from '../../src/audio/encode.js';
import { concatPcm } from '../../src/audio/resample.js';
import { parseEvaluationConfig } from '../../src/evaluation/config.js';
import { referenceWords } from '../../src/evaluation/ws/interim.js';
import { loadEnglishLexicon } from '../../src/en/lexicon/index.js';
import { buildTestApp, listenOnLoopback } from '../helpers/app.js';
import { createAccount, type TestAccount } from '../helpers/gateway.js';
import { librivox } from '../acoustic/speech.js';
import { connect, type Received } from '../helpers/ws.js';

let app: FastifyInstance;
let base: string;
let account: TestAccount;
let backend: AcousticBackend;

before(async () => {
  ({ app } = await buildTestApp());
  base = await listenOnLoopback(app);
  account = await createAccount(app, { tier: 'enterprise' });
  backend = await app.speech.acoustic();
});
after(() => app.close());

const noCustom = { lexicon: {}, adaptive: false };

test('English reference words: every read word of the text layer, with letter-to-sound and custom pronunciations', async () => {
  const lexicon = await loadEnglishLexicon();
  assert.equal(lexicon.describeWord('dispozed').oov, true, 'the test word is outside the dictionary');
  const config = parseEvaluationConfig({ coreType: 'sentence', language: 'en-US', referenceText: 'I have 3 apples, dispozed qxz.' });
  const plain = await referenceWords(config, backend, noCustom);
  assert.deepEqual(plain.words.map((w) => w.word), ['I', 'have', '3', 'apples', 'dispozed', 'qxz']);
  assert.ok(plain.words.every((w) => w.unit !== null), 'letter-to-sound gives every word a pronunciation');
  const three = plain.units[plain.words[2].unit!];
  assert.ok(three.prons.some((p) => p.join(' ') === 'TH R IY'), '3 is read as three');
  assert.deepEqual(plain.units[plain.words[4].unit!].prons[0], ['D', 'IH', 'S', 'P', 'OW', 'Z', 'D']);
  assert.deepEqual([plain.words[4].beginIndex, plain.words[4].endIndex], [17, 25]);

  const custom = await referenceWords(config, backend, { lexicon: { qxz: ['M AE1 N'] }, adaptive: false });
  assert.ok(custom.units[custom.words[5].unit!].prons.some((p) => p.join(' ') === 'M AE N'), 'the custom pronunciation is accepted');
});

test('Mandarin reference words: digits as the characters read, Latin letters not read, custom readings applied', async () => {
  const config = parseEvaluationConfig({ coreType: 'sentence', language: 'zh-CN', referenceText: '我有3个苹果和ABC。' });
  const ref = await referenceWords(config, backend, noCustom);
  assert.deepEqual(ref.words.map((w) => w.word), ['我', '有', '三', '个', '苹', '果', '和']);
  assert.deepEqual([ref.words[2].beginIndex, ref.words[2].endIndex], [2, 3], 'offsets point at the digit as written');
  assert.ok(ref.words.every((w) => w.unit !== null));
  // 和 read hu (customized reading) spells other phones than the default he.
  const custom = await referenceWords(config, backend, { lexicon: { 和: ['hu2'] }, adaptive: false });
  assert.notDeepEqual(custom.units[6].prons, ref.units[6].prons);
});

test('a correctly read out-of-dictionary last word is reported matched, and the round is scored early', async () => {
  const lv = librivox(1); // "he was not an ill disposed young man"
  assert.deepEqual(lv.words.slice(-3), ['disposed', 'young', 'man']);
  const text = [...lv.words.slice(0, -3), 'dispozed', 'young', 'qxz'].join(' ');
  const pcm = (await decodeAudio(fs.readFileSync(lv.file))).pcm;
  const reading = wavBuffer(concatPcm([pcm, new Int16Array(16000 * 1.5)]), 16000);
  const speechEnd = 44 + pcm.length * 2;

  const { client, first } = await connect(`ws://${base}/sent.eval?token=${account.token}`);
  assert.equal(first.event, 'connected');
  client.send({ refText: text, language: 'en-US', realtime_feedback: 1, customized_pron: 'qxz:M AE N', timing: 1 });
  assert.deepEqual(await client.json(), { event: 'started' });
  // The reading at four times real time, the silence after it at real-time pace.
  for (let i = 0; i < reading.length; i += 3200) {
    client.send(reading.subarray(i, i + 3200));
    await new Promise((r) => setTimeout(r, i >= speechEnd ? 100 : 25));
  }
  client.send({ cmd: 'end' });
  const seen: Received[] = [];
  const final = (await client.until((f) => f.eof === 1 || f.event === 'error', seen)).json;
  const interims = seen.map((r) => r.json).filter((f) => f.tokenId !== undefined);
  client.close();
  assert.equal(final.eof, 1, JSON.stringify(final));
  const delivered = interims.flatMap((f) => f.result.words);
  assert.deepEqual(delivered.map((w: any) => w.word), text.split(' '), 'every word once, in order');
  for (const word of ['dispozed', 'qxz']) {
    const item = delivered.find((w: any) => w.word === word);
    assert.deepEqual([item.scores.pronunciation, item.scores.skipped], [100, 0], `${word} is matched`);
  }
  const last = interims[interims.length - 1].result;
  assert.equal(last.totalUnits, text.split(' ').length);
  assert.equal(last.readUnits, last.totalUnits);
  // The final words name the same reference words.
  const finalWords = final.result.words.filter((w: any) => w.charType === 0 && (w.readType ?? 0) !== 1 && (w.readType ?? 0) !== 3).map((w: any) => w.word);
  assert.deepEqual(finalWords, text.split(' '));
  assert.equal(typeof final.timing.earlyScoredAudioMs, 'number', 'the tracker reached the end, so early scoring ran and was used');
});
