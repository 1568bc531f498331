/**
 * English text and lexicon speed: `npx tsx bench/en-lexicon.ts`.
 * Target: a 1,000-character passage analysed and looked up in under 20 ms after warm-up.
 * Also compares the two letter-to-sound back-ends (in-process WebAssembly vs the Debian
 * espeak-ng binary) per out-of-vocabulary word, and how close letter-to-sound comes to the
 * dictionary on 1,000 dictionary words drawn with a fixed seed (phone error rate against the
 * nearest alternative, share of words exact, share with the same primary-stress syllable). Prints medians (the machine is shared and noisy)
 * and ends with one JSON line of the figures.
 */
import { performance } from 'node:perf_hooks';
import { analyzeEnglishText } from '../src/en/text/index.js';
import {
  CmuDictionary, createCliLetterToSound, ipaToArpabet, resolveFlaps, createWasmLetterToSound, loadCmuDictionary, loadEnglishLexicon, lookupText,
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

function editDistance(a: readonly string[], b: readonly string[]): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length];
}

/** Letter-to-sound against CMUdict on sampled dictionary words (a linear congruential draw). */
async function g2pAgreement(engine: LetterToSound, n: number): Promise<{ per: number; exact: number; stress: number }> {
  // Imported after the timed load in main(), so this costs nothing.
  const { dictionary } = await import('cmu-pronouncing-dictionary');
  const keys = Object.keys(dictionary).filter((k) => /^[a-z]+$/.test(k));
  const dict = new CmuDictionary(dictionary);
  let seed = 7;
  let edits = 0; let phones = 0; let exact = 0; let stress = 0;
  for (let i = 0; i < n; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const word = keys[Math.floor((seed / 2 ** 31) * keys.length)];
    const got = resolveFlaps(word, ipaToArpabet(engine.ipa(word))).pron;
    const refs = dict.lookup(word) ?? [];
    const scored = refs.map((r) => ({ r, d: editDistance(r.phones, got.phones) })).sort((x, y) => x.d - y.d)[0];
    edits += scored.d; phones += scored.r.phones.length;
    if (scored.d === 0) exact++;
    if (scored.r.stress.indexOf(1) === got.stress.indexOf(1)) stress++;
  }
  return { per: edits / phones, exact: exact / n, stress: stress / n };
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

  const agreement = await g2pAgreement(wasm, 1000);

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
    g2p_vs_cmudict_phone_error_rate: +agreement.per.toFixed(3),
    g2p_vs_cmudict_word_exact: +agreement.exact.toFixed(3),
    g2p_vs_cmudict_primary_stress_same: +agreement.stress.toFixed(3),
  };
  console.log(`1,000-character passage (${figures.chars} chars, ${figures.words} words), after warm-up, median of 50:`);
  console.log(`  en-US ${figures.passage_median_ms_en_us} ms, en-GB ${figures.passage_median_ms_en_gb} ms (target < 20 ms)`);
  console.log(`  first run on a fresh lexicon (en-GB, caches empty): ${figures.passage_first_run_ms_en_gb} ms`);
  console.log(`load: dictionary ${figures.dictionary_load_ms} ms, espeak-ng WebAssembly ${figures.wasm_g2p_load_ms} ms`);
  console.log(`letter-to-sound per word, median of ${words.length}: WebAssembly ${figures.g2p_wasm_median_ms_per_word} ms, espeak-ng binary ${figures.g2p_cli_median_ms_per_word} ms`);
  console.log(`letter-to-sound vs CMUdict on 1,000 dictionary words: phone error rate ${figures.g2p_vs_cmudict_phone_error_rate}, words exact ${figures.g2p_vs_cmudict_word_exact}, same primary stress ${figures.g2p_vs_cmudict_primary_stress_same}`);
  console.log(JSON.stringify(figures));
}

await main();
