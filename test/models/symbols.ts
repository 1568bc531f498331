/**
 * Test fixtures for the model fetcher, generated at run time from the shared models folder.
 *
 * Ekho's symbol table (src/symbol_array.cpp) is only upstream and is never kept in this
 * repository, so the offline tests write a stand-in in the same format: each code found in
 * pinyin.index gets the pinyin that the shared syllables.tsv gives the clip at the same byte
 * offset, and every other code a placeholder. What that proves (and what it cannot) is
 * described in docs/models.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseVoiceIndex } from '../../tools/ekho-index.mjs';
import { SHARED_DIR } from '../helpers/app.js';

export const SHARED_MODELS_DIR = path.join(SHARED_DIR, 'models');
export const SHARED_EKHO_DIR = path.join(SHARED_MODELS_DIR, 'ekho-mandarin');

export interface TsvRow {
  pinyin: string;
  offset: number;
  bytes: number;
}

export function readSharedSyllables(): TsvRow[] {
  const lines = fs.readFileSync(path.join(SHARED_EKHO_DIR, 'syllables.tsv'), 'utf8').trimEnd().split('\n');
  return lines.slice(1).map((line) => {
    const [pinyin, offset, bytes] = line.split('\t');
    return { pinyin, offset: Number(offset), bytes: Number(bytes) };
  });
}

/** Writes a symbol table in the format of Ekho's src/symbol_array.cpp; `rename` may alter names. */
export function writeStandInSymbolTable(file: string, rename: (name: string) => string = (n) => n): void {
  const index = parseVoiceIndex(fs.readFileSync(path.join(SHARED_EKHO_DIR, 'pinyin.index')));
  const byOffset = new Map(readSharedSyllables().map((r) => [r.offset, r.pinyin]));
  const maxCode = Math.max(...index.entries.flatMap((e) => e.codes));
  const names = Array.from({ length: maxCode + 1 }, (_, i) => `unused${i}x`);
  for (const e of index.entries) {
    const pinyin = byOffset.get(e.offset);
    if (pinyin === undefined) throw new Error(`no shared row at offset ${e.offset}`);
    names[e.codes[0]] = rename(pinyin);
  }
  const body = names.map((n) => `PhoneticSymbol("${n}")`).join(', ');
  fs.writeFileSync(file, `// stand-in\nPhoneticSymbol Dict::mSymbolArray[8000] = {\n${body}\n};\n`);
}
