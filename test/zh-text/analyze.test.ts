/** The entry point: tokens, word_parts indices, readable characters, coverage of real transcripts. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { analyzeMandarinText } from '../../src/zh/text/analyze.js';
import { isMandarinChar } from '../../src/zh/text/types.js';
import { SHARED_DATA_DIR } from '../helpers/app.js';

test('tokens cover the text in order; word_parts point into the original reference text', () => {
  const ref = '我有2个LOGO，占3.5%。';
  const t = analyzeMandarinText(ref);
  assert.deepEqual(t.tokens.map((k) => `${k.text}:${k.charType}`), ['我:0', '有:0', '两:0', '个:0', 'LOGO:2', '，:1', '占:0', '百:0', '分:0', '之:0', '三:0', '点:0', '五:0', '。:1']);
  const cps = Array.from(ref);
  for (const k of t.tokens) {
    for (const p of k.word_parts) assert.equal(cps.slice(p.beginIndex, p.endIndex).join(''), p.part);
  }
  assert.deepEqual(t.tokens[2].word_parts, [{ part: '2', charType: 0, beginIndex: 2, endIndex: 3 }]);
  assert.deepEqual(t.tokens[4].word_parts, [{ part: 'LOGO', charType: 2, beginIndex: 4, endIndex: 8 }]);
  assert.equal(t.chars.length, 11);
  assert.deepEqual(t.chars.map((c) => c.charIndex), [...Array(11).keys()]);
  assert.ok(!isMandarinChar(t.tokens[4]) && isMandarinChar(t.tokens[0]));
});

test('every AISHELL S0150 transcript analyses: Latin words are charType 2, all Chinese characters get a reading', () => {
  const file = path.join(SHARED_DATA_DIR, 'zh', 'aishell-s0150', 'transcripts.tsv');
  const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
  assert.ok(lines.length >= 500);
  let chars = 0;
  for (const line of lines) {
    const text = line.split('\t')[1] ?? '';
    if (!/\p{Script=Han}/u.test(text)) continue;
    const t = analyzeMandarinText(text);
    for (const c of t.chars) {
      assert.match(c.rawpinyin, /^[a-z]+[1-5]$/, `${line}: ${c.text}`);
      assert.ok(c.phones.length >= 1);
    }
    const hanCount = Array.from(text).filter((ch) => /\p{Script=Han}/u.test(ch)).length;
    assert.ok(t.chars.length >= hanCount, `${line}: ${t.chars.length} readable of ${hanCount} Chinese characters`);
    chars += t.chars.length;
  }
  assert.ok(chars > 5000, `${chars} characters`);
});
