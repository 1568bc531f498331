/** Tone sandhi: expected realisation in normalized_syllables, citation tone kept in `tone`. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeMandarinText } from '../../src/zh/text/analyze.js';

const realised = (s: string, refPinyin?: string) =>
  analyzeMandarinText(s, { refPinyin }).chars.map((c) => c.normalized_syllables[0].syllables).join(' ');

test('third tone before third tone: 你好, 展览馆, 我也很好, 小老虎', () => {
  assert.equal(realised('你好'), 'ni2 hao3');
  assert.equal(realised('展览馆'), 'zhan2 lan2 guan3');
  assert.equal(realised('我也很好'), 'wo2 ye3 hen2 hao3');
  assert.equal(realised('小老虎'), 'xiao3 lao2 hu3');
  assert.equal(realised('你们好'), 'ni3 men5 hao3', 'a neutral tone breaks the run');
  assert.equal(realised('你，好'), 'ni3 hao3', 'punctuation breaks the run');
});

test('一: yi2 before tone 4, yi4 before 1/2/3, yi1 counting/ordinal/final, yi5 in V一V', () => {
  assert.equal(realised('一个'), 'yi2 ge4');
  assert.equal(realised('一样'), 'yi2 yang4');
  assert.equal(realised('一天'), 'yi4 tian1');
  assert.equal(realised('一年'), 'yi4 nian2');
  assert.equal(realised('一起'), 'yi4 qi3');
  assert.equal(realised('看一看'), 'kan4 yi5 kan4');
  assert.equal(realised('第一'), 'di4 yi1');
  assert.equal(realised('统一'), 'tong3 yi1');
  assert.equal(realised('十一'), 'shi2 yi1');
  assert.equal(realised('一月'), 'yi1 yue4');
  assert.equal(realised('1984年'), 'yi1 jiu3 ba1 si4 nian2');
  assert.equal(realised('100'), 'yi4 bai3');
  assert.equal(realised('一万'), 'yi2 wan4');
});

test('不: bu2 before tone 4, bu4 otherwise, bu5 in A不A', () => {
  assert.equal(realised('不对'), 'bu2 dui4');
  assert.equal(realised('不好'), 'bu4 hao3');
  assert.equal(realised('不行'), 'bu4 xing2');
  assert.equal(realised('好不好'), 'hao3 bu5 hao3');
  assert.equal(realised('我不'), 'wo3 bu4');
});

test('neutral tone: light second syllables of common words and reduplicated verbs', () => {
  assert.equal(realised('朋友告诉我'), 'peng2 you5 gao4 su5 wo3');
  assert.equal(realised('好朋友们'), 'hao3 peng2 you5 men5');
  assert.equal(realised('想想'), 'xiang2 xiang5', 'third-tone sandhi first, then the light repeat');
  assert.equal(realised('看看书'), 'kan4 kan5 shu1');
  assert.equal(realised('常常'), 'chang2 chang2', 'not a verb on the list');
  assert.equal(realised('大学生'), 'da4 xue2 sheng1');
  const you = analyzeMandarinText('朋友').chars[1];
  assert.deepEqual([you.tone, you.normalized_syllables[0].tone_sandhi], ['tone3', 5]);
});

test('the citation tone stays in `tone`, the sandhi tone in tone_sandhi', () => {
  const [ni, hao] = analyzeMandarinText('你好').chars;
  assert.deepEqual(ni.normalized_syllables, [{ syllables: 'ni2', pinyin: 'ni', tone: 3, tone_sandhi: 2 }]);
  assert.equal(ni.tone, 'tone3');
  assert.equal(ni.sandhiTone, 2);
  assert.deepEqual(hao.normalized_syllables, [{ syllables: 'hao3', pinyin: 'hao', tone: 3, tone_sandhi: 3 }]);
});

test('sandhi applies on top of refPinyin; an explicit yi2 in refPinyin is kept', () => {
  assert.equal(realised('一个', 'yi1 ge4'), 'yi2 ge4');
  assert.equal(realised('一个', 'yi2 ge4'), 'yi2 ge4');
  assert.equal(realised('你好', 'ni3 hao3'), 'ni2 hao3');
});
