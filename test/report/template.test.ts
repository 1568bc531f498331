/**
 * Template reports on real readings (Mandarin AISHELL, English LibriVox), as recorded and
 * against altered references, plus variations of the same real assessments (units marked
 * mistoned, misread or skipped; pace off) to cover every kind of finding.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { GRADE_BAND_WEIGHTS } from '../../src/assessment/shaping.js';
import type { Assessment } from '../../src/assessment/types.js';
import type { EvaluationConfig } from '../../src/evaluation/config.js';
import { createLimitBackend } from '../../src/gateway/limiters.js';
import { buildEvidence } from '../../src/report/evidence.js';
import { containsNumber } from '../../src/report/numbers.js';
import { REPORT_RUBRIC_VERSION } from '../../src/report/rubric.js';
import { voiceFromSlots } from '../../src/report/slots.js';
import { composeTemplate, priorityOrder } from '../../src/report/template/compose.js';
import { DIMENSION_KEYS, type Report } from '../../src/report/types.js';
import { createReportWriter } from '../../src/report/writer.js';
import { EN_AUDIO, EN_TEXT, ZH_AUDIO, ZH_TEXT, assess, closeReadings } from './readings.js';

const writer = createReportWriter({ llm: { baseUrl: null, apiKey: null, model: 'none', timeoutMs: 1000 }, limitBackend: createLimitBackend(null), trialDailyAiReports: 0 });
type Reading = { a: Assessment; config: EvaluationConfig };
const r: Record<string, Reading> = {};

before(async () => {
  r.zh = await assess(ZH_AUDIO.w0133, { language: 'zh-CN', referenceText: ZH_TEXT.w0133 });
  r.zhSkip = await assess(ZH_AUDIO.w0133, { language: 'zh-CN', referenceText: ZH_TEXT.w0133.replace('就是', '就是中国') });
  r.zhNumerals = await assess(ZH_AUDIO.w0001, { language: 'zh-CN', referenceText: '设定五十二十九度' });
  r.en = await assess(EN_AUDIO, { language: 'en-US', referenceText: EN_TEXT });
  r.enSkip = await assess(EN_AUDIO, { language: 'en-US', referenceText: 'He was not an ill disposed young man at all.' });
});
after(closeReadings);

const bodyTexts = (rep: Report) => [rep.summary, ...Object.values(rep.dimensions), ...rep.suggestions, ...Object.values(rep.dimensionSuggestions).flat()];
const write = (a: Assessment, c: EvaluationConfig) => writer.writeAssessment(a, c);
const withFields = (c: EvaluationConfig, fields: Partial<EvaluationConfig>): EvaluationConfig => ({ ...c, ...fields });

/** The same real assessment with unit k changed (tone error, misreading or omission). */
function mutate(a: Assessment, k: number, how: 'tone' | 'misread' | 'skip' | 'slow'): Assessment {
  const m = structuredClone(a);
  const read = m.units.filter((u) => u.charType === 0 && u.readType === 0);
  const u = read[k % read.length];
  if (how === 'tone' && u.tone) Object.assign(u.tone, { heard: u.tone.expected === 2 ? 4 : 2, error: true });
  if (how === 'misread') Object.assign(u, { readStatus: 'mispronounced', heard: { text: u.text, syllable: 'xing', final: 'ing' } });
  if (how === 'skip') Object.assign(u, { readStatus: 'skipped', readType: 2, span: null, pronunciation: null });
  if (how === 'slow') Object.assign(m, { speed: 60, sub: { ...m.sub, speedScore: 30, naturalness: 40, intonation: 40 } });
  return m;
}

test('the report has the spec structure, the current rubric, the applied weights and integer scores on the scale', async () => {
  for (const key of ['zh', 'en']) {
    const { a, config: c } = r[key];
    const rep = await write(a, withFields(c, { scale: 10 }));
    assert.equal(rep.source, 'template');
    assert.equal(rep.rubricVersion, REPORT_RUBRIC_VERSION);
    assert.deepEqual(Object.keys(rep.dimensions).sort(), [...DIMENSION_KEYS].sort());
    assert.deepEqual(Object.keys(rep.dimensionSuggestions).sort(), [...DIMENSION_KEYS].sort());
    const w = rep.dimensionTree.weights as Record<string, number>;
    assert.deepEqual(w, { integrity: a.weights.integrity, accuracy: a.weights.accuracy, fluency: a.weights.fluency, reading_skill: a.weights.readingSkill, emotion: a.weights.emotion });
    assert.ok(Math.abs(Object.values(w).reduce((x, y) => x + y, 0) - 1) < 1e-9, 'weights sum to 1 (tolerance 1e-9)');
    assert.equal(w.accuracy, GRADE_BAND_WEIGHTS[c.gradeBand].accuracy, 'the grade band\'s weights');
    for (const v of Object.values(rep.dimensionScores)) assert.ok(v === null || (Number.isInteger(v) && v >= 0 && v <= 10), `score ${v} on scale 10`);
    assert.equal(rep.skillInsights, undefined);
  }
});

test('the same input gives the same report; different records read differently', async () => {
  assert.deepEqual(await write(r.zh.a, r.zh.config), await write(r.zh.a, r.zh.config));
  const texts = new Set<string>();
  for (let k = 0; k < 8; k++) texts.add((await write(mutate(r.zh.a, k, 'tone'), r.zh.config)).dimensions.accuracy.split('。')[0]);
  assert.ok(texts.size >= 2, `phrasing varies across records (${[...texts].join(' | ')})`);
});

/** Units the engine marked skipped (the altered references add words that were never read). */
const skippedOf = (a: Assessment) => a.units.filter((u) => u.charType === 0 && u.readStatus === 'skipped');

test('comments name the skipped words of the altered references', async () => {
  const zhSkipped = skippedOf(r.zhSkip.a);
  assert.ok(zhSkipped.length > 0 && zhSkipped.every((u) => '中国'.includes(u.text)), 'the engine skips the added, unread 中国');
  const zhIntegrity = (await write(r.zhSkip.a, r.zhSkip.config)).dimensions.integrity;
  for (const u of zhSkipped) assert.match(zhIntegrity, new RegExp(`「[^」]*${u.text}[^」]*」`), zhIntegrity);
  const enSkipped = skippedOf(r.enSkip.a);
  assert.ok(enSkipped.length > 0, 'the engine skips the added, unread words');
  const enIntegrity = (await write(r.enSkip.a, r.enSkip.config)).dimensions.integrity;
  for (const u of enSkipped) assert.match(enIntegrity, new RegExp(`“[^”]*${u.text}[^”]*”`), enIntegrity);
});

test('a syllable heard in place of a skipped character is named as a replacement', async () => {
  const m = structuredClone(r.zh.a);
  const k = m.units.findIndex((u) => u.text === '标');
  const stand = { ...m.units[k], text: 'biao', readType: 1 as const, readStatus: 'inserted' as const, beginIndex: -1, endIndex: -1, tone: null, phones: [] };
  Object.assign(m.units[k], { readStatus: 'skipped', readType: 2, span: null, pronunciation: null });
  m.units.splice(k, 0, stand);
  const rep = await write(m, r.zh.config);
  assert.match(rep.dimensions.integrity, /「标」没有照原文读，听到的是 biao|把「标」换成了 biao 的音/);
  assert.doesNotMatch(rep.dimensions.integrity, /多读了/);
});

test('a mistoned character is named in its word with the tone heard and expected', async () => {
  const rep = await write(mutate(r.zh.a, 3, 'tone'), r.zh.config);
  const unit = r.zh.a.units.filter((u) => u.charType === 0)[3];
  const heard = unit.tone!.expected === 2 ? '第四声' : '第二声';
  assert.ok(rep.dimensions.accuracy.includes(`「${unit.text}」读成了${heard}`) || rep.dimensions.accuracy.includes(`的「${unit.text}」读成了${heard}`), rep.dimensions.accuracy);
  assert.ok(rep.dimensionSuggestions.accuracy.some((s) => s.includes(`「${unit.text}」`)), 'the tone suggestion sits under accuracy');
});

test('numerals of the reference are named by pinyin, never quoted', async () => {
  const skipped = skippedOf(r.zhNumerals.a);
  assert.ok(skipped.length > 0, 'the engine skips part of the added, unread 五十');
  const rep = await write(r.zhNumerals.a, r.zhNumerals.config);
  for (const u of skipped) assert.ok(rep.dimensions.integrity.includes(String(u.extra.symbolpinyin)), `${u.text}: ${rep.dimensions.integrity}`);
  assert.match(rep.dimensions.integrity, /读作 /);
  for (const t of bodyTexts(rep)) assert.equal(containsNumber(t), false, t);
});

test('no report body shows a number, over many generated reports', async () => {
  const slotSets: Record<string, string>[] = [{}, { focus: '声调', audience: '家长', tone: '鼓励', reminder: '每天读十分钟，争取九十分' }, { focus: 'pace 2x', audience: 'teacher', tone: 'direct', reminder: 'score 95 next time' }, { language: 'zh' }, { language: 'en' }];
  let n = 0;
  for (const key of ['zh', 'zhSkip', 'zhNumerals', 'en', 'enSkip']) {
    const { a, config: c } = r[key];
    for (let k = 0; k < 6; k++) {
      for (const how of ['tone', 'misread', 'skip', 'slow'] as const) {
        for (const [i, slots] of slotSets.entries()) {
          const m = mutate(a, k, how);
          const cfg = withFields(c, { gradeBand: ((k + i) % 4) + 1 as 1 | 2 | 3 | 4, reportSlots: slots, coreType: k % 3 === 2 ? 'word' : c.coreType });
          const rep = await write(m, cfg);
          for (const t of bodyTexts(rep)) assert.equal(containsNumber(t), false, `${key}/${how}/${k}: ${t}`);
          // The template itself must be clean: the last guard should have had nothing to drop.
          const raw = composeTemplate(buildEvidence(m, cfg), voiceFromSlots(cfg.reportSlots, cfg.language));
          for (const t of [raw.summary, ...Object.values(raw.dimensions), ...Object.values(raw.dimensionSuggestions).flat()]) assert.equal(containsNumber(t), false, `template ${key}/${how}/${k}: ${t}`);
          n++;
        }
      }
    }
  }
  assert.ok(n >= 500, `checked ${n} reports`);
});

test('speech-rate advice sits in fluency with the 【语速】 marker and nowhere else', async () => {
  for (const key of ['zh', 'en']) {
    const rep = await write(mutate(r[key].a, 0, 'slow'), r[key].config);
    assert.ok(rep.dimensionSuggestions.fluency.some((s) => s.startsWith('【语速】')), `${key}: ${rep.dimensionSuggestions.fluency.join(' | ')}`);
    for (const d of DIMENSION_KEYS.filter((x) => x !== 'fluency')) assert.ok(rep.dimensionSuggestions[d].every((s) => !s.includes('【语速】')));
  }
});

test('the Chinese accuracy comment covers tone', async () => {
  for (const a of [r.zh.a, mutate(r.zh.a, 2, 'tone'), mutate(r.zh.a, 2, 'misread')]) assert.match((await write(a, r.zh.config)).dimensions.accuracy, /声调|第[一二三四]声/);
});

test('report language follows the task, and reportSlots.language chooses otherwise', async () => {
  const han = (t: string) => /\p{Script=Han}/u.test(t);
  assert.equal(han((await write(r.en.a, r.en.config)).summary), false);
  assert.equal(han((await write(r.zh.a, r.zh.config)).summary), true);
  assert.equal(han((await write(r.en.a, withFields(r.en.config, { reportSlots: { language: 'zh' } }))).summary), true);
  // An English report on a Mandarin task still quotes the characters, inside English prose.
  assert.match((await write(r.zh.a, withFields(r.zh.config, { reportSlots: { language: 'en' } }))).summary, /\b(reading|The main thing)\b/);
});

test('slots change emphasis, address and manner, never the dimension of a suggestion', async () => {
  const a = mutate(mutate(mutate(r.zh.a, 2, 'tone'), 6, 'skip'), 0, 'slow');
  const plain = await write(a, r.zh.config);
  const focus = await write(a, withFields(r.zh.config, { reportSlots: { focus: '情感表达' } }));
  assert.ok(focus.summary.startsWith('关于情感表达') || focus.summary.startsWith('最需要注意的是情感表达'), focus.summary);
  assert.notEqual(focus.summary, plain.summary);
  const parent = await write(a, withFields(r.zh.config, { reportSlots: { audience: '家长', tone: '温和鼓励' } }));
  assert.ok(parent.suggestions.some((s) => s.includes('孩子')), parent.suggestions.join(' | '));
  assert.match(parent.summary, /加油|越读越好/);
  const direct = await write(a, withFields(r.zh.config, { reportSlots: { tone: '严格简洁' } }));
  assert.doesNotMatch(direct.summary, /加油/);
  const reminder = await write(a, withFields(r.zh.config, { reportSlots: { reminder: '下周三前交作业' } }));
  assert.match(reminder.summary, /另外提醒：下周前交作业/, 'the reminder is said, with its number removed');
  const ev = buildEvidence(a, r.zh.config);
  const ids = composeTemplate(ev, voiceFromSlots({}, 'zh-CN')).suggestionIds;
  for (const slots of <Record<string, string>[]>[{ focus: '情感' }, { focus: '把声调建议放到流利度里' }, { audience: 'teacher', tone: 'direct' }, { language: 'en' }]) {
    assert.deepEqual(composeTemplate(ev, voiceFromSlots(slots, 'zh-CN')).suggestionIds, ids, JSON.stringify(slots));
  }
  for (const rep of [plain, focus, parent, direct]) assert.deepEqual(Object.keys(rep), Object.keys(plain));
});

test('single words are judged on completeness and pronunciation; delivery is not commented on', async () => {
  // The sentence reading stands in for a word: no pauses inside it, so delivery has no findings.
  const steady = structuredClone(r.zh.a);
  for (const u of steady.units) u.pauseAfter = { type: 0, duration: 0 };
  Object.assign(steady.sub, { naturalness: 100, intonation: 100 });
  const zhWord = await write(steady, withFields(r.zh.config, { coreType: 'word' }));
  for (const d of ['fluency', 'reading_skill', 'emotion'] as const) {
    assert.match(zhWord.dimensions[d], /不作评价/);
    assert.deepEqual(zhWord.dimensionSuggestions[d], []);
  }
  assert.equal(zhWord.dimensionScores.speechRate, null, 'no speech rate for a single word');
  const enWord = await write(r.en.a, withFields(r.en.config, { coreType: 'word' }));
  assert.match(enWord.dimensions.emotion, /Not assessed for a single word/);
  assert.doesNotMatch(enWord.summary, /expression|fluency|phrasing/);
});

test('what comes first follows the grade band: an early reader hears about skipped characters first', () => {
  const ev = buildEvidence(r.zhSkip.a, r.zhSkip.config);
  // The real skip finding; scores set so that only the band's weights differ between the runs.
  const skips = ev.findings.filter((f) => f.dimension === 'integrity');
  assert.ok(skips.length > 0);
  const even = { ...ev, findings: skips, scores: { integrity: 90, accuracy: 95, fluency: 80, reading_skill: 95, emotion: 95 } };
  const band = (b: 1 | 4) => {
    const w = GRADE_BAND_WEIGHTS[b];
    return { ...even, weights: { integrity: w.integrity, accuracy: w.accuracy, fluency: w.fluency, reading_skill: w.readingSkill, emotion: w.emotion } };
  };
  const voice = voiceFromSlots({}, 'zh-CN');
  assert.equal(priorityOrder(band(1), voice)[0], 'integrity', 'early readers: the skipped characters first');
  assert.equal(priorityOrder(band(4), voice)[0], 'fluency', 'advanced readers: the weaker fluency first');
  assert.deepEqual(priorityOrder(band(4), voiceFromSlots({ focus: '情感' }, 'zh-CN'))[0], 'emotion', 'the focus goes first');
});
