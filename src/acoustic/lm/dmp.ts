/**
 * Lenient reader of the old Sphinx "DMP" binary trigram language model ("Darpa Trigram LM").
 *
 * Why: libpocketsphinx 0.8+5prealpha refuses the Mandarin `gigatdt.5000.DMP` with "some trigrams
 * have no corresponding bigram": the file's trigram table is longer than the ranges its bigrams
 * point into, so the strict loader cannot give every trigram a two-word history. This reader keeps
 * every trigram that a bigram claims and drops (and counts) the rest, so the model can be
 * re-emitted as ARPA text (see arpa.ts) which the library loads.
 *
 * Layout, as documented by the reader in sphinxbase (lm/ngram_model_dmp.c) and the header text
 * embedded in the files themselves; all integers little- or big-endian (detected from the first
 * word), probabilities and back-off weights are log10 floats:
 *   int32 len, "Darpa Trigram LM\0"; int32 len, original file name
 *   int32 version (<= 0), int32 timestamp, then length-prefixed description strings up to a 0
 *     (a positive first value instead means an old file without version: it is the unigram count)
 *   int32 nUnigram, int32 nBigram, int32 nTrigram
 *   (nUnigram + 1) × { int32 mapId, float32 prob, float32 backoff, int32 firstBigram } (last: sentinel)
 *   (nBigram + 1) × { uint16 wordId, uint16 probIdx, uint16 backoffIdx, uint16 firstTrigramOffset }
 *   nTrigram × { uint16 wordId, uint16 probIdx }
 *   int32 n, n × float32 bigram probs; int32 n, n × float32 bigram back-offs (trigram models only)
 *   int32 n, n × float32 trigram probs; int32 n, n × int32 segment bases (trigram models only):
 *     bigram b's first trigram = segBase[b >> 9] + firstTrigramOffset[b] (16-bit offsets, 512-bigram segments)
 *   int32 n, n bytes of NUL-terminated word strings (nUnigram of them)
 * Pure: bytes in, tables out; no I/O.
 */

/** log10 value used by ARPA files for "impossible" (unigrams absent from training text). */
export const LOG10_ZERO = -99;

const MAGIC = 'Darpa Trigram LM';
const BIGRAM_SEGMENT_SHIFT = 9;

export interface NgramModel {
  words: string[];
  /** Per unigram: log10 probability and back-off weight. */
  unigrams: { prob: Float64Array; backoff: Float64Array };
  /** Bigrams as parallel arrays: history word, word, log10 prob, log10 back-off. */
  bigrams: { w1: Uint32Array; w2: Uint32Array; prob: Float64Array; backoff: Float64Array };
  /** Trigrams as parallel arrays: w1 w2 w3 and log10 prob. */
  trigrams: { w1: Uint32Array; w2: Uint32Array; w3: Uint32Array; prob: Float64Array };
  /** Trigrams present in the file that no bigram claims (dropped). */
  droppedTrigrams: number;
}

export class DmpFormatError extends Error {}

class Cursor {
  pos = 0;
  constructor(private readonly view: DataView, private readonly little: boolean) {}
  need(bytes: number): void {
    if (this.pos + bytes > this.view.byteLength) {
      throw new DmpFormatError(`truncated DMP file: need ${bytes} bytes at offset ${this.pos}`);
    }
  }
  i32(): number {
    this.need(4);
    const v = this.view.getInt32(this.pos, this.little);
    this.pos += 4;
    return v;
  }
  f32(): number {
    this.need(4);
    const v = this.view.getFloat32(this.pos, this.little);
    this.pos += 4;
    return v;
  }
  u16(): number {
    this.need(2);
    const v = this.view.getUint16(this.pos, this.little);
    this.pos += 2;
    return v;
  }
  bytes(n: number): Uint8Array {
    this.need(n);
    const out = new Uint8Array(this.view.buffer, this.view.byteOffset + this.pos, n);
    this.pos += n;
    return out;
  }
  count(what: string, max = 1e8): number {
    const n = this.i32();
    if (n < 0 || n > max) throw new DmpFormatError(`implausible ${what} count ${n} at offset ${this.pos - 4}`);
    return n;
  }
}

function openCursor(data: Uint8Array): Cursor {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (data.byteLength < 4 + MAGIC.length + 1) throw new DmpFormatError('not a DMP file: too short');
  const little = view.getInt32(0, true) === MAGIC.length + 1;
  if (!little && view.getInt32(0, false) !== MAGIC.length + 1) throw new DmpFormatError('not a DMP file: bad header length');
  const cur = new Cursor(view, little);
  cur.i32();
  const magic = new TextDecoder().decode(cur.bytes(MAGIC.length + 1)).replace(/\0+$/, '');
  if (magic !== MAGIC) throw new DmpFormatError('not a DMP file: bad magic');
  return cur;
}

function readCounts(cur: Cursor): [number, number, number] {
  cur.bytes(cur.count('file name', 1 << 16));
  const version = cur.i32();
  let nUnigram = version;
  if (version <= 0) {
    cur.i32(); // timestamp, irrelevant
    for (let len = cur.count('description', 1 << 16); len !== 0; len = cur.count('description', 1 << 16)) cur.bytes(len);
    nUnigram = cur.count('unigram', 1 << 16);
  }
  return [nUnigram, cur.count('bigram'), cur.count('trigram')];
}

function readFloatTable(cur: Cursor, what: string): Float64Array {
  const n = cur.count(what, 1 << 16);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = cur.f32();
  return out;
}

function lookup(table: Float64Array, idx: number, what: string): number {
  if (idx >= table.length) throw new DmpFormatError(`${what} index ${idx} outside table of ${table.length}`);
  return table[idx];
}

/** Parses a DMP trigram (or bigram/unigram) model, dropping trigrams no bigram claims. */
export function readDmp(data: Uint8Array): NgramModel {
  const cur = openCursor(data);
  const [nU, nB, nT] = readCounts(cur);
  const uProb = new Float64Array(nU);
  const uBo = new Float64Array(nU);
  const firstBigram = new Int32Array(nU + 1);
  for (let i = 0; i <= nU; i++) {
    cur.i32(); // map id: unused
    const p = cur.f32();
    const b = cur.f32();
    firstBigram[i] = cur.i32();
    if (i < nU) { uProb[i] = p; uBo[i] = b; }
  }
  const bWord = new Uint32Array(nB), bProbIdx = new Uint16Array(nB), bBoIdx = new Uint16Array(nB);
  const tOffset = new Uint16Array(nB + 1);
  for (let j = 0; j <= nB; j++) {
    const w = cur.u16(), p = cur.u16(), b = cur.u16();
    tOffset[j] = cur.u16();
    if (j < nB) { bWord[j] = w; bProbIdx[j] = p; bBoIdx[j] = b; }
  }
  const tWord = new Uint32Array(nT), tProbIdx = new Uint16Array(nT);
  for (let k = 0; k < nT; k++) { tWord[k] = cur.u16(); tProbIdx[k] = cur.u16(); }
  const prob2 = readFloatTable(cur, 'bigram prob');
  const bo2 = nT > 0 ? readFloatTable(cur, 'bigram back-off') : new Float64Array(0);
  const prob3 = nT > 0 ? readFloatTable(cur, 'trigram prob') : new Float64Array(0);
  const segBase = nT > 0 ? Int32Array.from({ length: cur.count('segment', 1 << 20) }, () => cur.i32()) : new Int32Array(0);
  const words = readWords(cur, nU);

  const bigramHistory = bigramHistories(firstBigram, nU, nB);
  const bigrams = {
    w1: bigramHistory,
    w2: bWord,
    prob: Float64Array.from(bProbIdx, (i) => lookup(prob2, i, 'bigram prob')),
    backoff: nT > 0 ? Float64Array.from(bBoIdx, (i) => lookup(bo2, i, 'bigram back-off')) : new Float64Array(nB),
  };
  const trigrams = claimTrigrams(nB, nT, segBase, tOffset, bigramHistory, bWord, tWord, tProbIdx, prob3);
  checkWordIds(bWord, nU, 'bigram');
  return { words, unigrams: { prob: uProb, backoff: uBo }, bigrams, trigrams: trigrams.table, droppedTrigrams: trigrams.dropped };
}

function readWords(cur: Cursor, nU: number): string[] {
  const raw = cur.bytes(cur.count('word string bytes', 1 << 26));
  const words = new TextDecoder('utf-8').decode(raw).split('\0');
  if (words[words.length - 1] === '') words.pop();
  if (words.length !== nU) throw new DmpFormatError(`word list has ${words.length} entries, header says ${nU}`);
  return words;
}

/** Bigram j belongs to unigram u when firstBigram[u] <= j < firstBigram[u + 1]. */
function bigramHistories(firstBigram: Int32Array, nU: number, nB: number): Uint32Array {
  const out = new Uint32Array(nB);
  for (let u = 0; u < nU; u++) {
    const end = Math.min(firstBigram[u + 1], nB);
    for (let j = Math.max(firstBigram[u], 0); j < end; j++) out[j] = u;
  }
  return out;
}

function checkWordIds(ids: Uint32Array, nU: number, what: string): void {
  for (const id of ids) if (id >= nU) throw new DmpFormatError(`${what} word id ${id} >= ${nU} unigrams`);
}

/**
 * Absolute index of each bigram's first trigram. The standard rule is segBase[b >> 9] + offset[b].
 * In gigatdt.5000.DMP the segment-base table is almost all zeros: the writer stored absolute
 * indices truncated to 16 bits, set a base only in a few segments, and the bigrams at the start of
 * the following segment (those without trigrams) still count from that base. So: take the
 * standard value when it does not go backwards; otherwise the smallest value at or after the
 * previous bigram's that is congruent mod 2^16 to either the standard value or the latest
 * non-zero base plus the offset. On a well-formed file this is exactly the standard rule.
 */
function trigramStarts(nB: number, segBase: Int32Array, tOffset: Uint16Array): Float64Array {
  const first = new Float64Array(nB + 1);
  let at = 0;
  let lastBase = 0;
  for (let b = 0; b <= nB; b++) {
    const base = segBase[b >> BIGRAM_SEGMENT_SHIFT] ?? 0;
    const standard = base + tOffset[b];
    if (standard >= at) {
      at = standard;
    } else {
      at = Math.min(...[standard, lastBase + tOffset[b]].map((c) => c + Math.ceil((at - c) / 65536) * 65536));
    }
    first[b] = at;
    if (base !== 0) lastBase = base;
  }
  return first;
}

/** Word ids of one history's trigrams are written in increasing order; a run that is not is unreliable. */
function ascending(ids: Uint32Array, start: number, end: number): boolean {
  for (let k = start + 1; k < end; k++) if (ids[k] <= ids[k - 1]) return false;
  return true;
}

/**
 * Gives each trigram its history from the bigram whose range contains it. Trigrams outside every
 * range, or in a range whose words are not in increasing order, are dropped (counted).
 */
function claimTrigrams(
  nB: number, nT: number, segBase: Int32Array, tOffset: Uint16Array, bW1: Uint32Array, bW2: Uint32Array,
  tWord: Uint32Array, tProbIdx: Uint16Array, prob3: Float64Array,
) {
  const keep: number[] = [];
  const hist: number[] = [];
  const first = nT > 0 ? trigramStarts(nB, segBase, tOffset) : new Float64Array(nB + 1);
  for (let b = 0; b < nB && nT > 0; b++) {
    const start = first[b];
    const end = Math.min(first[b + 1], nT);
    if (end <= start || !ascending(tWord, start, end)) continue;
    for (let k = start; k < end; k++) { keep.push(k); hist.push(b); }
  }
  const n = keep.length;
  const table = { w1: new Uint32Array(n), w2: new Uint32Array(n), w3: new Uint32Array(n), prob: new Float64Array(n) };
  for (let i = 0; i < n; i++) {
    const k = keep[i], b = hist[i];
    table.w1[i] = bW1[b];
    table.w2[i] = bW2[b];
    table.w3[i] = tWord[k];
    table.prob[i] = lookup(prob3, tProbIdx[k], 'trigram prob');
  }
  return { table, dropped: nT - n };
}
