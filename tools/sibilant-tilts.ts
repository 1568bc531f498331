/**
 * The calibration evidence of the Mandarin sibilant-place check (src/zh/engine/sibilants.ts):
 * percentiles of the tilt (6–8 kHz band minus 2–4 kHz band, dB) of sibilant initials said
 * right, alone and against the recording's own tilt, for
 * - the native Mandarin speaker of aishell-s0150 (initials of its correct readings, aligned by
 *   the engine; `--limit N` sentences, default 200);
 * - the 41-odd speakers of the speechocean762 train half (children and adults), whose English
 *   S, SH, CH and JH the experts scored correct (mean phone score 1.8 or more), from the
 *   evidence cache of `train-en-so762.ts extract` (`--cache DIR`); every second utterance.
 * Only wideband recordings count (audio/bandwidth.ts). Then how many of each group the check
 * would flag (saidAtOtherPlace, an s as retroflex and a zh, ch or sh as flat; English S as s,
 * SH, CH and JH as sh, ch and zh), and how many the tilt alone would flag without the
 * recording's (the thresholds of SIBILANT_TILT on the tilt only).
 *
 *   npx tsx tools/sibilant-tilts.ts [--limit 200] [--cache DIR]
 */
import fs from 'node:fs';
import path from 'node:path';
import { createInThreadBackend } from '../src/acoustic/backend.js';
import { decodeAudio, type DecodedAudio } from '../src/audio/decode.js';
import { isWideband } from '../src/audio/bandwidth.js';
import { loadConfig } from '../src/config.js';
import { parseEvaluationConfig } from '../src/evaluation/config.js';
import { createMandarinEngine } from '../src/zh/engine/engine.js';
import { JUDGED_INITIALS, PLACE_PARTNER, recordingTilt, saidAtOtherPlace, sibilantTilt } from '../src/zh/engine/sibilants.js';
import { DEFAULT_CACHE, SO762_DIR, arg, readCached, readScores } from './train-en-so762.js';

const REPO = path.resolve(import.meta.dirname, '..');
const ZH = path.resolve(SO762_DIR, '..', '..', 'zh', 'aishell-s0150');
const limit = Number(arg('limit', '200'));
const cache = arg('cache', DEFAULT_CACHE);
/** The Mandarin initial an English sibilant stands for. */
const AS_MANDARIN: Readonly<Record<string, string>> = { S: 's', SH: 'sh', CH: 'ch', JH: 'zh' };

/** Tilt of a span, alone and against the whole recording's. */
function tilts(audio: DecodedAudio, start: number, end: number, recording: number): [number, number] | null {
  const t = sibilantTilt(audio.pcm, start, end);
  return t === null ? null : [t, t - recording];
}

const groups = new Map<string, [number, number][]>();
const add = (key: string, v: [number, number] | null) => {
  if (!v) return;
  if (!groups.has(key)) groups.set(key, []);
  groups.get(key)!.push(v);
};

// Mandarin: initials of the correct readings, aligned by the engine.
const backend = createInThreadBackend(loadConfig(process.env, REPO), { langs: ['zh'] });
const engine = await createMandarinEngine({ backend, modelsDir: path.join(REPO, 'models') });
const lines = fs.readFileSync(path.join(ZH, 'transcripts.tsv'), 'utf8').trim().split('\n').map((l) => l.split('\t'));
for (const [id, text] of lines.filter(([, t]) => [...t].every((c) => /\p{Script=Han}/u.test(c))).slice(0, limit)) {
  const audio = await decodeAudio(fs.readFileSync(path.join(ZH, `${id}.flac`)));
  if (!isWideband(audio)) continue;
  const recording = recordingTilt(audio.pcm) ?? 0;
  const a = await engine.assess(parseEvaluationConfig({ coreType: 'sentence', language: 'zh-CN', referenceText: text }), audio);
  for (const u of a.units) {
    const ini = u.phones.find((p) => p.category === 0);
    if (ini && Object.hasOwn(PLACE_PARTNER, ini.phoneme)) add(`zh ${ini.phoneme}`, tilts(audio, ini.span.start, ini.span.end, recording));
  }
}
await backend.close();

// English sibilants of many speakers, from the speechocean762 evidence cache.
const scores = readScores('train');
let cached = 0;
for (const [i, id] of Object.keys(scores).sort().entries()) {
  const c = i % 2 === 0 ? readCached(cache, 'train', id) : null;
  if (!c) continue;
  cached++;
  const audio = await decodeAudio(fs.readFileSync(path.join(SO762_DIR, 'train', `${id}.opus`)));
  if (!isWideband(audio)) continue;
  const recording = recordingTilt(audio.pcm) ?? 0;
  c.evidence.words.forEach((w, wi) => {
    const labels = scores[id].words[wi]?.phonesAccuracy ?? [];
    w.phones.forEach((p, pi) => {
      if (['S', 'SH', 'CH', 'JH'].includes(p.phone) && p.startFrame >= 0 && (labels[pi] ?? 0) >= 1.8) add(`en ${p.phone}`, tilts(audio, p.startFrame, p.endFrame, recording));
    });
  });
}
if (cached === 0) console.log(`(no speechocean762 evidence in ${cache}: run train-en-so762.ts extract --split train first)`);

const pct = (v: number[], q: number) => v[Math.min(v.length - 1, Math.floor(q * v.length))];
const share = (n: number, of: number) => `${n} (${((100 * n) / of).toFixed(1)}%)`;
console.log('group       n    tilt p1 / p50 / p99 (dB)      against recording p1 / p50 / p99   flagged by the check   by the tilt alone');
for (const [key, v] of [...groups].sort()) {
  const abs = v.map((x) => x[0]).sort((a, b) => a - b);
  const rel = v.map((x) => x[1]).sort((a, b) => a - b);
  const phone = key.split(' ')[1];
  const initial = AS_MANDARIN[phone] ?? phone;
  const f = (x: number) => x.toFixed(1).padStart(6);
  const head = `${key.padEnd(8)} ${String(v.length).padStart(4)}   ${f(pct(abs, 0.01))} ${f(pct(abs, 0.5))} ${f(pct(abs, 0.99))}            ${f(pct(rel, 0.01))} ${f(pct(rel, 0.5))} ${f(pct(rel, 0.99))}`;
  if (!JUDGED_INITIALS.has(initial)) {
    console.log(`${head}       not judged`);
    continue;
  }
  // The recording's tilt as the tool measured it: tilt minus the value against the recording.
  const both = v.filter(([t, r]) => saidAtOtherPlace(initial, t, () => t - r)).length;
  // A recording tilt that always passes the second condition: the first one alone decides.
  const passing = initial === 's' ? Infinity : -Infinity;
  const alone = v.filter(([t]) => saidAtOtherPlace(initial, t, () => passing)).length;
  console.log(`${head}       ${share(both, v.length).padEnd(20)}   ${share(alone, v.length)}`);
}
