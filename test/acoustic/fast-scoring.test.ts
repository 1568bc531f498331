import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createAcousticBackend } from '../../src/acoustic/backend.js';
import { ProgressHost } from '../../src/acoustic/progress-host.js';
import { referenceFromText } from '../../src/acoustic/progress-reference.js';
import { SphinxEngine } from '../../src/acoustic/sphinx/engine.js';
import { loadDictionary } from '../../src/acoustic/lexicon.js';
import type { AcousticBackend, ProgressUpdate } from '../../src/acoustic/types.js';
import { decodeAudio } from '../../src/audio/decode.js';
import { parseEvaluationConfig } from '../../src/evaluation/config.js';
import { loadEnglishLexicon } from '../../src/en/lexicon/index.js';
import { createEnglishEngine } from '../../src/en/engine/index.js';
import { loadEnglishScoringModel } from '../../src/en/scoring-model/model.js';
import { resolveModels } from '../../src/models.js';
import { testConfig } from '../helpers/app.js';
import { librivox, ljspeech, readPcm, referenceGrammar } from './speech.js';

// Fast frame scoring (native/ptm-fast.c) must not change a single score: every pass gets the
// library's own senone scores, in this thread and on the pool's.

const config = testConfig();
const lexicon = loadDictionary(resolveModels(config.modelsDir).en.dict, 'en');
let fast: SphinxEngine;
let own: SphinxEngine;

before(() => {
  fast = SphinxEngine.create(config.modelsDir, ['en']);
  own = SphinxEngine.create(config.modelsDir, ['en'], {}, false);
});
after(() => {
  fast.close();
  own.close();
});

test('the English decoders score frames natively (the native piece is built and accepts the model)', () => {
  assert.equal(fast.decoder('en').fastScoring, true);
  assert.equal(own.decoder('en').fastScoring, false);
});

test('phone loops and alignments with phones and GOP are exactly those of the library scoring alone', async () => {
  const readings = [librivox(1), ljspeech(1), librivox(2)];
  const pcms = await Promise.all(readings.map((r) => readPcm(r.file)));
  // Each recording twice and the others between: a pass's top-N history carries over from the last.
  for (const round of [0, 1]) {
    for (let i = 0; i < readings.length; i++) {
      const grammar = referenceGrammar(lexicon, readings[i].words);
      const label = `${readings[i].file} (round ${round})`;
      assert.deepEqual(fast.phoneLoop('en', pcms[i]), own.phoneLoop('en', pcms[i]), label);
      const aligned = fast.align('en', pcms[i], grammar, { phones: true, gop: true });
      assert.ok(aligned.ok, label);
      assert.deepEqual(aligned, own.align('en', pcms[i], grammar, { phones: true, gop: true }), label);
    }
  }
  // A window of a recording: other features (its own mean normalisation).
  const window = { startFrame: 50, endFrame: 200 };
  assert.deepEqual(fast.phoneLoop('en', pcms[2], { window }), own.phoneLoop('en', pcms[2], { window }));
});

test('English assessments on a pool of two workers scoring natively equal those of workers that do not', async () => {
  let alone: AcousticBackend | null = null;
  let pooled: AcousticBackend | null = null;
  try {
    alone = await createAcousticBackend({ ...config, workers: 2, fastScoring: false }, { langs: ['en'], progressThreads: 0 });
    pooled = await createAcousticBackend({ ...config, workers: 2, fastScoring: true }, { langs: ['en'], progressThreads: 0 });
    const english = await loadEnglishLexicon();
    const model = loadEnglishScoringModel();
    const engines = [alone, pooled].map((backend) => createEnglishEngine({ backend, lexicon: english, model }));
    const readings = [librivox(0), librivox(3), ljspeech(2), ljspeech(4)];
    const cases = await Promise.all(
      readings.map(async (r) => ({
        audio: await decodeAudio(fs.readFileSync(r.file)),
        config: parseEvaluationConfig({ coreType: 'sentence', referenceText: r.words.join(' '), language: 'en-US' }),
      })),
    );
    // All at once on each pool: passes of different readings interleave on both workers.
    const [expected, actual] = await Promise.all(engines.map((engine) => Promise.all(cases.map((c) => engine.assess(c.config, c.audio)))));
    for (let i = 0; i < cases.length; i++) assert.deepEqual(actual[i], expected[i], readings[i].file);
  } finally {
    await alone?.close();
    await pooled?.close();
  }
});

test('real-time progress sessions scoring natively report exactly what sessions scoring with the library report', async () => {
  const hosts = await Promise.all([true, false].map((fastScoring) => ProgressHost.start({ modelsDir: config.modelsDir, langs: ['en'], decodersPerLang: 1, fastScoring })));
  try {
    // Two readings one after the other on each host: the second session reuses the first's decoder.
    for (const reading of [librivox(1), ljspeech(1)]) {
      const pcm = await readPcm(reading.file);
      const { units } = referenceFromText(reading.words.join(' '), 'en', lexicon);
      const runs = await Promise.all(
        hosts.map(async (host) => {
          const session = host.open('en', units);
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
