import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderSpeech, synthesizeWith } from '../../src/synthesis/synthesize.js';
import { buildVoiceProfile } from '../../src/synthesis/profile.js';
import { decodeWithFfmpeg, medianF0, request, testEngines } from './helpers.js';

const SENTENCE = '今天天气很好，我们一起去公园散步吧。';

test('duration grows with the text and shrinks with speed (both languages)', async () => {
  const e = await testEngines();
  const sec = async (over: Parameters<typeof request>[0]) => {
    const r = await renderSpeech(request(over), e);
    return r.pcm.length / r.sampleRate;
  };
  const short = await sec({ text: SENTENCE });
  const long = await sec({ text: SENTENCE + SENTENCE });
  const fast = await sec({ text: SENTENCE, speed: 100 });
  const slow = await sec({ text: SENTENCE, speed: 0 });
  assert.ok(long > short * 1.7, `${long} vs ${short}`);
  // speed 100 is 1.6x and speed 0 is 0.6x the standard rate: allow 20% either way.
  assert.ok(Math.abs(short / fast - 1.6) < 0.32, `fast ratio ${(short / fast).toFixed(2)}`);
  assert.ok(Math.abs(slow / short - 1 / 0.6) < 0.33, `slow ratio ${(slow / short).toFixed(2)}`);
  const en = await sec({ text: 'The quick brown fox jumps over the lazy dog.', language: 'en-US' });
  const enFast = await sec({ text: 'The quick brown fox jumps over the lazy dog.', language: 'en-US', speed: 100 });
  assert.ok(en / enFast > 1.3, `English speed ratio ${(en / enFast).toFixed(2)}`);
});

test('prose runs at about 3 characters per second, a classical poem at about 1.75 (±20%)', async () => {
  const e = await testEngines();
  const prose = '我们今天在学校学习了很多新的知识，老师讲得非常清楚，同学们都很认真地听讲。';
  const poem = '床前明月光，疑是地上霜。举头望明月，低头思故乡。';
  const cps = async (text: string) => {
    const r = await renderSpeech(request({ text }), e);
    return (text.match(/\p{Script=Han}/gu) ?? []).length / (r.pcm.length / r.sampleRate);
  };
  const p = await cps(prose);
  const q = await cps(poem);
  assert.ok(Math.abs(p - 3) / 3 < 0.2, `prose ${p.toFixed(2)} chars/s`);
  assert.ok(Math.abs(q - 1.75) / 1.75 < 0.2, `poem ${q.toFixed(2)} chars/s`);
});

test('voices differ measurably in median F0 and rate', async () => {
  const e = await testEngines();
  const measure = async (voice: string, language: 'zh-CN' | 'en-US') => {
    const text = language === 'zh-CN' ? SENTENCE : 'She sells sea shells by the sea shore, and the shells she sells are sea shells.';
    const r = await renderSpeech(request({ text, voice, language }), e);
    const p = buildVoiceProfile(r.pcm, r.sampleRate, text, language);
    return { f0: p.medianF0, rate: p.rate, range: p.f0RangeSt };
  };
  for (const language of ['zh-CN', 'en-US'] as const) {
    const female = await measure('female', language);
    const male = await measure('male', language);
    const happy = await measure('sv_f_kaixin', language);
    const calm = await measure('sv_m_chenwen', language);
    const info = JSON.stringify({ language, female, male, happy, calm });
    assert.ok(female.f0 > male.f0 * 1.4, info); // 200 vs 120 Hz
    assert.ok(happy.f0 > female.f0 * 1.1, info); // 245 vs 200 Hz
    assert.ok(happy.rate > calm.rate * 1.15, info); // rate 1.15 vs 0.88
    if (language === 'zh-CN') assert.ok(happy.range > calm.range * 1.4, info); // range 1.45 vs 0.75
  }
});

test('pitch and energetic emotion move F0 and rate; an explicit speed wins over energetic', async () => {
  const e = await testEngines();
  const base = await renderSpeech(request({ text: SENTENCE }), e);
  const high = await renderSpeech(request({ text: SENTENCE, pitch: 100 }), e);
  const energetic = await renderSpeech(request({ text: SENTENCE, emotion: 'energetic' }), e);
  const explicit = await renderSpeech(request({ text: SENTENCE, emotion: 'energetic', speedExplicit: true }), e);
  const f = (r: { pcm: Int16Array; sampleRate: number }) => medianF0(r.pcm, r.sampleRate);
  assert.ok(f(high) > f(base) * 1.2, `pitch 100: ${f(high)} vs ${f(base)}`); // +4 st = 1.26x
  assert.ok(energetic.pcm.length < base.pcm.length * 0.92);
  assert.ok(Math.abs(explicit.pcm.length / base.pcm.length - 1) < 0.05);
  const warned = await renderSpeech(request({ text: '你好', emoVector: [0.5, 0.3, 0, 0, 0, 0, 0, 0] }), e);
  assert.match(warned.warnings.join(' '), /0\.55/);
});

test('wav, mp3 and ogg decode back with the right duration and sample rate', async () => {
  const e = await testEngines();
  for (const format of ['wav', 'mp3', 'ogg'] as const) {
    const r = await synthesizeWith(e, request({ text: SENTENCE, format, sampleRate: format === 'wav' ? 22050 : undefined }));
    const pcm = await decodeWithFfmpeg(r.audio, 16000);
    const sec = pcm.length / 16000;
    // MP3 encoder delay and frame padding add up to about 0.11 s at 16 kHz.
    assert.ok(Math.abs(sec - r.durationSec) < 0.15, `${format}: ${sec} vs ${r.durationSec}`);
    if (format === 'wav') assert.equal(r.audio.readUInt32LE(24), 22050);
  }
});
