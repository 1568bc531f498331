import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { decoderArgsOf, SphinxEngine } from '../../src/acoustic/sphinx/engine.js';
import { loadDictionary } from '../../src/acoustic/lexicon.js';
import { resolveModels } from '../../src/models.js';
import type { AlignResult, GrammarSpec, UnitSegment } from '../../src/acoustic/types.js';
import { testConfig } from '../helpers/app.js';
import { librivox, ljspeech, readPcm, referenceGrammar } from './speech.js';

const config = testConfig();
const lexicon = loadDictionary(resolveModels(config.modelsDir).en.dict, 'en');
let engine: SphinxEngine;

before(() => {
  engine = SphinxEngine.create(config.modelsDir, ['en']);
});
after(() => engine.close());

function ok(r: AlignResult): Extract<AlignResult, { ok: true }> {
  assert.ok(r.ok, `alignment failed: ${r.ok ? '' : r.message}`);
  return r;
}

const words = (units: UnitSegment[]) => units.filter((u) => u.slot >= 0);

test('LibriVox and LJ Speech sentences align word by word', async () => {
  for (const s of [librivox(1), librivox(3), ljspeech(1), ljspeech(3)]) {
    const pcm = await readPcm(s.file);
    const r = ok(engine.align('en', pcm, referenceGrammar(lexicon, s.words)));
    const units = words(r.units);
    assert.deepEqual(units.map((u) => u.label), s.words);
    for (let i = 1; i < r.units.length; i++) assert.ok(r.units[i].startFrame >= r.units[i - 1].endFrame);
    // Read English: 1.5-5 words a second, so a sentence's mean word lasts 20-67 frames.
    const mean = (units[units.length - 1].endFrame - units[0].startFrame) / units.length;
    assert.ok(mean > 20 && mean < 67, `${s.file}: mean word length ${mean} frames`);
    assert.ok(units.every((u) => u.endFrame - u.startFrame >= 3), 'every word takes at least 30 ms');
  }
});

test('altered text scores clearly worse: mean GOP at least 1.0 nat per frame lower', async () => {
  // Measured here: correct -1.2 to -1.6; every other word replaced by "table" -3.1 to -5.3.
  const s = librivox(1);
  const pcm = await readPcm(s.file);
  const meanGop = (r: AlignResult) => {
    const phones = ok(r).units.flatMap((u) => u.phones);
    return phones.reduce((sum, p) => sum + (p.gop ?? NaN), 0) / phones.length;
  };
  const right = meanGop(engine.align('en', pcm, referenceGrammar(lexicon, s.words), { gop: true }));
  const altered = s.words.map((w, k) => (k % 2 ? 'table' : w));
  const wrong = engine.align('en', pcm, referenceGrammar(lexicon, altered), { gop: true });
  assert.ok(right > -2.5, `correct reading GOP ${right}`);
  if (wrong.ok) assert.ok(meanGop(wrong) < right - 1.0, `altered ${meanGop(wrong)} vs correct ${right}`);
  const units = ok(engine.align('en', pcm, referenceGrammar(lexicon, s.words), { gop: true })).units;
  for (const p of units.flatMap((u) => u.phones)) {
    assert.ok(p.gop !== undefined && p.gop <= 0 && Number.isFinite(p.loopScore));
  }
});

test('an optional slot the reader did not say is skipped', async () => {
  const s = ljspeech(1); // "in being comparatively modern"
  const pcm = await readPcm(s.file);
  const base = referenceGrammar(lexicon, s.words);
  const extra = referenceGrammar(lexicon, ['very']).slots[0];
  const grammar: GrammarSpec = { slots: [...base.slots.slice(0, 2), { ...extra, optional: true }, ...base.slots.slice(2)] };
  const r = ok(engine.align('en', pcm, grammar));
  assert.deepEqual(words(r.units).map((u) => u.label), s.words);
  assert.deepEqual(words(r.units).map((u) => u.slot), [0, 1, 3, 4]);
});

test('with insertions allowed, a word missing from the text comes out as inserted phones in its place', async () => {
  const s = ljspeech(1);
  const pcm = await readPcm(s.file);
  const full = words(ok(engine.align('en', pcm, referenceGrammar(lexicon, s.words))).units);
  const correct = ok(engine.align('en', pcm, { ...referenceGrammar(lexicon, s.words), allowInsertions: true }));
  assert.equal(correct.units.filter((u) => u.label === '<ins>').length, 0, 'no insertions in a correct reading');
  const dropped = s.words.filter((_, i) => i !== 2); // "comparatively" left out of the text
  const r = ok(engine.align('en', pcm, { ...referenceGrammar(lexicon, dropped), allowInsertions: true }));
  const inserted = r.units.filter((u) => u.label === '<ins>');
  assert.ok(inserted.length >= 1, 'inserted phones found');
  const said = full[2];
  const overlap = inserted.reduce((n, u) => n + Math.max(0, Math.min(u.endFrame, said.endFrame) - Math.max(u.startFrame, said.startFrame)), 0);
  assert.ok(overlap >= 0.5 * (said.endFrame - said.startFrame), `insertions cover ${overlap} of ${said.endFrame - said.startFrame} frames`);
});

test('a quick check decode reads the same words at the same places and still finds an insertion', async () => {
  for (const s of [librivox(1), librivox(3), ljspeech(1)]) {
    const pcm = await readPcm(s.file);
    const reference = referenceGrammar(lexicon, s.words);
    const grammar = { ...reference, slots: reference.slots.map((slot) => ({ ...slot, optional: true })) };
    const spans = (r: AlignResult) => words(ok(r).units).map((u) => [u.label, u.startFrame, u.endFrame]);
    assert.deepEqual(spans(engine.align('en', pcm, grammar, { quick: true })), spans(engine.align('en', pcm, grammar)), s.file);
  }
  const s = ljspeech(1);
  const pcm = await readPcm(s.file);
  const dropped = s.words.filter((_, i) => i !== 2);
  const r = ok(engine.align('en', pcm, { ...referenceGrammar(lexicon, dropped), allowInsertions: true }, { quick: true }));
  assert.deepEqual(words(r.units).map((u) => u.label), dropped);
  assert.ok(r.units.some((u) => u.label === '<ins>'), 'inserted phones found');
});

test('decoder options per language reach the decoder, and a bad one is refused', async () => {
  const pcm = await readPcm(ljspeech(1).file);
  const variant = SphinxEngine.create(config.modelsDir, ['en'], { en: ['-compallsen', 'yes'] });
  try {
    const plain = engine.phoneLoop('en', pcm);
    const all = variant.phoneLoop('en', pcm);
    // Scoring every senone changes only each frame's normalisation, not the search's path.
    assert.deepEqual(all.map((s) => [s.phone, s.startFrame, s.endFrame]), plain.map((s) => [s.phone, s.startFrame, s.endFrame]));
    assert.ok(all.every((s, i) => s.score <= plain[i].score + 1e-9));
    assert.ok(all.some((s, i) => s.score < plain[i].score - 1));
  } finally {
    variant.close();
  }
  assert.throws(() => SphinxEngine.create(config.modelsDir, ['en'], { en: ['-no-such-option', '1'] }), /rejected the options/);
});

test('options of the free phone loop alone reach the loop and leave the alignment as it was', async () => {
  const s = ljspeech(1);
  const pcm = await readPcm(s.file);
  const variant = SphinxEngine.create(config.modelsDir, ['en'], decoderArgsOf('en', undefined, '-ds 2'));
  try {
    const grammar = referenceGrammar(lexicon, s.words);
    assert.deepEqual(variant.align('en', pcm, grammar, { phones: true }), engine.align('en', pcm, grammar, { phones: true }));
    const plain = engine.phoneLoop('en', pcm);
    const loop = variant.phoneLoop('en', pcm);
    assert.ok(loop.length > 0 && loop[0].startFrame === 0 && loop[loop.length - 1].endFrame === plain[plain.length - 1].endFrame);
    // Gaussians computed on every second frame: another loop, so the options did reach it.
    assert.notDeepEqual(loop, plain);
  } finally {
    variant.close();
  }
  assert.deepEqual(decoderArgsOf('en', '-topn 2', '-ds 2'), { en: ['-topn', '2'], loop: { en: ['-ds', '2'] } });
  assert.deepEqual(decoderArgsOf('en', ' ', undefined), {});
});
