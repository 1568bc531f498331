/**
 * Real-time progress lag on real recordings.
 *
 * Each recording is fed to a progress session in 40 ms chunks at real-time pace (chunk k is sent
 * at 40·(k+1) ms after the session starts, when it would have been recorded). For every reference
 * unit, the lag is the wall-clock time at which the session first reported the unit as read,
 * minus the end of that unit in a forced alignment of the whole file (the same acoustic model,
 * whole-utterance normalisation, wide beams). Negative lag: reported before the unit's aligned
 * end. Units first reported only by finish() count with the time finish returned.
 * Sessions run one after another through the progress worker thread, as in the service.
 *
 * Usage: npx tsx bench/progress.ts [--zh 10] [--en 5] [--chunk-ms 40] [--parallel 1]
 * (KOUYU_FAST_SCORING=off: English sessions score frames with the library alone, for comparison)
 * Ends with one JSON line: {"lag_median_ms":…, "lag_p95_ms":…, "reached_end":…, "units":…}.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { decodeAudio } from '../src/audio/decode.js';
import { loadDictionary } from '../src/acoustic/lexicon.js';
import { ProgressHost } from '../src/acoustic/progress-host.js';
import { referenceFromText } from '../src/acoustic/progress-reference.js';
import { SphinxEngine } from '../src/acoustic/sphinx/engine.js';
import type { AcousticLang, AlignUnit } from '../src/acoustic/types.js';
import { resolveModels } from '../src/models.js';
import { loadConfig } from '../src/config.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const DATA = path.resolve(ROOT, '..', 'shared', 'data');
const MODELS = path.join(ROOT, 'models');

const { values } = parseArgs({ options: { zh: { type: 'string', default: '10' }, en: { type: 'string', default: '5' }, 'chunk-ms': { type: 'string', default: '40' }, parallel: { type: 'string', default: '1' } } });
/** Sessions fed at the same time (all on the one progress thread), to measure how many it carries. */
const parallel = Math.max(1, Number(values.parallel));
const chunkMs = Number(values['chunk-ms']);

interface Item { lang: AcousticLang; id: string; file: string; text: string }

function items(): Item[] {
  const zhDir = path.join(DATA, 'zh', 'aishell-s0150');
  const zh = fs.readFileSync(path.join(zhDir, 'transcripts.tsv'), 'utf8').trim().split('\n')
    .map((l) => l.split('\t')).filter(([id]) => id >= 'BAC009S0150W0200').slice(0, Number(values.zh))
    .map(([id, text]) => ({ lang: 'zh' as const, id, file: path.join(zhDir, `${id}.flac`), text }));
  const enDir = path.join(DATA, 'en', 'librivox');
  const en = fs.readdirSync(enDir).filter((f) => f.endsWith('.flac')).slice(0, Number(values.en))
    .map((f) => ({ lang: 'en' as const, id: f.slice(0, -5), file: path.join(enDir, f), text: fs.readFileSync(path.join(enDir, f.replace('.flac', '.txt')), 'utf8') }));
  return [...zh, ...en];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/** Feeds the audio at real-time pace; returns per unit the wall time (ms) it was first reported. */
async function feed(host: ProgressHost, lang: AcousticLang, units: AlignUnit[], pcm: Int16Array) {
  const reported = new Array<number>(units.length).fill(-1);
  const session = host.open(lang, units);
  const chunk = (16000 * chunkMs) / 1000;
  const t0 = performance.now();
  const note = (readUnits: number) => {
    const now = performance.now() - t0;
    for (let i = 0; i < readUnits; i++) if (reported[i] < 0) reported[i] = now;
  };
  let last = { readUnits: 0 };
  const pending: Promise<void>[] = [];
  for (let k = 0; k * chunk < pcm.length; k++) {
    await sleep(t0 + (k + 1) * chunkMs - performance.now());
    pending.push(session.push(pcm.subarray(k * chunk, (k + 1) * chunk)).then((u) => { last = u; note(u.readUnits); }));
  }
  await Promise.all(pending);
  const fin = await session.finish();
  note(fin.readUnits);
  return { reported, final: fin.readUnits, monotoneEnd: last.readUnits <= fin.readUnits };
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

async function main(): Promise<void> {
  const paths = resolveModels(MODELS);
  const lex = { zh: loadDictionary(paths.zh.dict, 'zh'), en: loadDictionary(paths.en.dict, 'en') };
  const engine = SphinxEngine.create(MODELS);
  const host = await ProgressHost.start({ modelsDir: MODELS, threads: 1, decodersPerLang: parallel, fastScoring: loadConfig().fastScoring });
  const lags: number[] = [];
  let reachedEnd = 0;
  const list = items();
  const prepared = [];
  for (const it of list) {
    const { units, missing } = referenceFromText(it.text, it.lang, lex[it.lang]);
    const pcm = (await decodeAudio(fs.readFileSync(it.file))).pcm;
    const aligned = engine.align(it.lang, pcm, { slots: units.map((u) => ({ alternatives: [u] })) });
    if (!aligned.ok) { console.log(`${it.id}: forced alignment failed (${aligned.reason}), skipped`); continue; }
    prepared.push({ it, units, missing, pcm, ends: aligned.units.filter((u) => u.slot >= 0).map((u) => u.endFrame * 10) });
  }
  for (let g = 0; g < prepared.length; g += parallel) {
    const group = prepared.slice(g, g + parallel);
    const results = await Promise.all(group.map((p) => feed(host, p.it.lang, p.units, p.pcm)));
    group.forEach(({ it, units, missing, pcm, ends }, k) => {
      const r = results[k];
      const mine = r.reported.map((t, i) => t - ends[i]);
      lags.push(...mine);
      if (r.final === units.length) reachedEnd++;
      const s = [...mine].sort((a, b) => a - b);
      console.log(`${it.id} ${it.lang} ${(pcm.length / 16000).toFixed(1)} s, ${units.length} units${missing.length ? ` (${missing.length} not in dictionary)` : ''}: final ${r.final}/${units.length}, lag median ${quantile(s, 0.5).toFixed(0)} ms, max ${s[s.length - 1].toFixed(0)} ms`);
    });
  }
  await host.close();
  engine.close();
  lags.sort((a, b) => a - b);
  console.log(`${parallel} session(s) at a time; units ${lags.length}: lag median ${quantile(lags, 0.5).toFixed(0)} ms, p95 ${quantile(lags, 0.95).toFixed(0)} ms, p5 ${quantile(lags, 0.05).toFixed(0)} ms; reached the end ${reachedEnd}/${prepared.length}`);
  console.log(JSON.stringify({ lag_median_ms: Math.round(quantile(lags, 0.5)), lag_p95_ms: Math.round(quantile(lags, 0.95)), reached_end: reachedEnd / prepared.length, units: lags.length, parallel }));
}

await main();
