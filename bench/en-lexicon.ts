/**
 * English text and lexicon speed: `npx tsx bench/en-lexicon.ts`.
 * Target: a 1,000-character passage analysed and looked up in under 20 ms after warm-up.
 * Also compares the two letter-to-sound back-ends (in-process WebAssembly vs the Debian
 * espeak-ng binary) per out-of-vocabulary word. Prints medians (the machine is shared and noisy)
 * and ends with one JSON line of the figures.
 */
import { performance } from 'node:perf_hooks';
import { analyzeEnglishText } from '../src/en/text/index.js';
import {
  createCliLetterToSound, createWasmLetterToSound, loadCmuDictionary, loadEnglishLexicon, lookupText,
  type LetterToSound,
} from '../src/en/lexicon/index.js';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

function time(fn: () => void): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

const SENTENCES = [
  "In 1990, Mr. Brown didn't expect the 22nd floor of the well-known tower to cost $2.50 a ticket.",
  'She asked whether the bath in the old castle could hold water for more than 10:30 minutes.',
  "We'll record the results, and then we'll compare them with last year's figures of 3.14 percent.",
  'Either way, the tomato soup was hot, but the children read their books by the fire.',
  'The blorptastic kouyu machine hummed quietly while the doctor examined the photographs.',
  'Could you pick it up at five o\'clock, or would you rather wait until the 1st of May?',
];

function passage(chars: number): string {
  let out = '';
  for (let i = 0; out.length + SENTENCES[i % SENTENCES.length].length + 1 <= chars; i++) {
    out += (out ? ' ' : '') + SENTENCES[i % SENTENCES.length];
  }
  return out;
}

async function main(): Promise<void> {
  const t0 = performance.now();
  await loadCmuDictionary();
  const dictLoadMs = performance.now() - t0;
  const t1 = performance.now();
  const wasm = await createWasmLetterToSound();
  const wasmLoadMs = performance.now() - t1;
  const lexicon = await loadEnglishLexicon(wasm);

  const text = passage(1000);
  const runs: Record<string, number[]> = { 'en-US': [], 'en-GB': [] };
  for (const dialect of ['en-US', 'en-GB'] as const) {
    for (let i = 0; i < 5; i++) lookupText(lexicon, analyzeEnglishText(text, { kind: 'passage' }), { dialect });
    for (let i = 0; i < 50; i++) {
      runs[dialect].push(time(() => lookupText(lexicon, analyzeEnglishText(text, { kind: 'passage' }), { dialect })));
    }
  }
  const fresh = await loadEnglishLexicon(wasm);
  const coldMs = time(() => lookupText(fresh, analyzeEnglishText(text, { kind: 'passage' }), { dialect: 'en-GB' }));

  const words = Array.from({ length: 20 }, (_, i) => `zorbl${String.fromCharCode(97 + i)}ify`);
  const perWord = (engine: LetterToSound) => median(words.map((w) => time(() => engine.ipa(w))));
  wasm.ipa('warmup');
  const wasmWordMs = perWord(wasm);
  const cliWordMs = perWord(createCliLetterToSound());

  const figures = {
    chars: text.length,
    words: analyzeEnglishText(text).words.length,
    passage_median_ms_en_us: +median(runs['en-US']).toFixed(3),
    passage_median_ms_en_gb: +median(runs['en-GB']).toFixed(3),
    passage_first_run_ms_en_gb: +coldMs.toFixed(2),
    dictionary_load_ms: +dictLoadMs.toFixed(1),
    wasm_g2p_load_ms: +wasmLoadMs.toFixed(1),
    g2p_wasm_median_ms_per_word: +wasmWordMs.toFixed(3),
    g2p_cli_median_ms_per_word: +cliWordMs.toFixed(3),
  };
  console.log(`1,000-character passage (${figures.chars} chars, ${figures.words} words), after warm-up, median of 50:`);
  console.log(`  en-US ${figures.passage_median_ms_en_us} ms, en-GB ${figures.passage_median_ms_en_gb} ms (target < 20 ms)`);
  console.log(`  first run on a fresh lexicon (en-GB, caches empty): ${figures.passage_first_run_ms_en_gb} ms`);
  console.log(`load: dictionary ${figures.dictionary_load_ms} ms, espeak-ng WebAssembly ${figures.wasm_g2p_load_ms} ms`);
  console.log(`letter-to-sound per word, median of ${words.length}: WebAssembly ${figures.g2p_wasm_median_ms_per_word} ms, espeak-ng binary ${figures.g2p_cli_median_ms_per_word} ms`);
  console.log(JSON.stringify(figures));
}

await main();
