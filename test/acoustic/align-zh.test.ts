import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { SphinxEngine } from '../../src/acoustic/sphinx/engine.js';
import { loadDictionary } from '../../src/acoustic/lexicon.js';
import { resolveModels } from '../../src/models.js';
import type { AlignResult, UnitSegment } from '../../src/acoustic/types.js';
import { testConfig } from '../helpers/app.js';
import { aishellFile, aishellTranscripts, readPcm, referenceGrammar } from './speech.js';

const config = testConfig();
const lexicon = loadDictionary(resolveModels(config.modelsDir).zh.dict, 'zh');
let engine: SphinxEngine;
/** Five AISHELL sentences of 4-6 characters, 1.9-2.8 s. */
const SENTENCES = [0, 4, 9, 20, 33].map((i) => aishellTranscripts()[i]);

before(() => {
  engine = SphinxEngine.create(config.modelsDir, ['zh']);
});
after(() => engine.close());

function ok(r: AlignResult): Extract<AlignResult, { ok: true }> {
  assert.ok(r.ok, `alignment failed: ${r.ok ? '' : r.message}`);
  return r;
}

const speechUnits = (units: UnitSegment[]) => units.filter((u) => u.slot >= 0);

/** Frames whose RMS is above a third of the loudest frame's (-9.5 dB): voiced speech, not the breath and room noise AISHELL has before a sentence. */
function loudFrames(pcm: Int16Array): number[] {
  const rms: number[] = [];
  for (let f = 0; (f + 1) * 160 <= pcm.length; f++) {
    let sum = 0;
    for (let i = f * 160; i < (f + 1) * 160; i++) sum += pcm[i] * pcm[i];
    rms.push(Math.sqrt(sum / 160));
  }
  const max = Math.max(...rms);
  return rms.flatMap((r, f) => (r > max / 3 ? [f] : []));
}

test('AISHELL sentences align character by character with plausible boundaries', async () => {
  for (const { id, text } of SENTENCES) {
    const pcm = await readPcm(aishellFile(id));
    const r = ok(engine.align('zh', pcm, referenceGrammar(lexicon, [...text])));
    const units = speechUnits(r.units);
    assert.deepEqual(units.map((u) => u.label).join(''), text, id);
    assert.deepEqual(units.map((u) => u.slot), [...text].map((_, i) => i));
    for (let i = 0; i < r.units.length; i++) {
      const u = r.units[i];
      assert.ok(u.endFrame > u.startFrame && u.endFrame <= r.frames, `${id} unit ${i} inside the audio`);
      if (i > 0) assert.ok(u.startFrame >= r.units[i - 1].endFrame, `${id} units in time order`);
    }
    // Read Mandarin runs at 2.5-8 characters a second: 12-40 frames each, per sentence mean.
    const mean = (units[units.length - 1].endFrame - units[0].startFrame) / units.length;
    assert.ok(mean > 12 && mean < 40, `${id} mean character length ${mean} frames`);
    // The characters span the speech: at least 97% of loud frames fall inside them.
    const loud = loudFrames(pcm);
    const inside = loud.filter((f) => f >= units[0].startFrame && f < units[units.length - 1].endFrame);
    assert.ok(inside.length / loud.length >= 0.97, `${id}: ${inside.length}/${loud.length} loud frames inside`);
  }
});

test('phone segments nest inside their characters and follow the chosen pronunciation', async () => {
  const { id, text } = SENTENCES[0];
  const pcm = await readPcm(aishellFile(id));
  const grammar = referenceGrammar(lexicon, [...text]);
  const r = ok(engine.align('zh', pcm, grammar, { phones: true }));
  for (const u of speechUnits(r.units)) {
    const pron = grammar.slots[u.slot].alternatives[0].prons[u.pron];
    assert.deepEqual(u.phones.map((p) => p.phone), pron);
    assert.equal(u.phones[0].startFrame, u.startFrame);
    assert.equal(u.phones[u.phones.length - 1].endFrame, u.endFrame);
    for (let i = 0; i < u.phones.length; i++) {
      const p = u.phones[i];
      assert.ok(p.endFrame > p.startFrame && p.startFrame >= u.startFrame && p.endFrame <= u.endFrame);
      if (i > 0) assert.ok(p.startFrame >= u.phones[i - 1].endFrame);
      assert.ok(p.score < 0 && Number.isFinite(p.score));
    }
  }
});

/** Mean per-frame GOP over all phones of an alignment (nats per 10 ms frame). */
function meanGop(r: AlignResult): number {
  const phones = ok(r).units.flatMap((u) => u.phones);
  return phones.reduce((sum, p) => sum + (p.gop ?? NaN), 0) / phones.length;
}

test('GOP of correct readings beats GOP of altered text by at least 1.0 nat per frame', async () => {
  // Measured here: correct -0.7 to -1.5, every other character replaced by 书 -3.8 to -5.4.
  for (const { id, text } of SENTENCES.slice(0, 3)) {
    const pcm = await readPcm(aishellFile(id));
    const chars = [...text];
    const right = meanGop(engine.align('zh', pcm, referenceGrammar(lexicon, chars), { gop: true }));
    const altered = chars.map((c, k) => (k % 2 ? '书' : c));
    const wrong = engine.align('zh', pcm, referenceGrammar(lexicon, altered), { gop: true });
    assert.ok(right <= 0 && right > -2.5, `${id} correct reading GOP ${right}`);
    if (wrong.ok) assert.ok(meanGop(wrong) < right - 1.0, `${id}: altered ${meanGop(wrong)} vs correct ${right}`);
  }
});

test('the phone loop covers the audio with contiguous phones', async () => {
  const pcm = await readPcm(aishellFile(SENTENCES[1].id));
  const frames = Math.floor(pcm.length / 160);
  const loop = engine.phoneLoop('zh', pcm);
  assert.ok(loop.length > 5);
  assert.ok(loop[0].startFrame <= 1, `starts at ${loop[0].startFrame}`);
  assert.ok(loop[loop.length - 1].endFrame >= frames - 2, `ends at ${loop[loop.length - 1].endFrame} of ${frames}`);
  for (let i = 1; i < loop.length; i++) assert.equal(loop[i].startFrame, loop[i - 1].endFrame);
  assert.ok(loop.some((p) => lexicon.phones.includes(p.phone)), 'speech phones, not only silence');
});

test('a window aligns part of the audio with frames on the whole-audio axis (±5 frames)', async () => {
  const { id, text } = SENTENCES[0];
  const pcm = await readPcm(aishellFile(id));
  const chars = [...text];
  const full = speechUnits(ok(engine.align('zh', pcm, referenceGrammar(lexicon, chars))).units);
  const window = { startFrame: full[0].startFrame - 20, endFrame: full[2].endFrame + 15 };
  const part = ok(engine.align('zh', pcm, referenceGrammar(lexicon, chars.slice(0, 3)), { window, phones: true }));
  const units = speechUnits(part.units);
  assert.equal(part.frames, window.endFrame - window.startFrame);
  for (let i = 0; i < 3; i++) {
    assert.ok(Math.abs(units[i].startFrame - full[i].startFrame) <= 5, `start ${units[i].startFrame} vs ${full[i].startFrame}`);
    assert.ok(units[i].startFrame >= window.startFrame && units[i].endFrame <= window.endFrame);
  }
});

test('a grammar whose only slot is optional may skip it, also with phones requested', async () => {
  const pcm = await readPcm(aishellFile(SENTENCES[0].id));
  const grammar = { slots: [{ alternatives: [{ label: '猫', prons: lexicon.lookup('猫') ?? [] }], optional: true }] };
  const r = engine.align('zh', pcm, grammar, { phones: true, gop: true });
  assert.ok(r.ok, 'a skippable grammar always fits');
  for (const u of r.units) assert.ok(u.slot === -1 || u.label === '猫');
});

test('too-short and silent audio give typed failures, not exceptions', () => {
  const grammar = referenceGrammar(lexicon, [...'你好']);
  const short = engine.align('zh', new Int16Array(800), grammar);
  assert.deepEqual(short.ok ? null : short.reason, 'too-short');
  const silence = engine.align('zh', new Int16Array(16000 * 2), grammar);
  assert.equal(silence.ok, false);
  if (!silence.ok) assert.equal(silence.reason, 'no-speech');
});
