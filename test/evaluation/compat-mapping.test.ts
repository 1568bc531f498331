/**
 * The compat form mapped onto the native config: kinds tied to their language, dict_dialect,
 * the `.pro` defaults, and validation messages that name the compat parts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError, invalid } from '../../src/errors.js';
import { asCompatError, compatToConfig, isCompatKind, isCompatOnlyKind } from '../../src/evaluation/compat.js';
import { loadConfig } from '../../src/config.js';
import { publicUrl } from '../../src/http/public-url.js';

function rejects(kind: string, fields: Record<string, string>, message: RegExp, nativeName?: RegExp) {
  assert.throws(
    () => compatToConfig(kind, fields),
    (err: unknown) => {
      assert.ok(err instanceof ApiError);
      assert.equal(err.code, 40001);
      assert.equal(err.status, 400);
      assert.match(err.message, message);
      if (nativeName) assert.doesNotMatch(err.message, nativeName, 'the message names the compat part, not the native field');
      return true;
    },
    `${kind} ${JSON.stringify(fields)}`,
  );
}

test('pinyin is a compat kind and a native kind; only compat-only names are refused at the native endpoints', () => {
  assert.equal(isCompatKind('pinyin'), true);
  assert.equal(isCompatOnlyKind('pinyin'), false);
  for (const kind of ['sent.eval', 'word.eval.pro', 'sent.eval.cn', 'open.eval.cn']) assert.equal(isCompatOnlyKind(kind), true, kind);
  for (const kind of ['sentence', 'word', 'nonsense']) assert.equal(isCompatOnlyKind(kind), false, kind);
});

test('each kind has its language: absent means the kind\'s own, a mismatch is 40001 naming kind and language', () => {
  assert.equal(compatToConfig('sent.eval.cn', { refText: '你好' }).config.language, 'zh-CN');
  assert.equal(compatToConfig('pinyin', { refText: '你好', refPinyin: 'ni3 hao3' }).config.language, 'zh-CN');
  assert.equal(compatToConfig('sent.eval', { refText: 'hello' }).config.language, 'en-US');
  assert.equal(compatToConfig('alpha.eval', { refText: 'A B', language: 'en-GB' }).config.language, 'en-GB');
  rejects('sent.eval.cn', { refText: '你好', language: 'en-US' }, /sent\.eval\.cn.*en-US/);
  rejects('pinyin', { refText: '你好', refPinyin: 'ni3 hao3', language: 'en-GB' }, /pinyin.*en-GB/);
  rejects('sent.eval', { refText: 'hello', language: 'zh-CN' }, /sent\.eval\b.*zh-CN/);
  rejects('word.eval.pro', { refText: 'hello', language: 'zh-CN' }, /word\.eval\.pro.*zh-CN/);
  rejects('para.eval', { refText: 'hello', language: 'fr-FR' }, /language must be one of/);
});

test('dict_dialect chooses the English dictionary dialect: en_br gives en-GB, en_us en-US; other values are 40001', () => {
  const lang = (kind: string, fields: Record<string, string>) => compatToConfig(kind, { refText: 'hello', ...fields }).config.language;
  assert.equal(lang('sent.eval', { dict_dialect: 'en_br' }), 'en-GB');
  assert.equal(lang('sent.eval', { dict_dialect: 'en_br', language: 'en-US' }), 'en-GB');
  assert.equal(lang('sent.eval', { dict_dialect: 'en_us', language: 'en-GB' }), 'en-US');
  assert.equal(lang('sent.eval', { language: 'en-GB' }), 'en-GB');
  assert.equal(compatToConfig('sent.eval.cn', { refText: '你好', dict_dialect: 'en_us' }).config.language, 'zh-CN');
  rejects('sent.eval', { refText: 'hello', dict_dialect: 'en_au' }, /dict_dialect must be en_br or en_us/);
  rejects('sent.eval.cn', { refText: '你好', dict_dialect: 'british' }, /dict_dialect must be en_br or en_us/);
});

test('.pro kinds: readtype diagnosis and both dialects by default; an explicit readtype_diagnosis=0 or dict_dialect=en_us wins', () => {
  const pro = compatToConfig('sent.eval.pro', { refText: 'hello' });
  assert.equal(pro.compat.readtypeDiagnosis, true);
  assert.equal(pro.compat.adaptive, true);
  assert.equal(compatToConfig('sent.eval.pro', { refText: 'hello', readtype_diagnosis: '0' }).compat.readtypeDiagnosis, false);
  const american = compatToConfig('word.eval.pro', { refText: 'hello', dict_dialect: 'en_us' });
  assert.equal(american.compat.adaptive, false);
  assert.equal(american.config.language, 'en-US');
  const plain = compatToConfig('sent.eval', { refText: 'hello' });
  assert.equal(plain.compat.readtypeDiagnosis, false);
  assert.equal(plain.compat.adaptive, false);
  assert.equal(compatToConfig('sent.eval', { refText: 'hello', readtype_diagnosis: '1' }).compat.readtypeDiagnosis, true);
});

test('validation messages name the compat part of every mapped field', () => {
  const native = /referenceText|paragraphNeedWordScore|phonemeOutput|keyPoints/;
  rejects('sent.eval', { refText: 'a'.repeat(1001) }, /^refText longer than 1000 characters$/, native);
  rejects('sent.eval', { refText: '   ' }, /^refText is blank$/, native);
  rejects('para.eval', { refText: 'hello', paragraph_need_word_score: '2' }, /^paragraph_need_word_score must be one of 0, 1/, native);
  rejects('sent.eval', { refText: 'hello', phoneme_output: '2' }, /^phoneme_output must be 0 or 1/, native);
  rejects('sent.eval', { refText: 'hello', scale: '0' }, /^scale must be/);
  rejects('sent.eval', { refText: 'hello', precision: '2' }, /^precision must be/);
  rejects('sent.eval', { refText: 'hello', slack: '3' }, /^slack must be/);
  rejects('sent.eval', { refText: 'hello', agegroup: '4' }, /^agegroup must be one of 1, 2, 3/);
  rejects('sent.eval.cn', { refText: '你好', genre: 'ode' }, /^genre must be one of/);
  rejects('open.eval.cn', { refText: '题目', taskType: 'essay' }, /^taskType must be one of/);
  // Parts merged from the `request` JSON are named the same way.
  rejects('para.eval', { refText: 'hello', request: JSON.stringify({ paragraph_need_word_score: 3 }) }, /^paragraph_need_word_score must be one of/, native);
  // Engine-level text checks are renamed with the same mapping; other errors pass unchanged.
  const renamed = asCompatError(invalid('referenceText has no readable Chinese characters')) as ApiError;
  assert.equal(renamed.message, 'refText has no readable Chinese characters');
  assert.equal(renamed.code, 40001);
  const other = new ApiError('INTERNAL');
  assert.equal(asCompatError(other), other);
});

test('KOUYU_PUBLIC_BASE_URL makes download addresses absolute; it must be an http(s) URL', () => {
  const config = loadConfig({ KOUYU_PUBLIC_BASE_URL: 'https://kouyu.example.com/speech/' }, '/');
  assert.equal(config.publicBaseUrl, 'https://kouyu.example.com/speech');
  assert.equal(publicUrl('/compat/audio/eval_x.wav', config.publicBaseUrl), 'https://kouyu.example.com/speech/compat/audio/eval_x.wav');
  assert.equal(publicUrl('https://a.example/x', 'https://b.example'), 'https://a.example/x', 'an absolute address stays as it is');
  assert.equal(loadConfig({}, '/').publicBaseUrl, null);
  assert.throws(() => loadConfig({ KOUYU_PUBLIC_BASE_URL: 'ftp://x' }, '/'), /KOUYU_PUBLIC_BASE_URL/);
  assert.throws(() => loadConfig({ KOUYU_PUBLIC_BASE_URL: 'not a url' }, '/'), /KOUYU_PUBLIC_BASE_URL/);
});
