#!/usr/bin/env node
// @ts-check
/**
 * Derives syllables.tsv (pinyin with numeric tone, byte offset, byte length of each clip in
 * pinyin.voice) from Ekho's binary pinyin.index and the symbol table in Ekho's source.
 *
 * Plain JavaScript on purpose: scripts/fetch-models.sh must run with nothing but curl,
 * sha256sum and node (no TypeScript runner). Types for TypeScript callers are in
 * ekho-index.d.mts.
 *
 * pinyin.index layout (worked out from how Ekho writes and reads its voice index; all integers
 * little-endian):
 *   header   u16 sample rate (Hz), u8 clip format (1 = WAV PCM, 2 = GSM 6.10 in WAV),
 *            u16 reserved (zero)
 *   entries  u8 n (number of symbols the clip speaks; 1 for a single syllable),
 *            n × u16 symbol code, u32 byte offset into pinyin.voice, u24 byte length
 * A symbol code is an index into Ekho's symbol array: the generated source file
 * src/symbol_array.cpp lists `PhoneticSymbol("…")` entries in code order (Cantonese
 * Jyutping first, then Mandarin pinyin with tones 1–6, where 5 is the neutral tone).
 *
 * Usage: node tools/ekho-index.mjs --index pinyin.index --symbols symbol_array.cpp
 *          [--voice pinyin.voice] [--out syllables.tsv]
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HEADER_BYTES = 5;
const FORMATS = { 1: 'wav', 2: 'gsm' };

/**
 * Reads pinyin.index. Throws on a truncated or malformed file rather than guessing.
 * @param {Uint8Array} bytes
 */
export function parseVoiceIndex(bytes) {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < HEADER_BYTES) throw new Error('pinyin.index: shorter than its 5-byte header');
  const sampleRate = buf.readUInt16LE(0);
  const formatCode = buf[2];
  const format = FORMATS[/** @type {1 | 2} */ (formatCode)];
  if (!format) throw new Error(`pinyin.index: unknown clip format ${formatCode} (expected 1 or 2)`);
  /** @type {{ codes: number[]; offset: number; bytes: number }[]} */
  const entries = [];
  let p = HEADER_BYTES;
  while (p < buf.length) {
    const n = buf[p];
    const size = 1 + 2 * n + 4 + 3;
    if (n === 0 || p + size > buf.length) throw new Error(`pinyin.index: malformed entry at byte ${p}`);
    const codes = [];
    for (let i = 0; i < n; i++) codes.push(buf.readUInt16LE(p + 1 + 2 * i));
    const q = p + 1 + 2 * n;
    entries.push({ codes, offset: buf.readUInt32LE(q), bytes: buf.readUIntLE(q + 4, 3) });
    p += size;
  }
  return { sampleRate, format, entries };
}

/**
 * Reads the symbol array from Ekho's generated src/symbol_array.cpp: the i-th
 * `PhoneticSymbol("…")` after the array's opening brace has code i.
 * @param {string} source
 * @returns {string[]}
 */
export function parseSymbolArray(source) {
  const start = source.indexOf('mSymbolArray');
  const brace = start < 0 ? -1 : source.indexOf('{', start);
  if (brace < 0) throw new Error('symbol table: no mSymbolArray initialiser found');
  const symbols = [];
  for (const m of source.slice(brace).matchAll(/PhoneticSymbol\("([^"]*)"\)/g)) symbols.push(m[1]);
  if (symbols.length === 0) throw new Error('symbol table: mSymbolArray has no entries');
  return symbols;
}

/**
 * Length in bytes of the RIFF/WAVE file starting at `offset`, or -1 when none starts there.
 * (RIFF chunk size counts everything after its 8-byte chunk header.)
 * @param {Uint8Array} voice
 * @param {number} offset
 */
export function wavLengthAt(voice, offset) {
  const buf = Buffer.from(voice.buffer, voice.byteOffset, voice.byteLength);
  if (offset + 12 > buf.length) return -1;
  if (buf.toString('latin1', offset, offset + 4) !== 'RIFF') return -1;
  if (buf.toString('latin1', offset + 8, offset + 12) !== 'WAVE') return -1;
  return buf.readUInt32LE(offset + 4) + 8;
}

/**
 * One row per single-syllable clip, in symbol-code order (alphabetical pinyin, tones in
 * order). Clips that speak several syllables (n > 1, or one symbol naming a word) are left out.
 * @param {ReturnType<typeof parseVoiceIndex>} index
 * @param {string[]} symbols
 * @param {Uint8Array} [voice] when given, each clip must be a whole WAV file at its offset
 */
export function syllableRows(index, symbols, voice) {
  const rows = [];
  for (const e of index.entries) {
    if (e.codes.length !== 1) continue;
    const code = e.codes[0];
    const pinyin = symbols[code];
    // A few symbols name a whole word (shen2me5): not a syllable clip, so not a row.
    if (pinyin && /^(?:[a-z]+[1-6]){2,}$/.test(pinyin)) continue;
    if (!pinyin || !/^[a-z]+[1-6]$/.test(pinyin)) {
      throw new Error(`symbol code ${code} is ${pinyin ? `"${pinyin}"` : 'missing'} in the symbol table, not toned pinyin`);
    }
    if (voice) {
      const len = wavLengthAt(voice, e.offset);
      if (len !== e.bytes) throw new Error(`clip ${pinyin} at byte ${e.offset}: index says ${e.bytes} bytes, voice file holds ${len < 0 ? 'no WAV' : `${len} bytes`}`);
    }
    rows.push({ code, pinyin, offset: e.offset, bytes: e.bytes });
  }
  rows.sort((a, b) => a.code - b.code);
  for (let i = 1; i < rows.length; i++) {
    if (rows[i].code === rows[i - 1].code) throw new Error(`symbol ${rows[i].pinyin} has two clips`);
  }
  return rows;
}

/**
 * The syllables.tsv text: a header line, then `pinyin<TAB>offset<TAB>bytes`, LF line ends.
 * @param {{ pinyin: string; offset: number; bytes: number }[]} rows
 */
export function formatSyllablesTsv(rows) {
  return ['pinyin\toffset\tbytes', ...rows.map((r) => `${r.pinyin}\t${r.offset}\t${r.bytes}`)].join('\n') + '\n';
}

/** @param {string[]} argv */
function parseArgs(argv) {
  /** @type {Record<string, string>} */
  const opts = {};
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i];
    const value = argv[i + 1];
    if (!['--index', '--symbols', '--voice', '--out'].includes(key) || value === undefined) {
      throw new Error(`usage: ekho-index.mjs --index FILE --symbols FILE [--voice FILE] [--out FILE] (bad argument ${key})`);
    }
    opts[key.slice(2)] = value;
  }
  if (!opts.index || !opts.symbols) throw new Error('ekho-index.mjs: --index and --symbols are required');
  return opts;
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const index = parseVoiceIndex(fs.readFileSync(opts.index));
  const symbols = parseSymbolArray(fs.readFileSync(opts.symbols, 'utf8'));
  const voice = opts.voice ? fs.readFileSync(opts.voice) : undefined;
  const text = formatSyllablesTsv(syllableRows(index, symbols, voice));
  if (!opts.out) {
    process.stdout.write(text);
    return;
  }
  // Written beside the target and renamed, so a failed run never leaves half a file.
  const tmp = path.join(path.dirname(opts.out), `.${path.basename(opts.out)}.part`);
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, opts.out);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
