/** Sentences and clauses with their token ranges, original offsets and expected pauses. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeMandarinText } from '../../src/zh/text/analyze.js';

test('clauses end at ，、： and sentences at 。！？；…, each with offsets into the original text', () => {
  const t = analyzeMandarinText('春天来了，花开了、草绿了。你看：多美！');
  assert.deepEqual(t.clauses.map((c) => [c.text, c.beginIndex, c.endIndex, c.pauseAfter, c.readableCount]), [
    ['春天来了，', 0, 5, 'clause', 4],
    ['花开了、', 5, 9, 'clause', 3],
    ['草绿了。', 9, 13, 'sentence', 3],
    ['你看：', 13, 16, 'clause', 2],
    ['多美！', 16, 19, 'end', 2],
  ]);
  assert.deepEqual(t.sentences.map((s) => [s.text, s.clauseStart, s.clauseEnd]), [
    ['春天来了，花开了、草绿了。', 0, 3],
    ['你看：多美！', 3, 5],
  ]);
  // Every character knows its clause and sentence.
  assert.deepEqual(t.chars.map((c) => c.sentence).join(''), '0000000000111111'.slice(0, t.chars.length));
  assert.equal(t.chars.find((c) => c.text === '花')!.clause, 1);
  assert.equal(t.rhythmRated, true);
  assert.equal(analyzeMandarinText('你好，再见。').rhythmRated, false, 'two clauses: no rhythm score');
});

test('closing quotes stay with their sentence; runs of marks and text without final punctuation', () => {
  const t = analyzeMandarinText('他说：“好。”然后走了……真的吗？！');
  assert.deepEqual(t.sentences.map((s) => s.text), ['他说：“好。”', '然后走了……', '真的吗？！']);
  assert.deepEqual(t.clauses.map((c) => c.text), ['他说：', '“好。”', '然后走了……', '真的吗？！']);
  const open = analyzeMandarinText('，，你好');
  assert.deepEqual(open.clauses.map((c) => [c.text, c.pauseAfter]), [['，，你好', 'end']]);
});

test('ASCII punctuation and line breaks: a line break ends a clause, a blank line a sentence', () => {
  const t = analyzeMandarinText('你好,世界!再见');
  assert.deepEqual(t.clauses.map((c) => c.text), ['你好,', '世界!', '再见']);
  assert.equal(t.sentences.length, 2);
  const lines = analyzeMandarinText('第一行\n第二行\n\n第三行');
  assert.deepEqual(lines.clauses.map((c) => [c.text, c.pauseAfter]), [['第一行', 'clause'], ['第二行', 'sentence'], ['第三行', 'end']]);
  assert.equal(lines.sentences.length, 2);
});
