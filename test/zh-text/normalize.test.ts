/** Reference-text normalisation: character types, full-width forms, numerals, original offsets. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeText, CHAR_TYPE } from '../../src/zh/text/normalize.js';
import { readCardinal, readDecimal } from '../../src/zh/text/numerals.js';

const read = (s: string) => normalizeText(s).tokens.filter((t) => t.charType === CHAR_TYPE.HANZI).map((t) => t.text).join('');
const types = (s: string) => normalizeText(s).tokens.map((t) => `${t.text}:${t.charType}`);

test('cardinals: grouping by 万/亿, internal 零, leading 十, 两 before 千/万/亿', () => {
  const cases: [string, string][] = [
    ['0', '零'], ['7', '七'], ['10', '十'], ['12', '十二'], ['20', '二十'], ['101', '一百零一'], ['110', '一百一十'],
    ['1005', '一千零五'], ['1010', '一千零一十'], ['2000', '两千'], ['2500', '两千五百'], ['10001', '一万零一'],
    ['22000', '两万二千'], ['12000', '一万二千'], ['100000', '十万'], ['123456', '十二万三千四百五十六'], ['200000000', '两亿'],
    ['10020030', '一千零二万零三十'], ['1000000001', '十亿零一'],
  ];
  for (const [n, zh] of cases) assert.equal(readCardinal(n), zh, n);
  assert.equal(readDecimal('3', '14'), '三点一四');
  assert.equal(readDecimal('0', '05'), '零点零五');
});

test('numerals in text: decimals, percentages, years, phone numbers, separators, 两 before measure words', () => {
  assert.equal(read('他有3.5个'), '他有三点五个');
  assert.equal(read('增长15%'), '增长百分之十五');
  assert.equal(read('占3.5%'), '占百分之三点五');
  assert.equal(read('2024年'), '二零二四年');
  assert.equal(read('3年'), '三年', 'a duration is a cardinal');
  assert.equal(read('电话13800138000'), '电话一三八零零一三八零零零');
  assert.equal(read('010-62345678'), '零一零六二三四五六七八');
  assert.equal(read('1,000元'), '一千元');
  assert.equal(read('买了2个'), '买了两个');
  assert.equal(read('第2名'), '第二名');
  assert.equal(read('2月'), '二月');
  assert.equal(read('坐302路'), '坐三零二路');
  assert.equal(read('12345'), '一万二千三百四十五');
});

test('clock times, fractions, ranges and ratios', () => {
  assert.equal(read('10:30出发'), '十点三十分出发');
  assert.equal(read('2:00'), '两点');
  assert.equal(read('8:05:09'), '八点零五分零九秒');
  assert.equal(read('1/2的人'), '二分之一的人');
  assert.equal(read('3-5天'), '三到五天');
  assert.equal(read('10～20个'), '十到二十个');
  assert.equal(read('20%-30%'), '百分之二十到百分之三十');
  assert.equal(read('比分3:2'), '比分三比二');
  assert.equal(read('400-800-1234'), '四零零八零零一二三四', 'a telephone chain stays digit by digit');
  const dash = normalizeText('3-5天').tokens[1];
  assert.deepEqual([dash.text, dash.charType, dash.source, dash.begin, dash.end], ['到', 0, '-', 1, 2]);
});

test('numerals keep the original span: every character of 百分之三点五 points at "3.5%"', () => {
  const toks = normalizeText('占3.5%。').tokens;
  const numeral = toks.filter((t) => t.begin === 1);
  assert.equal(numeral.map((t) => t.text).join(''), '百分之三点五');
  for (const t of numeral) assert.deepEqual([t.begin, t.end, t.source, t.charType], [1, 5, '3.5%', 0]);
  assert.deepEqual([toks.at(-1)!.text, toks.at(-1)!.begin, toks.at(-1)!.end], ['。', 5, 6]);
});

test('charType: 0 Chinese, 1 punctuation, 2 Latin runs, 3 unread digits, 4 other symbols', () => {
  assert.deepEqual(types('你好，LOGO！'), ['你:0', '好:0', '，:1', 'LOGO:2', '！:1']);
  assert.deepEqual(types('5G和MP3'), ['5:3', 'G:2', '和:0', 'MP:2', '3:3']);
  assert.deepEqual(types('好😀©～'), ['好:0', '😀:4', '©:4', '~:4']);
  assert.deepEqual(types('“好”《书》（注）'), ['“:1', '好:0', '”:1', '《:1', '书:0', '》:1', '（:1', '注:0', '）:1']);
});

test('full-width letters and digits become half-width; Chinese punctuation is kept as written', () => {
  assert.deepEqual(types('ＡＢＣ，ｉＰｈｏｎｅ'), ['ABC:2', '，:1', 'iPhone:2']);
  assert.equal(read('第１２名'), '第十二名');
  assert.deepEqual(types('好！'), ['好:0', '！:1']);
});

test('offsets count code points (a character outside the BMP counts once) and skip white space', () => {
  const toks = normalizeText('𠀀 好\n学').tokens;
  assert.deepEqual(toks.map((t) => [t.text, t.begin, t.end]), [['𠀀', 0, 1], ['好', 2, 3], ['学', 4, 5]]);
  assert.deepEqual(normalizeText('一\r\n二\n三').lineBreaks, [1, 4]);
});
