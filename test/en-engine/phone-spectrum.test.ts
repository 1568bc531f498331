import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { melSpectra } from '../../src/dsp/mel-segments.js';
import { isVowel } from '../../src/en/lexicon/index.js';
import { loadPhoneSpectrumModel, phoneOpinion } from '../../src/en/phone-spectrum/classifier.js';
import { narrowband } from '../helpers/recordings.js';
import { audio, closeEngine, config, englishEngine, LIBRIVOX1 } from './setup.js';

after(closeEngine);

test('every read phone of a wideband reading gets the whole band\'s opinion; a telephone-band reading none', async () => {
  const { engine } = await englishEngine();
  const a = await audio(...LIBRIVOX1.file);
  const wide = await engine.analyse(config({ referenceText: LIBRIVOX1.text }), a);
  const read = wide.evidence.words.filter((w) => w.status === 'read').flatMap((w) => w.phones);
  assert.ok(read.length > 60 && read.every((p) => p.spectral !== undefined), 'an opinion for every read phone');
  // A native reading: the expected phone is the classifier's first choice of 39 far more often
  // than chance (46% here; 52% of the phones speechocean762's experts judged correct).
  const first = read.filter((p) => p.spectral![1] > 0).length / read.length;
  assert.ok(first > 0.3, `expected phone most probable for ${(first * 100).toFixed(0)}% of phones`);
  const narrow = await engine.analyse(config({ referenceText: LIBRIVOX1.text }), narrowband(a));
  assert.equal(narrow.spectra, null);
  assert.ok(narrow.evidence.words.every((w) => w.phones.every((p) => p.spectral === undefined)), 'no opinion without the band above 4 kHz');
});

test('over a phone\'s frames the classifier prefers the phone said to one of another kind', async () => {
  const { engine } = await englishEngine();
  const a = await audio(...LIBRIVOX1.file);
  const { evidence } = await engine.analyse(config({ referenceText: LIBRIVOX1.text }), a);
  const model = loadPhoneSpectrumModel();
  const spectra = melSpectra(a.pcm);
  const read = evidence.words.filter((w) => w.status === 'read').flatMap((w) => w.phones);
  // A vowel's frames against a sibilant, a consonant's against an open vowel.
  const preferred = read.filter((p) => {
    const said = phoneOpinion(model, spectra, p.phone, p.startFrame, p.endFrame)!;
    const other = phoneOpinion(model, spectra, isVowel(p.phone) ? 'S' : 'AA', p.startFrame, p.endFrame)!;
    return said[0] > other[0];
  }).length;
  assert.ok(preferred / read.length > 0.9, `${preferred} of ${read.length}`);
  assert.equal(phoneOpinion(model, spectra, 'XX', 10, 20), null, 'a phone the model does not know');
  assert.equal(phoneOpinion(model, spectra, 'AA', -1, -1), null, 'a skipped phone');
});

test('a file that is not a model of the English phones is refused', () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kouyu-phones-')), 'model.json');
  fs.writeFileSync(file, JSON.stringify({ mean: [], std: [], nets: [{ w1: [], b1: [], w2: [[0]], b2: [0] }], classes: ['a'] }));
  assert.throws(() => loadPhoneSpectrumModel(file), /not a model of the English phones/);
});
