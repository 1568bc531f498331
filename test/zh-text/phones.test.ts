/**
 * Syllable ↔ acoustic-model phones, checked against the model's own dictionary
 * (models/pocketsphinx-zh/mandarin_notone.dic via resolveModels), and confusable syllables.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { pinyin } from 'pinyin-pro';
import { loadConfig } from '../../src/config.js';
import { resolveModels } from '../../src/models.js';
import { syllablePhones, phonesToSyllable, modelSyllables, MODEL_PHONES } from '../../src/zh/text/phones.js';
import { confusableSyllables } from '../../src/zh/text/confusable.js';
import { ALL_SYLLABLES } from '../../src/zh/text/syllables.js';
import { analyzeMandarinText } from '../../src/zh/text/analyze.js';
import { REPO_ROOT } from '../helpers/app.js';

test('phones of retroflex, apical, ü, er and nasal finals in the model symbol set', () => {
  const cases: [string, string][] = [
    ['zhi', 'zh ib'], ['chi', 'ch ib'], ['shi', 'sh ib'], ['ri', 'r ib'], ['zi', 'z if'], ['ci', 'c if'], ['si', 's if'],
    ['zhuang', 'zh uang'], ['chong', 'ch ong'], ['sheng', 'sh eng'], ['er', 'es er'], ['an', 'as an'], ['ou', 'os ou'],
    ['ju', 'j ux'], ['lv', 'l ux'], ['nve', 'n uxe'], ['juan', 'j uxan'], ['jun', 'j uxn'], ['yu', 'uxs ux'], ['yue', 'uxs uxe'],
    ['ying', 'y ing'], ['yang', 'y ang'], ['wen', 'w en'], ['weng', 'w eng'], ['liu', 'l iu'], ['gui', 'g ui'], ['dun', 'd un'],
  ];
  for (const [syllable, phones] of cases) assert.equal(syllablePhones(syllable).join(' '), phones, syllable);
  assert.throws(() => syllablePhones('xyz'), RangeError);
});

test('every syllable maps to model phones and back (round trip), and minority spellings map back too', () => {
  const syllables = modelSyllables();
  assert.ok(syllables.length >= 400 && syllables.length <= 420, `${syllables.length} syllables`);
  assert.ok(!syllables.includes('n') && syllables.includes('en'));
  for (const s of ALL_SYLLABLES) {
    const phones = syllablePhones(s);
    for (const p of phones) assert.ok(MODEL_PHONES.includes(p), `${s}: ${p}`);
    // The syllabic nasals share their phones with en, eng, heng: the full syllable wins.
    const expected = ({ n: 'en', ng: 'eng', hng: 'heng' } as Record<string, string>)[s] ?? s;
    assert.equal(phonesToSyllable(phones), expected);
  }
  assert.equal(phonesToSyllable(['y', 'uan']), 'yuan');
  assert.equal(phonesToSyllable(['zh', 'i']), 'zhi');
  assert.equal(phonesToSyllable(['an']), 'an');
  assert.equal(phonesToSyllable(['zh', 'ux']), null);
});

test("the mapping agrees with the dictionary's majority transcription for at least 97% of syllables", () => {
  const dict = resolveModels(loadConfig({ KOUYU_LOG_LEVEL: 'silent' }, REPO_ROOT).modelsDir).zh.dict;
  const tally = new Map<string, Map<string, number>>();
  for (const line of fs.readFileSync(dict, 'utf8').split('\n')) {
    const m = /^(\p{Script=Han})(\(\d+\))?\s+(.+)$/u.exec(line);
    if (!m) continue;
    for (const s of pinyin(m[1], { type: 'array', toneType: 'none', multiple: true, v: true })) {
      const t = tally.get(s) ?? new Map<string, number>();
      tally.set(s, t);
      t.set(m[3].trim(), (t.get(m[3].trim()) ?? 0) + 1);
    }
  }
  let agree = 0;
  let total = 0;
  const disagree: string[] = [];
  for (const s of ALL_SYLLABLES) {
    const t = tally.get(s);
    if (!t) continue;
    total++;
    const top = Math.max(...t.values());
    // Ties count as agreement when ours is among the most frequent.
    if ((t.get(syllablePhones(s).join(' ')) ?? 0) === top) agree++;
    else disagree.push(s);
  }
  assert.ok(total >= 400, `${total} syllables found in the dictionary`);
  assert.ok(agree / total >= 0.97, `${agree}/${total} agree; differ: ${disagree.join(', ')}`);
});

test('each analysed character carries its model phones', () => {
  const t = analyzeMandarinText('中文绿');
  assert.deepEqual(t.chars.map((c) => c.phones.join(' ')), ['zh ong', 'w en', 'l ux']);
});

test('confusable syllables follow learner contrasts and are real syllables', () => {
  const of = (s: string) => confusableSyllables(s).map((c) => c.syllable);
  assert.deepEqual(of('zhang').slice(0, 3), ['zang', 'chang', 'zhan']);
  assert.ok(of('si').includes('shi') && of('shi').includes('si'));
  assert.ok(of('nan').includes('lan') && of('nan').includes('nang'));
  assert.ok(of('fei').includes('hui') && of('hu').includes('fu'));
  assert.ok(of('ren').includes('reng') && of('ren').includes('len') === false);
  assert.ok(of('jin').includes('jing') && of('jin').includes('jun'));
  assert.ok(of('lv').includes('lu') && of('lv').includes('nv'));
  for (const s of modelSyllables()) {
    for (const c of confusableSyllables(s)) {
      assert.notEqual(c.syllable, s);
      assert.ok(modelSyllables().includes(c.syllable), `${s} → ${c.syllable}`);
    }
  }
  assert.equal(confusableSyllables('zhang')[0].kind, 'initial');
  assert.equal(confusableSyllables('zhang').at(-1)!.kind, 'both');
});
