import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  formatSyllablesTsv,
  parseSymbolArray,
  parseVoiceIndex,
  syllableRows,
  wavLengthAt,
} from '../../tools/ekho-index.mjs';
import { tempDir } from '../helpers/app.js';
import { SHARED_EKHO_DIR, readSharedSyllables, writeStandInSymbolTable } from './symbols.js';

const indexBytes = fs.readFileSync(path.join(SHARED_EKHO_DIR, 'pinyin.index'));
const voice = fs.readFileSync(path.join(SHARED_EKHO_DIR, 'pinyin.voice'));

test('pinyin.index: 16 kHz GSM clips, one entry per syllable, unique codes', () => {
  const index = parseVoiceIndex(indexBytes);
  assert.equal(index.sampleRate, 16000);
  assert.equal(index.format, 'gsm');
  assert.equal(index.entries.length, 1639);
  assert.ok(index.entries.every((e) => e.codes.length === 1));
  assert.equal(new Set(index.entries.map((e) => e.codes[0])).size, 1639);
});

test('offsets and lengths from the index match the WAV files found in pinyin.voice', () => {
  const clips = parseVoiceIndex(indexBytes).entries.slice().sort((a, b) => a.offset - b.offset);
  let end = 0;
  for (const c of clips) {
    assert.equal(c.offset, end, 'clips tile the voice file with no gap or overlap');
    assert.equal(wavLengthAt(voice, c.offset), c.bytes, `RIFF size at byte ${c.offset}`);
    end = c.offset + c.bytes;
  }
  assert.equal(end, voice.length);
});

test('Mandarin codes rise along the shared table, tones of a syllable side by side', () => {
  // Independent of any symbol table: joins the shared rows to index codes by byte offset. The
  // derivation orders rows by code, so codes must rise along the table; Ekho gives each
  // syllable six consecutive codes (tones 1 to 5 and a sixth), tone t at base + t − 1. A few
  // extra symbols sit inside that run (a whole word such as shen2me5 between shen1 and shen2),
  // so a syllable's tones may spread over one more code, and only for a handful of syllables.
  const codeAt = new Map(parseVoiceIndex(indexBytes).entries.map((e) => [e.offset, e.codes[0]]));
  const bases = new Map<string, Set<number>>();
  let previous = -1;
  for (const r of readSharedSyllables()) {
    const code = codeAt.get(r.offset)!;
    assert.ok(code > previous, `${r.pinyin}: code ${code} after ${previous}`);
    previous = code;
    const syllable = r.pinyin.slice(0, -1);
    const set = bases.get(syllable) ?? new Set<number>();
    set.add(code - (Number(r.pinyin.slice(-1)) - 1));
    bases.set(syllable, set);
  }
  const spread = [...bases].filter(([, set]) => set.size > 1);
  for (const [syllable, set] of spread) {
    assert.ok(Math.max(...set) - Math.min(...set) <= 1, `${syllable}: tones spread over ${[...set].join(', ')}`);
  }
  assert.equal(bases.size, 407);
  assert.ok(spread.length <= 3, `syllables with an inserted symbol: ${spread.map(([s]) => s).join(', ')}`);
});

test('derivation reproduces the shared syllables.tsv byte for byte (stand-in symbol table)', (t) => {
  const dir = tempDir('kouyu-ekho-');
  const table = path.join(dir, 'symbol_array.cpp');
  writeStandInSymbolTable(table);
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const rows = syllableRows(parseVoiceIndex(indexBytes), parseSymbolArray(fs.readFileSync(table, 'utf8')), voice);
  const expected = fs.readFileSync(path.join(SHARED_EKHO_DIR, 'syllables.tsv'), 'utf8');
  assert.equal(formatSyllablesTsv(rows), expected);
});

test('malformed inputs are refused with a message', () => {
  assert.throws(() => parseVoiceIndex(indexBytes.subarray(0, indexBytes.length - 3)), /malformed entry/);
  assert.throws(() => parseVoiceIndex(Uint8Array.from([0x80, 0x3e, 7, 0, 0])), /unknown clip format 7/);
  assert.throws(() => parseSymbolArray('int x = 1;'), /no mSymbolArray/);
  const index = parseVoiceIndex(indexBytes);
  assert.throws(() => syllableRows(index, ['a1']), /not toned pinyin/);
  const shifted = { ...index, entries: index.entries.map((e) => ({ ...e, bytes: e.bytes + 1 })) };
  const names = Array.from({ length: 8000 }, () => 'ma1');
  assert.throws(() => syllableRows(shifted, names, voice), /index says \d+ bytes, voice file holds \d+ bytes/);
});
