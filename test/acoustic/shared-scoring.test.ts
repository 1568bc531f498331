import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createAcousticBackend } from '../../src/acoustic/backend.js';
import { SphinxEngine } from '../../src/acoustic/sphinx/engine.js';
import { loadDictionary } from '../../src/acoustic/lexicon.js';
import type { AcousticBackend } from '../../src/acoustic/types.js';
import { decodeAudio } from '../../src/audio/decode.js';
import { parseEvaluationConfig } from '../../src/evaluation/config.js';
import { loadEnglishLexicon } from '../../src/en/lexicon/index.js';
import { createEnglishEngine } from '../../src/en/engine/index.js';
import { loadEnglishScoringModel } from '../../src/en/scoring-model/model.js';
import { resolveModels } from '../../src/models.js';
import { testConfig } from '../helpers/app.js';
import { librivox, ljspeech, readPcm, referenceGrammar } from './speech.js';

// Shared frame scoring (native/ptm-share.c) must not change a single score: every pass over a
// recording gets the library's own senone scores whether it computed the codebooks itself or
// found them computed by another pass, in this thread or another.

const config = testConfig();
const lexicon = loadDictionary(resolveModels(config.modelsDir).en.dict, 'en');
let shared: SphinxEngine;
let own: SphinxEngine;

before(() => {
  shared = SphinxEngine.create(config.modelsDir, ['en']);
  own = SphinxEngine.create(config.modelsDir, ['en'], {}, false);
});
after(() => {
  shared.close();
  own.close();
});

test('the English decoders share their frame scoring (the native piece is built and accepts the model)', () => {
  assert.equal(shared.decoder('en').sharesScoring, true);
  assert.equal(own.decoder('en').sharesScoring, false);
});

test('passes over the same recordings, interleaved, give exactly the scores of decoders that score alone', async () => {
  const readings = [librivox(1), ljspeech(1), librivox(2)];
  const pcms = await Promise.all(readings.map((r) => readPcm(r.file)));
  // Each recording twice and the others between: the second passes find the frames scored.
  for (const round of [0, 1]) {
    for (let i = 0; i < readings.length; i++) {
      const grammar = referenceGrammar(lexicon, readings[i].words);
      const label = `${readings[i].file} (round ${round})`;
      assert.deepEqual(shared.phoneLoop('en', pcms[i]), own.phoneLoop('en', pcms[i]), label);
      const aligned = shared.align('en', pcms[i], grammar, { phones: true, gop: true });
      assert.ok(aligned.ok, label);
      assert.deepEqual(aligned, own.align('en', pcms[i], grammar, { phones: true, gop: true }), label);
    }
  }
  // A window of a recording is other features (its own mean normalisation): scored afresh.
  const window = { startFrame: 50, endFrame: 200 };
  assert.deepEqual(shared.phoneLoop('en', pcms[2], { window }), own.phoneLoop('en', pcms[2], { window }));
});

test('English assessments on a pool of two workers sharing their scoring equal those of workers that do not', async () => {
  let alone: AcousticBackend | null = null;
  let pooled: AcousticBackend | null = null;
  try {
    alone = await createAcousticBackend({ ...config, workers: 2, sharedScoring: false }, { langs: ['en'], progressThreads: 0 });
    pooled = await createAcousticBackend({ ...config, workers: 2, sharedScoring: true }, { langs: ['en'], progressThreads: 0 });
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
