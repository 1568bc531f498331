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

test('customized English pronunciations are added to the word as accepted variants; non-ARPAbet is 40001', async () => {
  const { loadEnglishLexicon } = await import('../../src/en/lexicon/index.js');
  const { planReading, withCustomPronunciations } = await import('../../src/en/engine/plan.js');
  const lexicon = await loadEnglishLexicon();
  const { compat } = compatToConfig('sent.eval', { refText: 'Kouyu scores tomato.', customized_pron: 'kouyu:K OW Y UW;tomato:T AH M AA T OW' });
  const plan = withCustomPronunciations(planReading(lexicon, 'Kouyu scores tomato.', 'sentence', 'en-US'), compat.lexicon);
  const prons = (i: number) => plan.grammar.slots[i].alternatives[0].prons.map((p) => p.join(' '));
  assert.ok(prons(0).includes('K OW Y UW'), prons(0).join(' | '));
  assert.ok(prons(2).includes('T AH M AA T OW') && prons(2).length >= 2, prons(2).join(' | '));
  const bad = compatToConfig('sent.eval', { refText: 'tomato', customized_pron: 'tomato:TOE MAH TOE' });
  assert.throws(
    () => withCustomPronunciations(planReading(lexicon, 'tomato', 'sentence', 'en-US'), bad.compat.lexicon),
    (e: unknown) => e instanceof ApiError && e.code === 40001 && /not ARPAbet/.test(e.message),
  );
});
