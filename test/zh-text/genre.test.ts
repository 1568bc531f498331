/** Genre detection: regulated verse, line-broken modern verse, prose; config override. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeMandarinText } from '../../src/zh/text/analyze.js';
import { ApiError } from '../../src/errors.js';
import { detectGenre } from '../../src/zh/text/genre.js';

const genre = (s: string) => analyzeMandarinText(s).genre;

// Wang Zhihuan, 登鹳雀楼 (5-character jueju, Tang dynasty, public domain).
const JUEJU_5 = '白日依山尽，黄河入海流。欲穷千里目，更上一层楼。';
// Li Bai, 早发白帝城 (7-character jueju).
const JUEJU_7 = '朝辞白帝彩云间，千里江陵一日还。\n两岸猿声啼不住，轻舟已过万重山。';
// Du Fu, 春望 (5-character lüshi, eight lines).
const LUSHI_5 = '国破山河在，城春草木深。感时花溅泪，恨别鸟惊心。烽火连三月，家书抵万金。白头搔更短，浑欲不胜簪。';
// Xu Zhimo, 再别康桥, first stanza (1928; line-broken modern verse).
const MODERN = '轻轻的我走了，\n正如我轻轻的来；\n我轻轻的招手，\n作别西天的云彩。';

test('regulated verse is classical_poem: 5- and 7-character jueju, 5-character lüshi, with a title line', () => {
  assert.equal(genre(JUEJU_5), 'classical_poem');
  assert.equal(genre(JUEJU_7), 'classical_poem');
  assert.equal(genre(LUSHI_5), 'classical_poem');
  assert.equal(genre(`登鹳雀楼\n唐·王之涣\n${JUEJU_5}`), 'classical_poem');
  assert.equal(detectGenre(JUEJU_5), 'classical_poem', 'detectGenre on the text alone');
});

test('near-misses of regulated verse are not classical_poem', () => {
  assert.equal(genre('白日依山尽，黄河入海流。欲穷千里目。'), 'prose', 'three lines');
  assert.equal(genre('白日依山尽，黄河入海流。欲穷千里目，更上一层楼房。'), 'prose', 'one line of six');
  assert.equal(genre('白日依山尽，黄河入海流。欲穷1000里，更上一层楼。'), 'prose', 'digits');
});

test('line-broken verse is modern_poem; prose paragraphs and single lines are prose', () => {
  assert.equal(genre(MODERN), 'modern_poem');
  assert.equal(genre('今天天气很好。我们去公园散步。公园里有很多人。大家都很开心。'), 'prose');
  assert.equal(genre('今天天气很好。\n我们去公园散步。\n公园里有很多人。\n大家都很开心。'), 'prose', 'every line is a sentence');
});

test('the configured genre wins; an unknown genre is 40001', () => {
  const t = analyzeMandarinText(JUEJU_5, { genre: 'prose' });
  assert.deepEqual([t.genre, t.genreSource], ['prose', 'config']);
  assert.equal(analyzeMandarinText(JUEJU_5).genreSource, 'detected');
  assert.throws(() => analyzeMandarinText(JUEJU_5, { genre: 'sonnet' as never }), (e: unknown) => e instanceof ApiError && e.code === 40001);
});
