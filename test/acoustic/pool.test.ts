import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createAcousticBackend, createInThreadBackend } from '../../src/acoustic/backend.js';
import type { AcousticBackend } from '../../src/acoustic/types.js';
import { testConfig } from '../helpers/app.js';
import { aishellFile, aishellTranscripts, readPcm, referenceGrammar } from './speech.js';

const config = { ...testConfig(), workers: 2 };
let pooled: AcousticBackend;
let inThread: AcousticBackend;

before(async () => {
  pooled = await createAcousticBackend(config, { langs: ['zh'] });
  inThread = createInThreadBackend(config, { langs: ['zh'] });
});
after(async () => {
  await pooled.close();
  await inThread.close();
});

test('the pool serves concurrent requests with the same answers as the engine in this thread', async () => {
  const sentences = aishellTranscripts().slice(0, 6);
  const pcms = await Promise.all(sentences.map((s) => readPcm(aishellFile(s.id))));
  const lex = pooled.lexicon('zh');
  const grammars = sentences.map((s) => referenceGrammar(lex, [...s.text]));
  // Six alignments and two phone loops at once on two workers.
  const [aligned, loops] = await Promise.all([
    Promise.all(pcms.map((pcm, i) => pooled.align('zh', pcm, grammars[i], { phones: i % 2 === 0 }))),
    Promise.all(pcms.slice(0, 2).map((pcm) => pooled.phoneLoop('zh', pcm))),
  ]);
  for (let i = 0; i < pcms.length; i++) {
    assert.ok(pcms[i].length > 16000, 'the caller keeps its samples (they are copied, then moved)');
    const expected = await inThread.align('zh', pcms[i], grammars[i], { phones: i % 2 === 0 });
    assert.deepEqual(aligned[i], expected, sentences[i].id);
  }
  for (let i = 0; i < 2; i++) assert.deepEqual(loops[i], await inThread.phoneLoop('zh', pcms[i]));
});

test('the pool returns typed failures and keeps serving after them', async () => {
  const lex = pooled.lexicon('zh');
  const r = await pooled.align('zh', new Int16Array(16000), referenceGrammar(lex, ['你']));
  assert.equal(r.ok, false);
  const pcm = await readPcm(aishellFile(aishellTranscripts()[0].id));
  const again = await pooled.align('zh', pcm, referenceGrammar(lex, [...aishellTranscripts()[0].text]));
  assert.equal(again.ok, true);
});

test('an engine error rejects the request without taking the pool down', async () => {
  const bad = { slots: [{ alternatives: [{ label: 'x', prons: [['NOT_A_PHONE']] }] }] };
  await assert.rejects(pooled.align('zh', new Int16Array(32000).fill(1000), bad), /phone the model lacks/);
  const loop = await pooled.phoneLoop('zh', await readPcm(aishellFile(aishellTranscripts()[1].id)));
  assert.ok(loop.length > 0);
});

test('the lexicon looks words up and lists the phone set', () => {
  const lex = pooled.lexicon('zh');
  assert.deepEqual(lex.lookup('你'), [['n', 'i']]);
  assert.equal(lex.lookup('not-a-word'), null);
  assert.ok(lex.phones.includes('zh') && lex.phones.includes('ang'));
  assert.throws(() => pooled.lexicon('en'), /no lexicon/);
});
