/**
 * Letter-to-sound fallback for words the dictionary lacks, through espeak-ng's phonemizer
 * (its en-US rules and exception lists), mapped onto the model's phones by ipa.ts.
 *
 * Two back-ends with the same output: the in-process WebAssembly build
 * (`@echogarden/espeak-ng-emscripten`; about 0.1-0.2 s to load once, then well under 1 ms per
 * word) and the Debian `espeak-ng -q -x --ipa` binary (a process per word, several ms each),
 * kept as the fallback when the WebAssembly module cannot load. bench/en-lexicon.ts measures
 * both. Results are cached per word.
 */
import { execFileSync } from 'node:child_process';
import { ipaToArpabet, type IpaConversion } from './ipa.js';
import { alignPhonics } from './phonics.js';

export interface LetterToSound {
  readonly backend: 'wasm' | 'cli';
  /** IPA of one word, stress marks included, as espeak-ng writes it for en-US. */
  ipa(word: string): string;
}

interface EspeakWorker {
  set_voice(name: string): number;
  convert_to_phonemes(text: string, useIpa: boolean): { ptr: number };
}
interface EspeakModule {
  eSpeakNGWorker: new () => EspeakWorker;
  HEAPU8: Uint8Array;
}

const decoder = new TextDecoder();

/** Reads the NUL-terminated UTF-8 string the phonemizer returns in WebAssembly memory. */
function readCString(heap: Uint8Array, ptr: number): string {
  let end = ptr;
  while (heap[end] !== 0) end++;
  return decoder.decode(heap.subarray(ptr, end));
}

export async function createWasmLetterToSound(): Promise<LetterToSound> {
  const mod = (await import('@echogarden/espeak-ng-emscripten')) as unknown as {
    default: () => Promise<EspeakModule>;
  };
  const m = await mod.default();
  const worker = new m.eSpeakNGWorker();
  worker.set_voice('en-us');
  return {
    backend: 'wasm',
    // The heap may grow between calls, so it is read from the module each time.
    ipa: (word) => readCString(m.HEAPU8, worker.convert_to_phonemes(word, true).ptr).trim(),
  };
}

export function createCliLetterToSound(binary = 'espeak-ng'): LetterToSound {
  return {
    backend: 'cli',
    ipa: (word) =>
      execFileSync(binary, ['-q', '-x', '--ipa', '-v', 'en-us', '--', word], {
        encoding: 'utf8',
        timeout: 5000,
      }).trim(),
  };
}

/** Prefers the in-process phonemizer; falls back to the Debian binary if it cannot load. */
export async function createLetterToSound(): Promise<LetterToSound> {
  try {
    return await createWasmLetterToSound();
  } catch {
    return createCliLetterToSound();
  }
}

/** Caches conversions; a word the phonemizer cannot voice at all is an error, never dropped. */
export class CachedLetterToSound {
  private readonly cache = new Map<string, IpaConversion>();

  constructor(readonly engine: LetterToSound) {}

  convert(word: string): IpaConversion {
    const hit = this.cache.get(word);
    if (hit) return hit;
    const conv = resolveFlaps(word, ipaToArpabet(this.engine.ipa(word)));
    if (conv.pron.phones.length === 0) {
      throw new Error(`letter-to-sound produced no phones for "${word}"`);
    }
    this.cache.set(word, conv);
    return conv;
  }
}

/**
 * espeak-ng writes the American flap for both t and d ("ladder", "latter"); the model has
 * separate T and D, so a flap whose letters (found by the phonics aligner) are d or dd becomes D.
 */
export function resolveFlaps(word: string, conv: IpaConversion): IpaConversion {
  if (conv.flaps.length === 0) return conv;
  const phones = [...conv.pron.phones];
  for (const block of alignPhonics(word, phones)) {
    for (const f of conv.flaps) {
      const inBlock = f >= block.phoneStart && f < block.phoneStart + block.phones.length;
      if (inBlock && /^d+$/i.test(block.spell)) phones[f] = 'D';
    }
  }
  return { ...conv, pron: { ...conv.pron, phones } };
}
