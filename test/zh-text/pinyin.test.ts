/** Pinyin in context, the pinyin fields, and refPinyin overrides and errors. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeMandarinText } from '../../src/zh/text/analyze.js';
import { ApiError } from '../../src/errors.js';

const raw = (s: string, refPinyin?: string) => analyzeMandarinText(s, { refPinyin }).chars.map((c) => c.rawpinyin).join(' ');

test('polyphonic characters are read from their word in context', () => {
  assert.equal(raw('我去银行'), 'wo3 qu4 yin2 hang2');
  assert.equal(raw('他长大了'), 'ta1 zhang3 da4 le5');
  assert.equal(raw('重复一遍'), 'chong2 fu4 yi1 bian4');
  assert.equal(raw('行走天涯'), 'xing2 zou3 tian1 ya2');
  assert.equal(raw('这个行长'), 'zhe4 ge5 hang2 zhang3');
  assert.equal(raw('觉得要睡觉'), 'jue2 de5 yao4 shui4 jiao4');
});

test('words pinyin-pro does not know are not crossed, and structural particles are read neutral', () => {
  // pinyin-pro alone: 行情 hang2 qing2 out of 执行情况, 目的 mu4 di4 out of 项目的.
  assert.equal(raw('政策执行情况'), 'zheng4 ce4 zhi2 xing2 qing2 kuang4');
  assert.equal(raw('高级项目的无人驾驶'), 'gao1 ji2 xiang4 mu4 de5 wu2 ren2 jia4 shi3');
  // 地 joining an adverbial to a verb and 得 after a verb are particles (pinyin-pro alone: di4, de2) ...
  assert.equal(raw('最大限度地反映'), 'zui4 da4 xian4 du4 de5 fan3 ying4');
  assert.equal(raw('他惊讶地问'), 'ta1 jing1 ya4 de5 wen4');
  assert.equal(raw('大部分字音读得准确'), 'da4 bu4 fen5 zi4 yin1 du2 de5 zhun3 que4');
  // ... but not the noun 地 (jieba tags it uv too) or the verb 得.
  assert.equal(raw('三星办事处已迁至他地'), 'san1 xing1 ban4 shi4 chu4 yi3 qian1 zhi4 ta1 di4');
  assert.equal(raw('韩国当地媒体报道称'), 'han2 guo2 dang1 di4 mei2 ti3 bao4 dao4 cheng1');
  assert.equal(raw('有一个地歌曲方'), 'you3 yi1 ge4 di4 ge1 qu3 fang1');
  assert.equal(raw('得了九十分'), 'de2 le5 jiu3 shi2 fen1');
  // A one-character word keeps pinyin-pro's reading in the whole run (为例 wei2 li4).
  assert.equal(raw('以此为例'), 'yi3 ci3 wei2 li4');
});

test('pinyin fields: toneless, numeric (5 = neutral), tone marks, tone label, ü as v', () => {
  const [nv, lv, men] = analyzeMandarinText('女绿们').chars;
  assert.deepEqual([nv.pinyin, nv.rawpinyin, nv.symbolpinyin, nv.tone], ['nv', 'nv3', 'nǚ', 'tone3']);
  assert.deepEqual([lv.pinyin, lv.rawpinyin, lv.symbolpinyin, lv.tone], ['lv', 'lv4', 'lǜ', 'tone4']);
  assert.deepEqual([men.pinyin, men.rawpinyin, men.symbolpinyin, men.tone], ['men', 'men5', 'men', 'tone5']);
  const marks = analyzeMandarinText('六对偶学').chars.map((c) => c.symbolpinyin);
  assert.deepEqual(marks, ['liù', 'duì', 'ǒu', 'xué']);
});

test('refPinyin overrides the automatic reading character by character', () => {
  const t = analyzeMandarinText('他还钱', { refPinyin: 'ta1 huan2 qian2' });
  assert.equal(t.chars.map((c) => c.rawpinyin).join(' '), 'ta1 huan2 qian2');
  assert.ok(t.chars.every((c) => c.fromRefPinyin));
  // ü spellings, neutral as 0 or 5, and the text's own punctuation copied into refPinyin.
  assert.equal(raw('绿了，女', 'lu:4 le0 ， nü3'), 'lv4 le5 nv3');
  assert.equal(raw('略', 'lue4'), 'lve4');
});

test('refPinyin count mismatch is 40001 and the message gives both counts', () => {
  assert.throws(
    () => analyzeMandarinText('银行', { refPinyin: 'yin2' }),
    (e: unknown) => e instanceof ApiError && e.code === 40001 && /1 syllables/.test(e.message) && /2 readable characters/.test(e.message),
  );
  // Numerals count as what is read: 3个 is 三个, two characters.
  assert.equal(raw('3个', 'san1 ge4'), 'san1 ge4');
  assert.throws(() => analyzeMandarinText('3个', { refPinyin: 'san1' }), /1 syllables but the reference text has 2 readable characters/);
});

test('refPinyin syllables are validated: a tone digit is required and the syllable must exist', () => {
  assert.throws(() => analyzeMandarinText('好', { refPinyin: 'hao' }), (e: unknown) => e instanceof ApiError && e.code === 40001 && /syllable 1 "hao"/.test(e.message));
  assert.throws(() => analyzeMandarinText('好', { refPinyin: 'hao7' }), /not numeric-tone pinyin/);
  assert.throws(() => analyzeMandarinText('你好', { refPinyin: 'ni3 xyz3' }), /syllable 2 "xyz3" is not a Mandarin syllable/);
});

test('text without readable characters is 40001', () => {
  for (const text of ['', '，。！', 'Hello world', '123abc', '😀']) {
    assert.throws(() => analyzeMandarinText(text), (e: unknown) => e instanceof ApiError && e.code === 40001 && /no readable Chinese characters/.test(e.message), text);
  }
});
