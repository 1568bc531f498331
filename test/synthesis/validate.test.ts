import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../src/errors.js';
import { validateSynthesisRequest } from '../../src/synthesis/validate.js';

function rejects(body: unknown, pattern: RegExp): void {
  assert.throws(
    () => validateSynthesisRequest(body),
    (err: unknown) => err instanceof ApiError && err.code === 40001 && err.status === 400 && pattern.test(err.message),
  );
}

test('defaults follow the spec table', () => {
  const r = validateSynthesisRequest({ text: '你好' });
  assert.equal(r.language, 'zh-CN');
  assert.equal(r.voice, 'female');
  assert.equal(r.format, 'mp3');
  assert.deepEqual([r.speed, r.pitch, r.volume], [50, 50, 50]);
  assert.equal(r.speedExplicit, false);
  assert.equal(validateSynthesisRequest({ text: 'hi', speed: 50 }).speedExplicit, true);
});

test('text is required and at most 1000 characters', () => {
  rejects({}, /text/);
  rejects({ text: '   ' }, /text/);
  rejects({ text: 'a'.repeat(1001) }, /1000/);
  assert.equal(validateSynthesisRequest({ text: '好'.repeat(1000) }).text.length, 1000);
});

test('enumerations and 0-100 integers', () => {
  rejects({ text: 'a', language: 'fr-FR' }, /language/);
  rejects({ text: 'a', format: 'flac' }, /format/);
  rejects({ text: 'a', emotion: 'angry' }, /emotion/);
  rejects({ text: 'a', genre: 'novel' }, /genre/);
  for (const field of ['speed', 'pitch', 'volume']) {
    rejects({ text: 'a', [field]: 101 }, new RegExp(field));
    rejects({ text: 'a', [field]: -1 }, new RegExp(field));
    rejects({ text: 'a', [field]: 50.5 }, new RegExp(field));
    rejects({ text: 'a', [field]: '50' }, new RegExp(field));
  }
  rejects({ text: 'a', sampleRate: 12345 }, /sampleRate/);
  assert.equal(validateSynthesisRequest({ text: 'a', sampleRate: 8000 }).sampleRate, 8000);
});

test('unknown voice is named in the message', () => {
  rejects({ text: 'a', voice: 'sv_nobody' }, /sv_nobody/);
  for (const id of ['female', 'male', 'xiaoyan', 'xiaofeng', 'sv_m_aiyuan', 'sv_f_zhuanti']) {
    assert.equal(validateSynthesisRequest({ text: 'a', voice: id }).voice, id);
  }
  // A route can widen the check to a tenant's own voices.
  assert.equal(validateSynthesisRequest({ text: 'a', voice: 'tv_1' }, (id) => id === 'tv_1').voice, 'tv_1');
});

test('emoVector needs 8 values from 0 to 1.2', () => {
  rejects({ text: 'a', emoVector: [0, 0, 0] }, /8/);
  rejects({ text: 'a', emoVector: [0, 0, 0, 0, 0, 0, 0, 1.3] }, /1\.2/);
  rejects({ text: 'a', emoVector: [0, 0, 0, 0, 0, 0, 0, -0.1] }, /1\.2/);
  assert.deepEqual(validateSynthesisRequest({ text: 'a', emoVector: [1.2, 0, 0, 0, 0, 0, 0, 0] }).emoVector?.[0], 1.2);
});

test('style at most 200 characters, pinyin at most 8000 and one syllable per character', () => {
  rejects({ text: 'a', style: 'x'.repeat(201) }, /200/);
  rejects({ text: '你好', pinyin: 'ni3 '.repeat(2001) }, /8000/);
  rejects({ text: '你好', pinyin: 'ni3' }, /1 syllables but text has 2/);
  rejects({ text: '你好', pinyin: 'ni3 hao9' }, /hao9/);
  assert.equal(validateSynthesisRequest({ text: '银行，2', pinyin: 'yin2 xing2 er4' }).pinyin, 'yin2 xing2 er4');
});
