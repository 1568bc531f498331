import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Piscina, type PiscinaTask } from 'piscina';
import { asOneRequest, createAcousticBackend, createInThreadBackend, RequestOrderQueue } from '../../src/acoustic/backend.js';
import { SphinxEngine } from '../../src/acoustic/sphinx/engine.js';
import { concatPcm } from '../../src/audio/resample.js';
import type { AcousticBackend } from '../../src/acoustic/types.js';
import { testConfig } from '../helpers/app.js';
import { aishellFile, aishellTranscripts, ljspeech, readPcm, referenceGrammar } from './speech.js';

const config = { ...testConfig(), workers: 2 };
let pooled: AcousticBackend;
let inThread: AcousticBackend;

before(async () => {
  pooled = await createAcousticBackend(config);
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

test('window calls answer as the engine does on the whole audio, though only the window is sent', async () => {
  const sentences = aishellTranscripts().slice(0, 3);
  const pcm = concatPcm(await Promise.all(sentences.map((s) => readPcm(aishellFile(s.id)))));
  const lex = pooled.lexicon('zh');
  const grammar = referenceGrammar(lex, [...sentences[1].text]);
  const second = (await readPcm(aishellFile(sentences[0].id))).length / 160;
  const length = (await readPcm(aishellFile(sentences[1].id))).length / 160;
  // The engine itself, given the whole recording and the window (its own cut and offsets).
  const engine = SphinxEngine.create(config.modelsDir, ['zh']);
  try {
    // Fractional and out-of-range bounds too: the cut must round and clamp as the engine does.
    const windows = [
      { startFrame: second - 20.5, endFrame: second + length + 20.7 },
      { startFrame: -30, endFrame: second + 40 },
      { startFrame: second + length - 10, endFrame: pcm.length / 160 + 500 },
    ];
    const [aligned, loops] = await Promise.all([
      Promise.all(windows.map((window) => pooled.align('zh', pcm, grammar, { window, phones: true, gop: true, phoneLoop: true }))),
      Promise.all(windows.map((window) => pooled.phoneLoop('zh', pcm, { window }))),
    ]);
    windows.forEach((window, i) => {
      assert.deepEqual(aligned[i], engine.align('zh', pcm, grammar, { window, phones: true, gop: true, phoneLoop: true }), `align in window ${i}`);
      assert.deepEqual(loops[i], engine.phoneLoop('zh', pcm, { window }), `phone loop in window ${i}`);
    });
    const found = aligned[0];
    assert.ok(found.ok && found.units.filter((u) => u.slot >= 0).every((u) => u.startFrame >= second - 21), 'frames are on the whole audio');
    assert.ok(found.ok && found.loop && found.loop.length > 0 && found.loop[0].startFrame >= second - 21, 'the phone loop too');
  } finally {
    engine.close();
  }
});

test('a word pass, then its phone pass in a call of its own, answers as one alignment with phones', async () => {
  const { file, words } = ljspeech(3);
  const pcm = await readPcm(file);
  const lex = pooled.lexicon('en');
  // Optional slots (with alternatives and skips) as the English reading grammar has them.
  const grammar = { ...referenceGrammar(lex, words), optionalSilence: true };
  grammar.slots = grammar.slots.map((slot) => ({ ...slot, optional: true }));
  const frames = pcm.length / 160;
  const english = createInThreadBackend(config, { langs: ['en'] });
  after(() => english.close());
  for (const window of [undefined, { startFrame: 40.5, endFrame: frames - 30 }]) {
    const whole = await english.align('en', pcm, grammar, { phones: true, window });
    assert.ok(whole.ok && whole.units.some((u) => u.phones.length > 0));
    for (const backend of [pooled, english]) {
      const first = await backend.align('en', pcm, grammar, { window });
      assert.ok(first.ok && first.units.every((u) => u.phones.length === 0 || u.slot < 0), 'the word pass alone has no phones');
      assert.deepEqual(await backend.alignPhones('en', pcm, grammar, first.units, { window }), whole);
    }
  }
});

test('queued calls are served by the start of their request, then in arrival order', () => {
  const queue = new RequestOrderQueue();
  const task = (name: string, order?: number) => ({ name, [Piscina.queueOptionsSymbol]: order === undefined ? null : { order } }) as unknown as PiscinaTask;
  const later = task('later request, first call', 20);
  queue.push(later);
  queue.push(task('earlier request, first call', 10));
  queue.push(task('earlier request, second call', 10));
  queue.push(task('later request, second call', 20));
  queue.push(task('no request'));
  queue.remove(later);
  const served: string[] = [];
  while (queue.size > 0) served.push((queue.shift() as unknown as { name: string }).name);
  assert.deepEqual(served, ['earlier request, first call', 'earlier request, second call', 'later request, second call', 'no request']);
  assert.equal(queue.shift(), null);
});

test('calls made inside a request carry its start through the pool', async () => {
  const { id, text } = aishellTranscripts()[2];
  const pcm = await readPcm(aishellFile(id));
  const grammar = referenceGrammar(pooled.lexicon('zh'), [...text]);
  const [inside, outside] = await Promise.all([asOneRequest(() => pooled.align('zh', pcm, grammar)), pooled.align('zh', pcm, grammar)]);
  assert.deepEqual(inside, outside);
  assert.ok(inside.ok);
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
  assert.deepEqual(pooled.lexicon('en').lookup('Modern'), [['M', 'AA', 'D', 'ER', 'N']]);
  assert.throws(() => inThread.lexicon('en'), /no lexicon/);
});

test('free recognition runs in the pool on the same decoders', async () => {
  const s = ljspeech(1); // "in being comparatively modern"
  const r = await pooled.recognize('en', await readPcm(s.file));
  assert.ok(r.words.length >= 3, `recognised "${r.text}"`);
  assert.ok(r.text.includes('modern'), `recognised "${r.text}"`);
  // Alignment on the same worker decoders still works after the n-gram search was installed.
  const again = await Promise.all([1, 2].map(async () => pooled.align('en', await readPcm(s.file), referenceGrammar(pooled.lexicon('en'), s.words))));
  assert.ok(again.every((a) => a.ok));
});

test('progress sessions open through the backend and follow a reading', async () => {
  const { id, text } = aishellTranscripts()[0];
  const pcm = await readPcm(aishellFile(id));
  const lex = pooled.lexicon('zh');
  const session = pooled.openProgress('zh', [...text].map((c) => ({ label: c, prons: lex.lookup(c) ?? [] })));
  for (let i = 0; i < pcm.length; i += 3200) await session.push(pcm.subarray(i, i + 3200));
  const last = await session.finish();
  session.close();
  assert.ok(last.readUnits >= text.length - 1, `read ${last.readUnits} of ${text.length}`);
});
