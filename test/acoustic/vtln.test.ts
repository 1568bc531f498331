/**
 * Speaker normalisation: the warp rule, the warped front end against the library's own, the
 * service switch, and the Mandarin engine on a real sentence spoken higher (AISHELL S0150 played
 * faster, which raises its pitch and formants together, as a shorter vocal tract does).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createInThreadBackend } from '../../src/acoustic/backend.js';
import { loadDictionary } from '../../src/acoustic/lexicon.js';
import { SphinxDecoder } from '../../src/acoustic/sphinx/decoder.js';
import { warpFor, WARP_RULES, WARP_STEPS } from '../../src/acoustic/sphinx/vtln.js';
import type { AcousticBackend } from '../../src/acoustic/types.js';
import { decodeAudio, type DecodedAudio } from '../../src/audio/decode.js';
import { parseEvaluationConfig } from '../../src/evaluation/config.js';
import { resolveModels } from '../../src/models.js';
import { createMandarinEngine } from '../../src/zh/engine/engine.js';
import { REPO_ROOT, testConfig } from '../helpers/app.js';
import { aishellFile, aishellTranscripts, readPcm, referenceGrammar } from './speech.js';

const config = testConfig();
const models = resolveModels(config.modelsDir);

test('the warp follows the reader pitch above the model reference, within its bounds', () => {
  const rule = WARP_RULES.zh!;
  assert.equal(warpFor('zh', undefined), 1);
  assert.equal(warpFor('zh', 0), 1);
  assert.equal(warpFor('zh', rule.referenceHz * 0.8), 1, 'a voice below the reference is decoded as it is');
  assert.equal(warpFor('zh', rule.referenceHz), 1);
  const female = warpFor('zh', 200);
  const child = warpFor('zh', 290);
  assert.ok(female > 1.1 && female < 1.25, `200 Hz: ${female}`);
  assert.ok(child > female && child <= rule.max, `290 Hz: ${child}`);
  assert.equal(warpFor('zh', 5000), rule.max);
  // Rounded to the step, so a decoder keeps few front ends.
  assert.equal(female, Math.round(female * WARP_STEPS) / WARP_STEPS);
  assert.equal(warpFor('en', 290), 1, 'the English model has no rule');
});

test('a warped front end with the warp near 1 decodes as the library front end does', async () => {
  const pcm = await readPcm(aishellFile(aishellTranscripts()[0].id));
  const decoder = SphinxDecoder.create({ hmm: models.zh.acoustic });
  try {
    decoder.setPhoneLoop('loop');
    const run = (warp: number) => {
      decoder.decode(pcm, warp);
      return { frames: decoder.frames(), phones: decoder.segments().map((s) => `${s.word}:${s.startFrame}-${s.endFrame}`) };
    };
    const plain = run(1);
    const near = run(1.0001);
    const warped = run(1.2);
    assert.equal(near.frames, plain.frames);
    assert.deepEqual(near.phones, plain.phones);
    assert.equal(warped.frames, plain.frames, 'the warp changes the features, not the time axis');
    assert.notDeepEqual(warped.phones, plain.phones, 'a real warp changes what the loop hears');
  } finally {
    decoder.free();
  }
});

/** The recording played `factor` times faster: pitch and formants raised by the factor (linear interpolation). */
function raised(audio: DecodedAudio, factor: number): DecodedAudio {
  const n = Math.floor(audio.pcm.length / factor);
  const out = new Int16Array(n);
  for (let i = 0; i < n; i++) {
    const x = i * factor;
    const k = Math.floor(x);
    const next = audio.pcm[Math.min(audio.pcm.length - 1, k + 1)];
    out[i] = Math.round(audio.pcm[k] + (next - audio.pcm[k]) * (x - k));
  }
  return { ...audio, pcm: out, durationSec: n / audio.sampleRate };
}

let plain: AcousticBackend;
let normalised: AcousticBackend;

before(() => {
  plain = createInThreadBackend({ ...config, speakerNormalisation: false }, { langs: ['zh'] });
  normalised = createInThreadBackend(config, { langs: ['zh'] });
});
after(async () => {
  await plain.close();
  await normalised.close();
});

test('the backend passes the reader pitch on only with speaker normalisation on', async () => {
  const { id, text } = aishellTranscripts()[4];
  const pcm = await readPcm(aishellFile(id));
  const grammar = referenceGrammar(loadDictionary(models.zh.dict, 'zh'), [...text]);
  const spans = async (backend: AcousticBackend, speakerF0?: number) => {
    const r = await backend.align('zh', pcm, grammar, { gop: true, speakerF0 });
    assert.ok(r.ok);
    return r.units.map((u) => [u.startFrame, u.endFrame, u.phones.map((p) => p.gop)]);
  };
  assert.deepEqual(await spans(plain, 260), await spans(plain), 'off: the pitch is ignored');
  assert.notDeepEqual(await spans(normalised, 260), await spans(normalised), 'on: a high voice is decoded warped');
  assert.deepEqual(await spans(normalised, 100), await spans(normalised), 'on: a voice under the reference is not warped');
});

test('a higher voice reads better to the Mandarin engine with its features normalised', async (t) => {
  // Three sentences of S0150 played 1.25 times faster (about 230 Hz, formants a quarter higher).
  const sentences = [40, 120, 260].map((i) => aishellTranscripts()[i]);
  const mean = async (backend: AcousticBackend) => {
    const engine = await createMandarinEngine({ backend, modelsDir: path.join(REPO_ROOT, 'models') });
    const scores: number[] = [];
    for (const { id, text } of sentences) {
      const audio = raised(await decodeAudio(fs.readFileSync(aishellFile(id))), 1.25);
      const a = await engine.assess(parseEvaluationConfig({ coreType: 'sentence', referenceText: text, language: 'zh-CN' }), audio);
      for (const u of a.units) if (u.charType === 0 && u.gop !== null) scores.push(u.gop);
    }
    return scores.reduce((x, y) => x + y, 0) / scores.length;
  };
  const before = await mean(plain);
  const after = await mean(normalised);
  t.diagnostic(`mean character GOP score, plain ${before.toFixed(1)}, normalised ${after.toFixed(1)}`);
  assert.ok(after > before + 3, `mean character GOP score ${before.toFixed(1)} → ${after.toFixed(1)}`);
});
