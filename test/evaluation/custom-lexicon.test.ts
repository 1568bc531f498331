import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../src/errors.js';
import { compatToConfig } from '../../src/evaluation/compat.js';
import { withCustomPinyin } from '../../src/evaluation/custom-lexicon.js';

test('customized pronunciations become the refPinyin of a Mandarin task, wherever the word occurs', () => {
  const { config, compat } = compatToConfig('sent.eval.cn', { refText: '银行行长去银行。', customized_pron: '行长:hang2 zhang3' });
  const out = withCustomPinyin(config, compat.lexicon);
  assert.equal(out.refPinyin, 'yin2 hang2 hang2 zhang3 qu4 yin2 hang2');
  const json = compatToConfig('sent.eval.cn', { refText: '他长大了。', customized_lexicon: JSON.stringify({ 长大: ['zhang3 da4'] }) });
  assert.equal(withCustomPinyin(json.config, json.compat.lexicon).refPinyin, 'ta1 zhang3 da4 le5');
});

test('an explicit refPinyin wins; a syllable count that does not fit the word is 40001', () => {
  const a = compatToConfig('sent.eval.cn', { refText: '你好', refPinyin: 'ni3 hao3', customized_pron: '你好:ni2 hao3' });
  assert.equal(withCustomPinyin(a.config, a.compat.lexicon).refPinyin, 'ni3 hao3');
  const b = compatToConfig('sent.eval.cn', { refText: '你好', customized_pron: '你好:ni3' });
  assert.throws(() => withCustomPinyin(b.config, b.compat.lexicon), (e: unknown) => e instanceof ApiError && e.code === 40001);
});
