/**
 * Measurement script behind the documented thresholds (docs/audio.md). Not a test: run with
 * `npx tsx test/audio/calibrate.ts [filesPerCorpus]`.
 * 1. Quality metrics on clean real recordings of five corpora and on degraded versions;
 * 2. Energy VAD vs Silero VAD: frame agreement (10 ms frames) and speed per second of audio.
 */
import fs from 'node:fs';
import path from 'node:path';
import { decodeAudio } from '../../src/audio/decode.js';
import { analyzeQuality, type QualityMetrics } from '../../src/audio/quality.js';
import { SileroVad } from '../../src/audio/silero-vad.js';
import { detectSpeech, type SpeechSegment } from '../../src/audio/vad.js';
import { SHARED_DATA_DIR } from '../helpers/app.js';
import { babble, gain, mixAtSnr, noiseOnly, silence, truncateMidWord, whiteNoise } from './degrade.js';

const perCorpus = Number(process.argv[2] ?? 12);

const CORPORA: Record<string, string> = {
  aishell: 'zh/aishell-s0150',
  librivox: 'en/librivox',
  ljspeech: 'en/ljspeech/wavs',
  harvard: 'en/harvard/resources',
  accented: 'en/alphanumeric-accented/audio_data/Addresses',
};

function listAudio(dir: string, limit: number): string[] {
  const full = path.join(SHARED_DATA_DIR, dir);
  return fs.readdirSync(full).filter((f) => /\.(flac|wav)$/.test(f)).sort().slice(0, limit).map((f) => path.join(full, f));
}

function fmt(m: QualityMetrics): string {
  return `speech ${m.speechDbfs.toFixed(1)} peak ${m.peakDbfs.toFixed(1)} clip ${(m.clippedRatio * 100).toFixed(3)}% snr ${m.snrDb?.toFixed(1)} sp ${m.speechSeconds.toFixed(2)} trail ${m.trailingSpeech}`;
}

function summary(name: string, values: number[]): string {
  const s = [...values].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * (s.length - 1)))].toFixed(2);
  return `${name}: min ${q(0)} p10 ${q(0.1)} median ${q(0.5)} p90 ${q(0.9)} max ${q(1)}`;
}

function frameAgreement(a: SpeechSegment[], b: SpeechSegment[], totalMs: number): number {
  const frames = Math.floor(totalMs / 10);
  const mark = (segs: SpeechSegment[]) => {
    const m = new Uint8Array(frames);
    for (const s of segs) for (let f = Math.floor(s.startMs / 10); f < Math.min(frames, Math.ceil(s.endMs / 10)); f++) m[f] = 1;
    return m;
  };
  const ma = mark(a), mb = mark(b);
  let same = 0;
  for (let f = 0; f < frames; f++) if (ma[f] === mb[f]) same++;
  return frames ? same / frames : 1;
}

const silero = await SileroVad.create();
const cleanBy: Record<string, Int16Array[]> = {};
const metrics: Record<string, QualityMetrics[]> = {};
let energyMs = 0, sileroMs = 0, audioSec = 0;
const agreements: number[] = [];
const boundary: number[] = [];
for (const [name, dir] of Object.entries(CORPORA)) {
  metrics[name] = [];
  cleanBy[name] = [];
  for (const file of listAudio(dir, perCorpus)) {
    const d = await decodeAudio(fs.readFileSync(file));
    cleanBy[name].push(d.pcm);
    let t = performance.now();
    const e = detectSpeech(d.pcm, 16000);
    energyMs += performance.now() - t;
    t = performance.now();
    const s = await silero.detect(d.pcm, 16000);
    sileroMs += performance.now() - t;
    audioSec += d.durationSec;
    agreements.push(frameAgreement(e, s, d.durationSec * 1000));
    if (e.length && s.length) boundary.push(Math.abs(e[0].startMs - s[0].startMs), Math.abs(e[e.length - 1].endMs - s[s.length - 1].endMs));
    const q = analyzeQuality(d.pcm, 16000, e);
    metrics[name].push(q.metrics);
    if (q.warnings.length) console.log(`WARN clean ${name} ${path.basename(file)} ${q.warnings.map((w) => w.code)} ${fmt(q.metrics)}`);
    const qs = analyzeQuality(d.pcm, 16000, s);
    if (qs.warnings.length) console.log(`WARN(silero segments) clean ${name} ${path.basename(file)} ${qs.warnings.map((w) => w.code)} ${fmt(qs.metrics)}`);
  }
}
for (const [name, ms] of Object.entries(metrics)) {
  console.log(`\n${name} (${ms.length} files)`);
  console.log('  ' + summary('speechDbfs', ms.map((m) => m.speechDbfs)));
  console.log('  ' + summary('peakDbfs', ms.map((m) => m.peakDbfs)));
  console.log('  ' + summary('clipped %', ms.map((m) => m.clippedRatio * 100)));
  console.log('  ' + summary('snrDb', ms.map((m) => m.snrDb ?? -1)));
  console.log('  trailing: ' + ms.filter((m) => m.trailingSpeech).length);
}

// Degraded versions of the first 5 files of each corpus; babble talkers are files 6-7 of each.
const subset = Object.values(cleanBy).flatMap((xs) => xs.slice(0, 5));
const talkers = Object.values(cleanBy).flatMap((xs) => xs.slice(5, 7));
const babbleFor = (i: number) => Array.from({ length: 6 }, (_, k) => talkers[(i + k) % talkers.length]);
console.log(`\nDegraded (${subset.length} files, 5 per corpus):`);
const conditions: Record<string, (p: Int16Array, i: number) => Int16Array> = {
  'attenuated -30 dB': (p) => gain(p, -30),
  'amplified +20 dB (clipped)': (p) => gain(p, 20),
  'white noise 20 dB': (p, i) => mixAtSnr(p, whiteNoise(p.length, i + 1), 20),
  'white noise 5 dB': (p, i) => mixAtSnr(p, whiteNoise(p.length, i + 1), 5),
  'babble 20 dB': (p, i) => mixAtSnr(p, babble(p.length, babbleFor(i)), 20),
  'babble 5 dB': (p, i) => mixAtSnr(p, babble(p.length, babbleFor(i)), 5),
  'truncated mid-word': (p) => truncateMidWord(p),
  silence: () => silence(3),
  'white noise only -30 dBFS': (_p, i) => noiseOnly(3, -30, i + 1),
};
for (const [name, make] of Object.entries(conditions)) {
  const counts = new Map<number, number>();
  const countsSilero = new Map<number, number>();
  const ms: QualityMetrics[] = [];
  for (const [i, p] of subset.entries()) {
    const pcm = make(p, i);
    const q = analyzeQuality(pcm, 16000);
    ms.push(q.metrics);
    for (const w of q.warnings) counts.set(w.code, (counts.get(w.code) ?? 0) + 1);
    for (const w of analyzeQuality(pcm, 16000, await silero.detect(pcm, 16000)).warnings) countsSilero.set(w.code, (countsSilero.get(w.code) ?? 0) + 1);
  }
  const snrs = ms.map((m) => m.snrDb ?? -99);
  const show = (c: Map<number, number>) => JSON.stringify([...c.entries()].sort());
  console.log(`${name.padEnd(28)} warnings ${show(counts)} (silero segments ${show(countsSilero)})  ${summary('snr', snrs)}  ${summary('speechDbfs', ms.map((m) => m.speechDbfs))}`);
}

console.log(`\nVAD on ${audioSec.toFixed(0)} s of clean speech: energy ${((energyMs / audioSec)).toFixed(2)} ms per s, silero ${((sileroMs / audioSec)).toFixed(2)} ms per s`);
console.log(summary('frame agreement energy vs silero', agreements));
console.log(summary('first/last boundary |diff| ms', boundary));
await silero.close();
