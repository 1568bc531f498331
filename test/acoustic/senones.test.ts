import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SphinxDecoder } from '../../src/acoustic/sphinx/decoder.js';
import { SenoneScorer, dumpLayout, joinDumps, sliceDump } from '../../src/acoustic/sphinx/senones.js';
import { resolveModels } from '../../src/models.js';
import { testConfig } from '../helpers/app.js';
import { ljspeech, readPcm } from './speech.js';

const paths = resolveModels(testConfig().modelsDir).en;

test('a senone dump computed in two pieces equals the whole, and a search on it equals one that scores every senone itself', async () => {
  const pcm = await readPcm(ljspeech(1).file);
  const scorer = SenoneScorer.create(paths.acoustic, paths.dict);
  const plain = SphinxDecoder.create({ hmm: paths.acoustic, dict: paths.dict });
  const all = SphinxDecoder.create({ hmm: paths.acoustic, dict: paths.dict, args: ['-compallsen', 'yes'] });
  try {
    const whole = scorer.score(pcm);
    const { frames } = dumpLayout(whole);
    assert.ok(frames > 100);
    const mid = Math.floor(frames / 2);
    assert.deepEqual(joinDumps([scorer.score(pcm, 0, mid), scorer.score(pcm, mid)]), whole);
    assert.deepEqual(sliceDump(whole, 0, mid), scorer.score(pcm, 0, mid));
    for (const d of [plain, all]) d.setPhoneLoop('loop');
    all.decode(pcm);
    plain.decodeDump(whole);
    assert.deepEqual(plain.segments(), all.segments());
  } finally {
    scorer.free();
    plain.free();
    all.free();
  }
});
