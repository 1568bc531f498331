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
  assert.equal(validateSynthesisRequest({ text: '好', speed: 50 }).speedExplicit, true);
});

test('text is required and at most 1000 characters', () => {
  rejects({}, /text/);
  rejects({ text: '   ' }, /text/);
  rejects({ text: '好'.repeat(1001) }, /1000/);
  assert.equal(validateSynthesisRequest({ text: '好'.repeat(1000) }).text.length, 1000);
});

test('enumerations and 0-100 integers', () => {
  rejects({ text: '好', language: 'fr-FR' }, /language/);
  rejects({ text: '好', format: 'flac' }, /format/);
  rejects({ text: '好', emotion: 'angry' }, /emotion/);
  rejects({ text: '好', genre: 'novel' }, /genre/);
  for (const field of ['speed', 'pitch', 'volume']) {
    rejects({ text: '好', [field]: 101 }, new RegExp(field));
    rejects({ text: '好', [field]: -1 }, new RegExp(field));
    rejects({ text: '好', [field]: 50.5 }, new RegExp(field));
    rejects({ text: '好', [field]: '50' }, new RegExp(field));
  }
  rejects({ text: '好', sampleRate: 12345 }, /sampleRate/);
  assert.equal(validateSynthesisRequest({ text: '好', sampleRate: 8000 }).sampleRate, 8000);
});

test('unknown voice is named in the message', () => {
  rejects({ text: '好', voice: 'sv_nobody' }, /sv_nobody/);
  for (const id of ['female', 'male', 'xiaoyan', 'xiaofeng', 'sv_m_aiyuan', 'sv_f_zhuanti']) {
    assert.equal(validateSynthesisRequest({ text: '好', voice: id }).voice, id);
  }
  // A route can widen the check to a tenant's own voices.
  assert.equal(validateSynthesisRequest({ text: '好', voice: 'tv_1' }, (id) => id === 'tv_1').voice, 'tv_1');
});

test('emoVector needs 8 values from 0 to 1.2', () => {
  rejects({ text: '好', emoVector: [0, 0, 0] }, /8/);
  rejects({ text: '好', emoVector: [0, 0, 0, 0, 0, 0, 0, 1.3] }, /1\.2/);
  rejects({ text: '好', emoVector: [0, 0, 0, 0, 0, 0, 0, -0.1] }, /1\.2/);
  assert.deepEqual(validateSynthesisRequest({ text: '好', emoVector: [1.2, 0, 0, 0, 0, 0, 0, 0] }).emoVector?.[0], 1.2);
});

test('style at most 200 characters, pinyin at most 8000 and one syllable per character', () => {
  rejects({ text: '好', style: 'x'.repeat(201) }, /200/);
  rejects({ text: '你好', pinyin: 'ni3 '.repeat(2001) }, /8000/);
  rejects({ text: '你好', pinyin: 'ni3' }, /pinyin has 1 syllables but the text has 2/);
  rejects({ text: 'hello', language: 'zh-CN' }, /no readable Chinese/);
  rejects({ text: '你好', pinyin: 'ni3 hao9' }, /hao9/);
  assert.equal(validateSynthesisRequest({ text: '银行，2', pinyin: 'yin2 xing2 er4' }).pinyin, 'yin2 xing2 er4');
});
