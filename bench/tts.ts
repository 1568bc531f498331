/**
 * Synthesis time per engine for 20, 200 and 1,000 characters (target: ≤ 100 ms for 200).
 * Each case runs once to warm up (loads engines, decodes the Ekho clips it needs, lets the
 * WebAssembly JIT tier up), then `RUNS` times; the table shows medians, in milliseconds, of
 * rendering plus WAV encoding in the calling thread. Machine noise is large on shared cores:
 * compare medians, not single runs.
 *
 *   npm run bench:tts                  # table and one JSON line
 *   npm run bench:tts -- --calibrate   # re-measure eSpeak's F0 table (espeak/calibration.ts)
 */
import path from 'node:path';
import { resolveModels } from '../src/models.js';
import { EkhoStore } from '../src/synthesis/ekho/store.js';
import { trackPitch } from '../src/dsp/pitch.js';
import { ESPEAK_VARIANTS, loadEspeak, type EspeakBackend, type EspeakVoice } from '../src/synthesis/espeak/engine.js';
import { CALIBRATION_PITCHES } from '../src/synthesis/espeak/calibration.js';
import { synthesizeWith, type Engines, type SynthesisOverrides } from '../src/synthesis/synthesize.js';
import type { SynthesisLanguage } from '../src/synthesis/types.js';

const RUNS = Number(process.argv.find((a) => a.startsWith('--runs='))?.slice(7) ?? 5);
const SIZES = [20, 200, 1000];

const ZH =
  '春天来了，公园里的花都开了，红的像火，粉的像霞，白的像雪。小朋友们在草地上放风筝，老人们坐在长椅上聊天。' +
  '我们学校每年都组织学生去郊外参观学习，大家一边走一边观察植物和昆虫，回来以后还要写一篇观察日记。' +
  '银行门口排着长长的队伍，工作人员耐心地回答每一位顾客的问题。孩子慢慢长大了，父母也渐渐老了。';
const EN =
  'The library opens at nine in the morning and closes at six in the evening. Students often gather near the windows, ' +
  'where the light is best for reading. On weekends the reading room is quieter, and the staff rearrange the shelves. ';

/** The first `n` characters of the sample text (Han characters for Mandarin), cut at n. */
function textOf(language: SynthesisLanguage, n: number): string {
  const src = language === 'zh-CN' ? ZH : EN;
  let out = '';
  let count = 0;
  while (count < n) {
    for (const ch of src) {
      if (count >= n) break;
      out += ch;
      if (language !== 'zh-CN' || /\p{Script=Han}/u.test(ch)) count++;
    }
  }
  return out;
}

interface Case {
  name: string;
  language: SynthesisLanguage;
  engines: Engines;
  overrides: SynthesisOverrides;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

async function timeCase(c: Case, chars: number): Promise<{ ms: number; audioSec: number }> {
  const req = { text: textOf(c.language, chars), language: c.language, voice: 'female', format: 'wav' as const, speed: 50, pitch: 50, volume: 50 };
  const first = await synthesizeWith(c.engines, req, c.overrides);
  const times: number[] = [];
  for (let i = 0; i < (chars >= 1000 ? Math.max(3, RUNS >> 1) : RUNS); i++) {
    const t = performance.now();
    await synthesizeWith(c.engines, req, c.overrides);
    times.push(performance.now() - t);
  }
  return { ms: median(times), audioSec: first.durationSec };
}

async function main(): Promise<void> {
  const paths = resolveModels(path.resolve(import.meta.dirname, '..', 'models'));
  const ekho = new EkhoStore(paths.ekho.index, paths.ekho.voice);
  const wasm: EspeakBackend = await loadEspeak('wasm');
  const cli: EspeakBackend = await loadEspeak('cli');
  const cases: Case[] = [
    { name: 'ekho zh', language: 'zh-CN', engines: { espeak: wasm, ekho }, overrides: { engine: 'ekho' } },
    { name: 'espeak-wasm zh', language: 'zh-CN', engines: { espeak: wasm, ekho }, overrides: { engine: 'espeak' } },
    { name: 'espeak-cli zh', language: 'zh-CN', engines: { espeak: cli, ekho }, overrides: { engine: 'espeak' } },
    { name: 'espeak-wasm en', language: 'en-US', engines: { espeak: wasm, ekho }, overrides: {} },
    { name: 'espeak-cli en', language: 'en-US', engines: { espeak: cli, ekho }, overrides: {} },
  ];
  const rows: Record<string, Record<string, { ms: number; audioSec: number }>> = {};
  for (const c of cases) {
    rows[c.name] = {};
    for (const n of SIZES) rows[c.name][n] = await timeCase(c, n);
  }
  const pad = (s: string, w: number) => s.padEnd(w);
  console.log(`${pad('engine', 16)}${SIZES.map((n) => pad(`${n} chars ms (audio s)`, 26)).join('')}`);
  for (const [name, r] of Object.entries(rows)) {
    console.log(`${pad(name, 16)}${SIZES.map((n) => pad(`${r[n].ms.toFixed(0)} (${r[n].audioSec.toFixed(1)})`, 26)).join('')}`);
  }
  const json = Object.fromEntries(Object.entries(rows).map(([k, r]) => [k, Object.fromEntries(SIZES.map((n) => [n, Math.round(r[n].ms)]))]));
  console.log(JSON.stringify({ bench: 'tts', unit: 'ms median', runs: RUNS, target200ms: 100, results: json }));
}

const CALIBRATION_TEXT: Record<EspeakVoice, string> = {
  'en-us': 'The quick brown fox jumps over the lazy dog. She sells sea shells by the sea shore.',
  'en-gb': 'The quick brown fox jumps over the lazy dog. She sells sea shells by the sea shore.',
  'cmn-latn-pinyin': 'ni3 hao3, wo3 men5 qu4 xue2 xiao4 ba5. jin1 tian1 tian1 qi4 hen2 hao3.',
};

/** Median F0 (Hz) of eSpeak's output per voice, variant and base-pitch parameter. */
async function calibrate(): Promise<void> {
  const wasm = await loadEspeak('wasm');
  const rows: string[] = [];
  for (const voice of Object.keys(CALIBRATION_TEXT) as EspeakVoice[]) {
    for (const variant of ESPEAK_VARIANTS) {
      const medians: number[] = [];
      for (const pitch of CALIBRATION_PITCHES) {
        const out = await wasm.synth(CALIBRATION_TEXT[voice], { voice, variant, rateWpm: 165, pitch });
        const f0 = [...trackPitch(out.samples, out.sampleRate).f0].filter((f) => f > 0).sort((a, b) => a - b);
        medians.push(Math.round(f0[f0.length >> 1]));
      }
      rows.push(`  '${voice}+${variant}': [${medians.join(', ')}],`);
    }
  }
  console.log(`const MEDIAN_F0: Record<string, number[]> = {\n${rows.join('\n')}\n};`);
}

await (process.argv.includes('--calibrate') ? calibrate() : main());
