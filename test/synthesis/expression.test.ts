import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toZhTokens } from '../../src/synthesis/zh/syllables.js';
import {
  emotionFromStyle,
  emoVectorWarnings,
  pitchFactor,
  resolveEmotion,
  speedFactor,
  volumePeak,
} from '../../src/synthesis/expression.js';
import { SYSTEM_VOICES, findSystemVoice, formantScale, systemVoiceListing } from '../../src/synthesis/voices.js';

test('speed maps 0 → 0.6, 50 → 1, 100 → 1.6 (spec), pitch ±4 st, volume ±6 dB', () => {
  assert.equal(speedFactor(0), 0.6);
  assert.equal(speedFactor(50), 1);
  assert.ok(Math.abs(speedFactor(100) - 1.6) < 1e-12);
  assert.ok(Math.abs(speedFactor(75) - 1.3) < 1e-12);
  assert.ok(Math.abs(12 * Math.log2(pitchFactor(100)) - 4) < 1e-9);
  assert.equal(pitchFactor(50), 1);
  assert.ok(Math.abs(20 * Math.log10(volumePeak(0) / volumePeak(50)) + 6) < 1e-9);
});

test('genre comes from the Mandarin text layer: a regulated quatrain is a classical poem', () => {
  assert.equal(toZhTokens('床前明月光，疑是地上霜。举头望明月，低头思故乡。').genre, 'classical_poem');
  assert.equal(toZhTokens('今天天气很好，我们去公园吧。').genre, 'prose');
});

test('emotion: explicit emotion wins over emoVector and style; style keywords in Chinese and English', () => {
  assert.equal(emotionFromStyle('请用温柔亲切的语气朗读'), 'warm');
  assert.equal(emotionFromStyle('Read it in a lively, excited way'), 'energetic');
  assert.equal(emotionFromStyle('像新闻播报一样'), 'neutral');
  assert.equal(emotionFromStyle('随便'), null);
  const happy = [0.6, 0, 0, 0, 0, 0, 0, 0];
  assert.equal(resolveEmotion({ emoVector: happy }), 'energetic');
  assert.equal(resolveEmotion({ emoVector: [0, 0, 0, 0, 0, 0, 0, 0.5] }), 'warm');
  assert.equal(resolveEmotion({ emotion: 'neutral', emoVector: happy, style: '激情' }), 'neutral');
  assert.equal(resolveEmotion({ emoVector: [0, 0, 0, 0, 0, 0, 0, 0], style: 'gentle' }), 'warm');
  assert.equal(resolveEmotion({}), 'neutral');
});

test('emoVector warnings: sum above 0.7, or above 0.55 with anger in the mix', () => {
  assert.deepEqual(emoVectorWarnings([0.3, 0, 0, 0, 0, 0, 0, 0.3]), []);
  assert.match(emoVectorWarnings([0.4, 0, 0, 0, 0, 0, 0, 0.4]).join(), /0\.7/);
  assert.match(emoVectorWarnings([0, 0.3, 0, 0, 0.3, 0, 0, 0]).join(), /0\.55/);
  assert.deepEqual(emoVectorWarnings([0, 0.5, 0, 0, 0, 0, 0, 0]), []);
});

test('the catalogue holds every voice id of the spec with gender, style group and languages', () => {
  const ids = [
    'female', 'male', 'sv_f_jiaoshi', 'sv_f_jiqing', 'sv_m_gushi', 'sv_m_boyin', 'sv_f_boyin', 'sv_f_zhubo', 'sv_m_jieshuo',
    'sv_m_xuanchuan', 'sv_m_xuanchuan2', 'sv_m_guanggao', 'sv_f_zhuanti', 'sv_m_chenwen', 'sv_m_wennuan', 'sv_f_wenrou',
    'sv_f_diantai', 'sv_f_kaixin', 'sv_m_aiyuan', 'xiaoyan', 'xiaofeng',
  ];
  assert.deepEqual(SYSTEM_VOICES.map((v) => v.id).sort(), [...ids].sort());
  assert.equal(findSystemVoice('sv_m_aiyuan')?.gender, 'female'); // as the spec's table says
  assert.deepEqual(findSystemVoice('xiaoyan')?.languages, ['zh-CN']);
  // No two voices share the same (F0, range, rate, timbre) point.
  const points = new Set(SYSTEM_VOICES.map((v) => `${v.f0}/${v.range}/${v.rate}/${v.timbre}`));
  assert.equal(points.size, SYSTEM_VOICES.length);
  assert.ok(formantScale(findSystemVoice('male')!, 'ekho') < 0.9);
  assert.equal(formantScale(findSystemVoice('female')!, 'espeak'), 1); // eSpeak timbre comes from the variant
  assert.equal(findSystemVoice('female')?.variant, 'f3');
  assert.ok(systemVoiceListing().every((v) => v.ownerType === 'system' && v.status === 'available'));
});

test('reference recordings: 3-15 s accepted, 1-3 and 15-60 s with a warning, the rest refused with 40001', async () => {
  const { checkReferenceDuration } = await import('../../src/synthesis/profile.js');
  assert.deepEqual(checkReferenceDuration(5), []);
  assert.match(checkReferenceDuration(2).join(), /3-15 s/);
  assert.match(checkReferenceDuration(20).join(), /3-15 s/);
  assert.throws(() => checkReferenceDuration(0.5), (e: { code?: number }) => e.code === 40001);
  assert.throws(() => checkReferenceDuration(61), (e: { code?: number }) => e.code === 40001);
});
