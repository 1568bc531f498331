import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createAcousticBackend } from '../../src/acoustic/backend.js';
import { ProgressHost } from '../../src/acoustic/progress-host.js';
import { referenceFromText } from '../../src/acoustic/progress-reference.js';
import { SphinxEngine } from '../../src/acoustic/sphinx/engine.js';
import { checkHistories, historiesChecked, listsShared } from '../../src/acoustic/sphinx/ffi.js';
import { loadDictionary } from '../../src/acoustic/lexicon.js';
import type { AcousticBackend, ProgressUpdate } from '../../src/acoustic/types.js';
import { decodeAudio, type DecodedAudio } from '../../src/audio/decode.js';
import type { Assessment } from '../../src/assessment/types.js';
import { parseEvaluationConfig, type EvaluationConfig } from '../../src/evaluation/config.js';
import { loadEnglishLexicon } from '../../src/en/lexicon/index.js';
import { createEnglishEngine } from '../../src/en/engine/index.js';
import { loadEnglishScoringModel } from '../../src/en/scoring-model/model.js';
import { resolveModels } from '../../src/models.js';
import { loadConfig } from '../../src/config.js';
import { testConfig } from '../helpers/app.js';
import { createMandarinEngine } from '../../src/zh/engine/engine.js';
import { aishellFile, aishellTranscripts, librivox, ljspeech, readPcm, referenceGrammar } from './speech.js';

// Fast frame scoring (native/fast-scoring.c) must not change a single score: every pass gets the
// library's own senone scores, in this thread and on the pool's, for the English (phonetically
// tied) and the Mandarin (semi-continuous) model, whether or not the passes of a reading share
// their frames' top-N lists.

const config = testConfig();
const models = resolveModels(config.modelsDir);
const lexicon = loadDictionary(models.en.dict, 'en');
const zhLexicon = loadDictionary(models.zh.dict, 'zh');
let fast: SphinxEngine;
let unshared: SphinxEngine;
let own: SphinxEngine;

before(() => {
  fast = SphinxEngine.create(config.modelsDir, ['en', 'zh']);
  unshared = SphinxEngine.create(config.modelsDir, ['en'], {}, 'unshared');
  own = SphinxEngine.create(config.modelsDir, ['en', 'zh'], {}, 'off');
});
after(() => {
  fast.close();
  unshared.close();
  own.close();
});

test('the English and Mandarin decoders score frames natively (the native piece is built and accepts both models)', () => {
  for (const lang of ['en', 'zh'] as const) {
    assert.equal(fast.decoder(lang).fastScoring, true, lang);
    assert.equal(own.decoder(lang).fastScoring, false, lang);
  }
  assert.equal(unshared.decoder('en').fastScoring, true);
});

test('English phone loops and alignments with phones and GOP are exactly those of the library scoring alone, with and without shared lists', async () => {
  const readings = [librivox(1), ljspeech(1), librivox(2)];
  const pcms = await Promise.all(readings.map((r) => readPcm(r.file)));
  // Each recording twice and the others between: a pass's top-N history carries over from the
  // last, and each recording's passes are one reading, so the second round takes the first's lists.
  const shared = listsShared();
  for (const round of [0, 1]) {
    for (let i = 0; i < readings.length; i++) {
      const grammar = referenceGrammar(lexicon, readings[i].words);
      const label = `${readings[i].file} (round ${round})`;
      const reading = 1000 + i;
      const expected = own.phoneLoop('en', pcms[i]);
      assert.deepEqual(fast.phoneLoop('en', pcms[i], { reading }), expected, label);
      assert.deepEqual(unshared.phoneLoop('en', pcms[i], { reading }), expected, label);
      const aligned = own.align('en', pcms[i], grammar, { phones: true, gop: true });
      assert.ok(aligned.ok, label);
      assert.deepEqual(fast.align('en', pcms[i], grammar, { phones: true, gop: true, reading }), aligned, label);
      assert.deepEqual(unshared.align('en', pcms[i], grammar, { phones: true, gop: true, reading }), aligned, label);
    }
  }
  // Most frames of a repeated pass come from the shares (42 codebooks a frame at most).
  const frames = pcms.reduce((n, p) => n + Math.floor(p.length / 160), 0);
  assert.ok(listsShared() - shared > 10 * frames, `${listsShared() - shared} lists shared over ${frames} frames`);
  // A window of a recording: other features (its own mean normalisation).
  const window = { startFrame: 50, endFrame: 200 };
  assert.deepEqual(fast.phoneLoop('en', pcms[2], { window, reading: 1002 }), own.phoneLoop('en', pcms[2], { window }));
});

for (const mode of ['on', 'scanned'] as const) {
  const how = mode === 'on' ? 'found directly where no history decides them' : 'every list scanned (as without AVX2)';
  test(`lists of inactive codebooks, left behind and brought up to date, are those the library keeps by re-scoring them every frame (${how})`, async () => {
    checkHistories(mode);
    const checked = SphinxEngine.create(config.modelsDir, ['en']);
    checkHistories('off');
    try {
      const before = historiesChecked();
      const readings = [librivox(1), ljspeech(1)];
      for (let i = 0; i < readings.length; i++) {
        const pcm = await readPcm(readings[i].file);
        const grammar = referenceGrammar(lexicon, readings[i].words);
        // Readings of their own: no list comes from the other mode's passes over the same audio.
        const reading = (mode === 'on' ? 3000 : 3100) + i;
        const expected = own.align('en', pcm, grammar, { phones: true, gop: true });
        assert.deepEqual(checked.align('en', pcm, grammar, { phones: true, gop: true, reading }), expected);
        assert.deepEqual(checked.phoneLoop('en', pcm, { reading }), own.phoneLoop('en', pcm));
      }
      const after = historiesChecked();
      assert.ok(after.checked - before.checked > 500, `${after.checked - before.checked} lists checked`);
      assert.equal(after.wrong - before.wrong, 0);
    } finally {
      checked.close();
    }
  });
}

test('KOUYU_FAST_SCORING: on (the default), off or unshared', () => {
  assert.equal(loadConfig({}, '/').fastScoring, 'on');
  for (const value of ['on', 'off', 'unshared'] as const) assert.equal(loadConfig({ KOUYU_FAST_SCORING: value }, '/').fastScoring, value);
  assert.throws(() => loadConfig({ KOUYU_FAST_SCORING: 'shared' }, '/'), /KOUYU_FAST_SCORING must be one of on, off, unshared/);
});

test('passes that name no reading, or another one, share no lists', async () => {
  const pcm = await readPcm(librivox(3).file);
  const before = listsShared();
  fast.phoneLoop('en', pcm);
  fast.phoneLoop('en', pcm);
  fast.phoneLoop('en', pcm, { reading: 2001 });
  fast.phoneLoop('en', pcm, { reading: 2002 });
  assert.equal(listsShared(), before);
  fast.phoneLoop('en', pcm, { reading: 2002 });
  assert.ok(listsShared() > before);
});

test('Mandarin alignments with phones and GOP, window decodes with a free syllable, and phone loops are exactly those of the library scoring alone', async () => {
  const sentences = [3, 50, 120].map((i) => aishellTranscripts()[i]);
  const pcms = await Promise.all(sentences.map((s) => readPcm(aishellFile(s.id))));
  const anySyllable = [...new Set(['天', '气', '我', '们', '是', '中', '国', '人', '好', '学'].flatMap((c) => zhLexicon.lookup(c) ?? []))];
  for (const round of [0, 1]) {
    for (let i = 0; i < sentences.length; i++) {
      const label = `${sentences[i].id} (round ${round})`;
      const grammar = referenceGrammar(zhLexicon, [...sentences[i].text]);
      const aligned = fast.align('zh', pcms[i], grammar, { phones: true, gop: true });
      assert.ok(aligned.ok, label);
      assert.deepEqual(aligned, own.align('zh', pcms[i], grammar, { phones: true, gop: true }), label);
      // A window with its middle slot free among several syllables (the substitution competition's decode).
      const window = { startFrame: 40, endFrame: 160 };
      const free = { slots: [grammar.slots[1], { alternatives: anySyllable.map((prons, k) => ({ label: `s${k}`, prons: [prons] })) }, grammar.slots[3]] };
      assert.deepEqual(fast.align('zh', pcms[i], free, { window }), own.align('zh', pcms[i], free, { window }), label);
      assert.deepEqual(fast.phoneLoop('zh', pcms[i]), own.phoneLoop('zh', pcms[i]), label);
    }
  }
});

/**
 * The same assessments on a pool of two workers scoring with the library alone and on one
 * scoring natively, all at once on each: passes of different readings interleave on both
 * workers. Returns [the library's, the native ones].
 */
async function assessOnBothPools(
  lang: 'en' | 'zh',
  engineOf: (backend: AcousticBackend) => Promise<{ assess(config: EvaluationConfig, audio: DecodedAudio): Promise<Assessment> }>,
  cases: { config: EvaluationConfig; audio: DecodedAudio }[],
): Promise<Assessment[][]> {
  const pools: AcousticBackend[] = [];
  try {
    for (const fastScoring of ['off', 'on'] as const) pools.push(await createAcousticBackend({ ...config, workers: 2, fastScoring }, { langs: [lang], progressThreads: 0 }));
    const engines = await Promise.all(pools.map(engineOf));
    return await Promise.all(engines.map((engine) => Promise.all(cases.map((c) => engine.assess(c.config, c.audio)))));
  } finally {
    await Promise.all(pools.map((p) => p.close()));
  }
}

test('English assessments on a pool of two workers scoring natively equal those of workers that do not', async () => {
  const english = await loadEnglishLexicon();
  const model = loadEnglishScoringModel();
  const readings = [librivox(0), librivox(3), ljspeech(2), ljspeech(4)];
  const cases = await Promise.all(
    readings.map(async (r) => ({
      audio: await decodeAudio(fs.readFileSync(r.file)),
      config: parseEvaluationConfig({ coreType: 'sentence', referenceText: r.words.join(' '), language: 'en-US' }),
    })),
  );
  const [expected, actual] = await assessOnBothPools('en', async (backend) => createEnglishEngine({ backend, lexicon: english, model }), cases);
  for (let i = 0; i < cases.length; i++) assert.deepEqual(actual[i], expected[i], readings[i].file);
});

test('Mandarin assessments on a pool of two workers scoring natively equal those of workers that do not', async () => {
  // Read as written, with a character replaced, and with four the reader did not say (the
  // competition, the second look and the insertion checks decode windows of their own).
  const texts: [number, (text: string) => string][] = [
    [7, (t) => t],
    [61, (t) => t.slice(0, 2) + '鸭' + t.slice(3)],
    [140, (t) => t.slice(0, 3) + '今天天气' + t.slice(3)],
  ];
  const cases = await Promise.all(
    texts.map(async ([i, alter]) => {
      const { id, text } = aishellTranscripts()[i];
      return { id, audio: await decodeAudio(fs.readFileSync(aishellFile(id))), config: parseEvaluationConfig({ coreType: 'sentence', referenceText: alter(text), language: 'zh-CN' }) };
    }),
  );
  const [expected, actual] = await assessOnBothPools('zh', (backend) => createMandarinEngine({ backend, modelsDir: config.modelsDir }), cases);
  for (let i = 0; i < cases.length; i++) assert.deepEqual(actual[i], expected[i], cases[i].id);
});

test('real-time progress sessions scoring natively report exactly what sessions scoring with the library report', async () => {
  const hosts = await Promise.all((['on', 'off'] as const).map((fastScoring) => ProgressHost.start({ modelsDir: config.modelsDir, langs: ['en', 'zh'], decodersPerLang: 1, fastScoring })));
  try {
    // Two readings one after the other in each language: the second session reuses the first's decoder.
    const mandarin = [12, 90].map((i) => aishellTranscripts()[i]);
    const readings = [
      ...[librivox(1), ljspeech(1)].map((r) => ({ lang: 'en' as const, file: r.file, text: r.words.join(' '), lexicon })),
      ...mandarin.map((s) => ({ lang: 'zh' as const, file: aishellFile(s.id), text: s.text, lexicon: zhLexicon })),
    ];
    for (const reading of readings) {
      const pcm = await readPcm(reading.file);
      const { units } = referenceFromText(reading.text, reading.lang, reading.lexicon);
      const runs = await Promise.all(
        hosts.map(async (host) => {
          const session = host.open(reading.lang, units);
          const updates: ProgressUpdate[] = [];
          for (let at = 0; at < pcm.length; at += 640) updates.push(await session.push(pcm.subarray(at, at + 640)));
          updates.push(await session.finish());
          return updates;
        }),
      );
      assert.ok(runs[0][runs[0].length - 1].readUnits > 0, reading.file);
      assert.deepEqual(runs[0], runs[1], reading.file);
    }
  } finally {
    await Promise.all(hosts.map((h) => h.close()));
  }
});
