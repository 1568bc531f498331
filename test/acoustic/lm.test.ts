import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { readDmp, DmpFormatError } from '../../src/acoustic/lm/dmp.js';
import { renderArpa } from '../../src/acoustic/lm/arpa.js';
import { ensureArpaFromDmp } from '../../src/acoustic/lm/cache.js';
import { resolveModels } from '../../src/models.js';
import { SphinxDecoder } from '../../src/acoustic/sphinx/decoder.js';
import { REPO_ROOT, tempDir } from '../helpers/app.js';

const zh = resolveModels(path.join(REPO_ROOT, 'models')).zh;

/**
 * Writes a small well-formed DMP (little-endian, versioned header) from explicit tables, so the
 * reader is checked against values chosen here rather than against its own output.
 */
function buildDmp(): Uint8Array {
  const words = ['</s>', '<s>', 'a', 'b'];
  const chunks: Buffer[] = [];
  const i32 = (...v: number[]) => { const b = Buffer.alloc(4 * v.length); v.forEach((x, k) => b.writeInt32LE(x, 4 * k)); chunks.push(b); };
  const f32 = (...v: number[]) => { const b = Buffer.alloc(4 * v.length); v.forEach((x, k) => b.writeFloatLE(x, 4 * k)); chunks.push(b); };
  const u16 = (...v: number[]) => { const b = Buffer.alloc(2 * v.length); v.forEach((x, k) => b.writeUInt16LE(x, 2 * k)); chunks.push(b); };
  const str = (s: string) => { i32(s.length + 1); chunks.push(Buffer.from(s + '\0', 'latin1')); };
  str('Darpa Trigram LM');
  str('test.lm');
  i32(-1, 0); // version, timestamp
  str('a description');
  i32(0);
  i32(4, 3, 2); // unigrams, bigrams, trigrams
  // unigrams: map id, prob, backoff, first bigram; then the sentinel
  const ug: [number, number, number][] = [[-1.0, -99, 0], [-99, -0.5, 0], [-0.7, -0.3, 2], [-0.4, -0.2, 3]];
  ug.forEach(([p, b, f]) => { i32(0); f32(p, b); i32(f); });
  i32(0); f32(0, 0); i32(3);
  // bigrams: <s> a, <s> b (history <s>), a b (history a); then the sentinel. Fields: wid, prob idx, bo idx, first tg.
  u16(2, 1, 1, 0); u16(3, 2, 0, 1); u16(3, 1, 0, 1); u16(0, 0, 0, 2);
  // trigrams: "<s> a </s>" (prob idx 1) owned by bigram 0, "a b b" (prob idx 0) owned by bigram 2
  u16(0, 1); u16(3, 0);
  i32(3); f32(0, -0.25, -0.6); // bigram probs
  i32(2); f32(0, -0.1); // bigram back-offs
  i32(2); f32(-0.05, -0.8); // trigram probs
  i32(1, 0); // one segment, base 0
  const ws = Buffer.from(words.join('\0') + '\0', 'utf8');
  i32(ws.length);
  chunks.push(ws);
  return new Uint8Array(Buffer.concat(chunks));
}

test('reads a well-formed DMP exactly (float32 values within 1e-6)', () => {
  const m = readDmp(buildDmp());
  assert.deepEqual(m.words, ['</s>', '<s>', 'a', 'b']);
  assert.ok(Math.abs(m.unigrams.prob[2] + 0.7) < 1e-6);
  assert.ok(Math.abs(m.unigrams.backoff[1] + 0.5) < 1e-6);
  assert.deepEqual([...m.bigrams.w1], [1, 1, 2]);
  assert.deepEqual([...m.bigrams.w2], [2, 3, 3]);
  assert.ok(Math.abs(m.bigrams.prob[1] + 0.6) < 1e-6);
  assert.ok(Math.abs(m.bigrams.backoff[0] + 0.1) < 1e-6);
  // Bigram 0 ("<s> a") owns trigram [0, 1), bigram 1 none, bigram 2 ("a b") owns [1, 2).
  assert.deepEqual([...m.trigrams.w1], [1, 2]);
  assert.deepEqual([...m.trigrams.w2], [2, 3]);
  assert.deepEqual([...m.trigrams.w3], [0, 3]);
  assert.ok(Math.abs(m.trigrams.prob[0] + 0.8) < 1e-6);
  assert.equal(m.droppedTrigrams, 0);
  const arpa = renderArpa(m);
  assert.match(arpa, /^\\data\\\nngram 1=4\nngram 2=3\nngram 3=2\n/);
  assert.match(arpa, /\n-0\.600000 <s> b 0\.000000\n/);
  assert.match(arpa, /\n-0\.800000 <s> a <\/s>\n-0\.050000 a b b\n/);
});

test('refuses what is not a DMP file and truncated files, with DmpFormatError', () => {
  assert.throws(() => readDmp(new TextEncoder().encode('\\data\\\nngram 1=2\n')), DmpFormatError);
  const full = buildDmp();
  assert.throws(() => readDmp(full.subarray(0, full.length - 9)), DmpFormatError);
  assert.throws(() => readDmp(new Uint8Array(0)), DmpFormatError);
});

test('repairs gigatdt.5000.DMP: all unigrams and bigrams, under 0.1% of trigrams dropped, histories consistent', () => {
  const m = readDmp(fs.readFileSync(zh.lmDmp));
  assert.equal(m.words.length, 5000);
  assert.equal(m.bigrams.w1.length, 394315);
  const total = m.trigrams.w1.length + m.droppedTrigrams;
  assert.equal(total, 127333);
  assert.ok(m.droppedTrigrams < total * 0.001, `dropped ${m.droppedTrigrams}`);
  const bigramKeys = new Set<number>();
  for (let i = 0; i < m.bigrams.w1.length; i++) bigramKeys.add(m.bigrams.w1[i] * 5000 + m.bigrams.w2[i]);
  for (let i = 0; i < m.trigrams.w1.length; i++) {
    assert.ok(bigramKeys.has(m.trigrams.w1[i] * 5000 + m.trigrams.w2[i]), `trigram ${i} has no bigram history`);
    assert.ok(m.trigrams.prob[i] <= 0 && m.trigrams.prob[i] > -20);
  }
});

test('converts once into the cache folder, reuses it, and libpocketsphinx loads the result', () => {
  const cache = tempDir('kouyu-lm-');
  const before = fs.statSync(zh.lmDmp).mtimeMs;
  const first = ensureArpaFromDmp(zh.lmDmp, cache);
  assert.equal(first.converted, true);
  assert.ok(first.path.startsWith(cache));
  const second = ensureArpaFromDmp(zh.lmDmp, cache);
  assert.equal(second.converted, false);
  assert.equal(second.path, first.path);
  assert.equal(fs.statSync(zh.lmDmp).mtimeMs, before);
  assert.deepEqual(fs.readdirSync(path.dirname(first.path)), [path.basename(first.path)]);
  const decoder = SphinxDecoder.create({ hmm: zh.acoustic, dict: zh.dict });
  try {
    assert.doesNotThrow(() => decoder.setLmFile('lm', first.path));
  } finally {
    decoder.free();
    fs.rmSync(cache, { recursive: true, force: true });
  }
});
