/**
 * CPU time of the English engine on a 5 s native sentence (LibriVox), after warm-up, on one
 * core (the in-thread backend; the service runs the same work in a pool worker). Prints the
 * median of the runs for the whole assessment and for its stages, so it is clear what
 * dominates. Target: under 150 ms CPU for a 5 s sentence. `npm run bench:en-engine` is not in
 * package.json; run `npx tsx bench/en-engine.ts [runs]`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createInThreadBackend } from '../src/acoustic/backend.js';
import { decodeAudio } from '../src/audio/decode.js';
import { loadConfig } from '../src/config.js';
import { parseEvaluationConfig } from '../src/evaluation/config.js';
import { loadEnglishLexicon } from '../src/en/lexicon/index.js';
import { createEnglishEngine } from '../src/en/engine/index.js';
import { planReading } from '../src/en/engine/plan.js';
import { readEvidence } from '../src/en/engine/evidence.js';
import { measureSignal } from '../src/en/engine/signal.js';
import { scoreReading } from '../src/en/engine/score.js';
import { loadEnglishScoringModel } from '../src/en/scoring-model/model.js';

const runs = Number(process.argv[2] ?? 7);
const file = path.resolve(import.meta.dirname, '..', '..', 'shared', 'data', 'en', 'librivox', 'sense_and_sensibility_01_austen_64kb-0870.flac');
const text = 'And Mr. John Dashwood had then leisure to consider how much there might be prudently in his power to do for them.';

const backend = createInThreadBackend(loadConfig(), { langs: ['en'] });
const lexicon = await loadEnglishLexicon();
const model = loadEnglishScoringModel();
const engine = createEnglishEngine({ backend, lexicon, model });
const audio = await decodeAudio(fs.readFileSync(file));
const config = parseEvaluationConfig({ coreType: 'sentence', referenceText: text });

/** CPU milliseconds (user + system) of one call. */
async function cpu(fn: () => unknown): Promise<number> {
  const t = process.cpuUsage();
  await fn();
  const d = process.cpuUsage(t);
  return (d.user + d.system) / 1000;
}

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
await engine.assess(config, audio); // warm-up: lexicon caches, decoder dictionary words, JIT

const stages: Record<string, number[]> = { total: [], plan: [], align: [], signal: [], score: [], phoneLoop: [] };
for (let i = 0; i < runs; i++) {
  stages.total.push(await cpu(() => engine.assess(config, audio)));
  const plan = planReading(lexicon, text, 'sentence', 'en-US');
  stages.plan.push(await cpu(() => planReading(lexicon, text, 'sentence', 'en-US')));
  let result: Awaited<ReturnType<typeof backend.align>> | null = null;
  stages.align.push(await cpu(async () => (result = await backend.align('en', audio.pcm, plan.grammar, { phones: true, gop: true }))));
  const signal = measureSignal(audio.pcm);
  stages.signal.push(await cpu(() => measureSignal(audio.pcm)));
  const ev = readEvidence(plan, result!);
  stages.score.push(await cpu(() => scoreReading(ev, signal, model)));
  stages.phoneLoop.push(await cpu(() => backend.phoneLoop('en', audio.pcm, { window: { startFrame: ev.speechStart, endFrame: ev.speechEnd } })));
}
const out = Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, Math.round(median(v))]));
console.log(`English engine, ${audio.durationSec.toFixed(2)} s sentence, median CPU ms of ${runs} runs after warm-up:`);
for (const [k, v] of Object.entries(out)) console.log(`  ${k.padEnd(10)} ${String(v).padStart(6)} ms`);
console.log('  (phoneLoop runs only when some phone scores low; total includes it only then)');
console.log(JSON.stringify({ audioSeconds: +audio.durationSec.toFixed(2), runs, medianCpuMs: out, targetMs: 150 }));
await backend.close();
