/** Types for ekho-index.mjs (plain JavaScript so that it runs on node alone). */
export interface VoiceIndexEntry {
  /** Ekho symbol codes the clip speaks; one for a single syllable. */
  codes: number[];
  /** Byte offset of the clip (a whole WAV file) in pinyin.voice. */
  offset: number;
  /** Byte length of the clip. */
  bytes: number;
}

export interface VoiceIndex {
  /** Hz. */
  sampleRate: number;
  format: 'wav' | 'gsm';
  entries: VoiceIndexEntry[];
}

export interface SyllableRow {
  code: number;
  /** Pinyin with numeric tone, e.g. `ma3`; tone 5 is neutral, ü is written v. */
  pinyin: string;
  offset: number;
  bytes: number;
}

export function parseVoiceIndex(bytes: Uint8Array): VoiceIndex;
export function parseSymbolArray(source: string): string[];
export function wavLengthAt(voice: Uint8Array, offset: number): number;
export function syllableRows(index: VoiceIndex, symbols: string[], voice?: Uint8Array): SyllableRow[];
export function formatSyllablesTsv(rows: Array<Pick<SyllableRow, 'pinyin' | 'offset' | 'bytes'>>): string;
