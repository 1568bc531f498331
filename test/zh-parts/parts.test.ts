/**
 * The classifiers of a syllable's initial and final (src/zh/parts): their spectra on synthetic
 * tones, and the shipped models on a speaker they were not trained on (AISHELL S0764 in
 * ../shared/data/zh/fireredasr; they were trained on S0150 only).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { decodeAudio } from '../../src/audio/decode.js';
import type { AcousticBackend } from '../../src/acoustic/types.js';
import { createInThreadBackend } from '../../src/acoustic/backend.js';
import { alignReading } from '../../src/zh/engine/align.js';
import { syllableTable, type SyllableTable } from '../../src/zh/engine/syllables.js';
import { analyzeZhText } from '../../src/zh/engine/text.js';
import { MEL_BANDS, melSpectra } from '../../src/dsp/mel-segments.js';
import { partFeatures, type SyllablePart } from '../../src/zh/parts/features.js';
import { classifyPart, loadPartModel, modelPath } from '../../src/zh/parts/classifier.js';
import { FAMILIAR_CHARACTERS, FAMILIAR_SUPPORT, familiarVoice, partsHeard, PART_POSTERIOR, spectraOf, type PartsHeard } from '../../src/zh/engine/parts.js';
import { parseEvaluationConfig } from '../../src/evaluation/config.js';
import { createMandarinEngine } from '../../src/zh/engine/engine.js';
import { REPO_ROOT, SHARED_DATA_DIR, testConfig } from '../helpers/app.js';
import { narrowband } from '../helpers/recordings.js';

const OTHER = { file: path.join(SHARED_DATA_DIR, 'zh', 'fireredasr', 'BAC009S0764W0121.wav'), text: '甚至出现交易几乎停滞的情况' };

let backend: AcousticBackend;
let table: SyllableTable;

before(() => {
  backend = createInThreadBackend(testConfig(), { langs: ['zh'] });
  table = syllableTable(backend.lexicon('zh'));
});
after(() => backend.close());

/** Half a second of a sine at each frequency in turn, 16 kHz. */
function tones(...hz: number[]): Int16Array {
  const n = 8000;
  const pcm = new Int16Array(n * hz.length);
  hz.forEach((f, i) => {
    for (let t = 0; t < n; t++) pcm[i * n + t] = Math.round(8000 * Math.sin((2 * Math.PI * f * t) / 16000));
  });
  return pcm;
}

const loudest = (v: Float32Array) => v.indexOf(Math.max(...v));

test('mel spectra: one per 10 ms frame, each band centred on the recording, a tone in its band and a warp moving it up', () => {
  const pcm = tones(1000, 6000);
  const spectra = melSpectra(pcm);
  assert.equal(spectra.length, pcm.length / 160);
  for (let b = 0; b < MEL_BANDS; b++) assert.ok(Math.abs(spectra.reduce((sum, v) => sum + v[b], 0) / spectra.length) < 1e-3);
  const low = loudest(spectra[20]);
  const high = loudest(spectra[70]);
  assert.ok(low < MEL_BANDS / 2 && high > low + 8, `bands ${low} and ${high}`);
  assert.ok(loudest(melSpectra(pcm, 1.15)[20]) > low, 'a warp above 1 reads 1 kHz as higher');
});

test('part features: five spectra and the length, over the first phone or the last; none for an empty recording', () => {
  const spectra = melSpectra(tones(500));
  const phones = [
    { startFrame: 10, endFrame: 16 },
    { startFrame: 16, endFrame: 40 },
  ];
  assert.equal(partFeatures(spectra, phones, 'initial')?.length, 5 * MEL_BANDS + 1);
  assert.equal(partFeatures(spectra, phones, 'initial')![5 * MEL_BANDS], Math.log(6));
  assert.equal(partFeatures(spectra, phones, 'final')![5 * MEL_BANDS], Math.log(24));
  // A syllable of one phone: its first four frames are its onset.
  assert.equal(partFeatures(spectra, [phones[1]], 'initial')![5 * MEL_BANDS], Math.log(4));
  assert.equal(partFeatures([], phones, 'final'), null);
});

test('each model has one output per class of its part; a model of the other part is refused', () => {
  for (const part of ['initial', 'final'] as SyllablePart[]) {
    const model = loadPartModel(part);
    assert.equal(model.nets[0].b2.length, model.classes.length);
    assert.ok(model.classes.includes(part === 'initial' ? 'zh' : 'ang'));
  }
  assert.throws(() => loadPartModel('initial', modelPath('final')), /not a model of the initials/);
});

test('another speaker read as written: most initials and finals heard right, none judged as another; parts given wrong are heard as read', async () => {
  const models = { initial: loadPartModel('initial'), final: loadPartModel('final') };
  const text = analyzeZhText(OTHER.text);
  const labels = text.read.map((i) => text.tokens[i].syllable);
  const audio = await decodeAudio(fs.readFileSync(OTHER.file));
  const al = await alignReading(backend, table, labels, audio.pcm, { gop: false, optional: false });
  assert.ok(al.ok);
  const spectra = melSpectra(audio.pcm);
  for (const part of ['initial', 'final'] as SyllablePart[]) {
    const right = al.syllables.filter((s, k) => {
      const p = classifyPart(models[part], partFeatures(spectra, s!.phones, part)!);
      const expected = part === 'initial' ? table.initialOf(labels[k]) : table.finalOf(labels[k]);
      return models[part].classes[p.indexOf(Math.max(...p))] === expected;
    }).length;
    // 10 initials and 8 finals when written: a vowel depends more on the voice than a consonant.
    assert.ok(right >= (part === 'initial' ? 10 : 8), `${right} of ${labels.length} ${part}s most probable`);
  }
  const asRead = partsHeard(spectraOf(audio.pcm), table, models, al.syllables, labels, () => true);
  assert.equal(asRead.size, labels.length);
  assert.ok([...asRead.values()].every((h) => h.heard === null && h.support >= PART_POSTERIOR.final));
  // The same reading with 出 (chu) given as chai, 交 (jiao) as xiao and 停 (ting) as ding: heard as read.
  const given = labels.map((l, k) => (k === 2 ? 'chai' : k === 4 ? 'xiao' : k === 8 ? 'ding' : l));
  const found = [...partsHeard(spectraOf(audio.pcm), table, models, al.syllables, given, () => true)].filter(([, h]) => h.heard);
  assert.deepEqual(found.map(([k, h]) => [k, h.heard]), [[2, 'chu'], [4, 'jiao'], [8, 'ting']]);
});

test('an initial the acoustic model takes for the reference is judged from the whole band; through a telephone band it is not judged', async () => {
  // S0150 W0001 设定二十九度 with 九 (jiu3) given as xiu3: the competition of the 8 kHz model
  // hears xiu there and passes it; the onset's spectrum says j.
  const engine = await createMandarinEngine({ backend, modelsDir: path.join(REPO_ROOT, 'models') });
  const audio = await decodeAudio(fs.readFileSync(path.join(SHARED_DATA_DIR, 'zh', 'aishell-s0150', 'BAC009S0150W0001.flac')));
  const config = parseEvaluationConfig({ coreType: 'sentence', language: 'zh-CN', referenceText: '设定二十九度', refPinyin: 'she4 ding4 er4 shi2 xiu3 du4' });
  const wide = await engine.assess(config, audio);
  assert.equal(wide.units[4].readStatus, 'mispronounced');
  assert.equal(wide.units[4].heard?.syllable, 'jiu');
  assert.ok(wide.units.every((u, k) => k === 4 || u.readStatus === 'correct'));
  const narrow = await engine.assess(config, narrowband(audio));
  assert.equal(narrow.units[4].readStatus, 'correct');
});

test('a correct character the competition takes for another syllable is kept as read when the whole band hears its initial and final', async () => {
  // S0150 W0004 设定三十二度 read as written: the 8 kHz model's competition hears 定 (ding) as leng.
  const engine = await createMandarinEngine({ backend, modelsDir: path.join(REPO_ROOT, 'models') });
  const audio = await decodeAudio(fs.readFileSync(path.join(SHARED_DATA_DIR, 'zh', 'aishell-s0150', 'BAC009S0150W0004.flac')));
  const config = parseEvaluationConfig({ coreType: 'sentence', language: 'zh-CN', referenceText: '设定三十二度' });
  assert.ok((await engine.assess(config, audio)).units.every((u) => u.readStatus === 'correct'));
  const narrow = (await engine.assess(config, narrowband(audio))).units[1];
  assert.equal(narrow.readStatus, 'mispronounced');
});

test('a correct character the competition hears as another syllable, and whose parts the whole band doubts where the alignment put them, is kept as read when aligned as the heard syllable it still sounds as written', async () => {
  // S0150 W0189 在转移支付的具体方式上还有哪些其他选择 read as written: the competition hears 付 (fu)
  // as fo, and over fu's own phones the classifiers give its parts little (under PART_SUPPORT);
  // over the phones of fo aligned in its place they find fu more probable than fo.
  const engine = await createMandarinEngine({ backend, modelsDir: path.join(REPO_ROOT, 'models') });
  const audio = await decodeAudio(fs.readFileSync(path.join(SHARED_DATA_DIR, 'zh', 'aishell-s0150', 'BAC009S0150W0189.flac')));
  const config = parseEvaluationConfig({ coreType: 'sentence', language: 'zh-CN', referenceText: '在转移支付的具体方式上还有哪些其他选择' });
  const units = (await engine.assess(config, audio)).units;
  assert.equal(units[4].text, '付');
  assert.equal(units[4].readStatus, 'correct');
});

test('a character the classifiers hear as another syllable where the alignment put it stays read when, aligned as that syllable, it still sounds as written', async () => {
  // S0150 W0188 我们是否也能采取这种方式 with 也 (ye) given as she and 式 (shi) as she: beside the
  // substituted 也 the classifiers hear 能 (neng) as another syllable; over that syllable's own
  // alignment they find neng more probable. 也 stays flagged.
  const engine = await createMandarinEngine({ backend, modelsDir: path.join(REPO_ROOT, 'models') });
  const audio = await decodeAudio(fs.readFileSync(path.join(SHARED_DATA_DIR, 'zh', 'aishell-s0150', 'BAC009S0150W0188.flac')));
  const config = parseEvaluationConfig({ coreType: 'sentence', language: 'zh-CN', referenceText: '我们是否也能采取这种方式', refPinyin: 'wo3 men5 shi4 fou3 she3 neng2 cai3 qu3 zhe4 zhong3 fang1 she4' });
  const units = (await engine.assess(config, audio)).units;
  assert.equal(units[5].text, '能');
  assert.equal(units[5].readStatus, 'correct');
  assert.notEqual(units[4].readStatus, 'correct');
});

test('parts are judged not said only in a voice the classifiers know: enough characters, most of them well supported', () => {
  const reading = (...support: number[]) => new Map<number, PartsHeard>(support.map((s, k) => [k, { support: s, heard: null }]));
  const known = FAMILIAR_SUPPORT + 0.1;
  assert.equal(familiarVoice(reading(...Array<number>(FAMILIAR_CHARACTERS).fill(known))), true);
  assert.equal(familiarVoice(reading(...Array<number>(FAMILIAR_CHARACTERS - 1).fill(known))), false);
  // Two characters of six misread leave the median with the ones read right.
  assert.equal(familiarVoice(reading(known, 1e-4, known, 1e-5, known, known)), true);
  assert.equal(familiarVoice(reading(0.15, 0.1, 0.2, 0.3, 0.05, 0.17)), false);
});
