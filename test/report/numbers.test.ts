/**
 * The number rule of report bodies: digits, English cardinals and Chinese numerals count as
 * numbers; the tone names 第一声…第四声 and words whose 一 is no quantity do not.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { containsNumber, dropNumericSentences, quotable, stripNumbers } from '../../src/report/numbers.js';

test('digits, Chinese numerals and English number words are numbers', () => {
  for (const text of ['得分 85', '得了九十分', '八十五', '满分一百', '两处错误', '全对：１００', 'You scored ninety', 'seventy percent', '第三句']) {
    assert.equal(containsNumber(text), true, text);
  }
});

test('tone names and non-quantity 一 words are not numbers', () => {
  for (const text of ['把「银行」的「行」读成了第二声', '第四声要从高处落下', '一定要一口气读完', '读得一气呵成', 'Someone read it once']) {
    assert.equal(containsNumber(text), false, text);
  }
});

test('stripping removes the number together with its unit and leaves no number', () => {
  assert.equal(stripNumbers('每天朗读十分钟'), '每天朗读');
  assert.equal(stripNumbers('每天朗读10分钟'), '每天朗读');
  assert.equal(stripNumbers('read for ten minutes a day'), 'read for a day');
  assert.equal(stripNumbers('一定要读第二声'), '一定要读第二声');
  for (const text of ['得了九十分还要加油', '95 points', 'twenty-five times', '１２３', '第三声和二声']) assert.equal(containsNumber(stripNumbers(text)), false, text);
});

test('quoting and dropping numeric sentences', () => {
  assert.equal(quotable('银行'), true);
  assert.equal(quotable('二十九'), false);
  assert.equal(quotable('1990'), false);
  assert.equal(dropNumericSentences('读得很好。得分九十分。继续加油！'), '读得很好。继续加油！');
  assert.equal(dropNumericSentences('Well read. You got 90 points. Keep going.'), 'Well read. Keep going.');
});

test('Mandarin naming quotes words and characters without numbers, else by word position or pinyin', async () => {
  const { nameChar, nameRun } = await import('../../src/report/template/zh-words.js');
  const ref = (text: string, word: string | null, inWord: 'start' | 'middle' | 'end' | null, expected: string) => ({ text, word, inWord, expected, occurrence: null, index: 0, before: null, after: null, sentence: 0 });
  assert.equal(nameChar(ref('行', '银行', 'end', 'háng')), '「银行」的「行」');
  assert.equal(nameChar(ref('一', '一些', 'start', 'yī')), '「一些」开头的字（yī）');
  assert.equal(nameChar({ ...ref('家', '国家', 'end', 'jiā'), occurrence: 'later' }), '后面那个「国家」的「家」');
  assert.equal(nameChar(ref('九', '二十九', 'end', 'jiǔ')), '读作 jiǔ 的字');
  assert.equal(nameRun([ref('中', '中国', 'start', 'zhōng'), ref('国', '中国', 'end', 'guó')]), '「中国」');
  assert.equal(nameRun([ref('五', null, null, 'wǔ'), ref('十', null, null, 'shí')]), '读作 wǔ shí 的部分');
});
