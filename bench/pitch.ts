/**
 * Pitch tracker speed: milliseconds of CPU per second of 16 kHz audio, median of repeated runs.
 * Input: a real recording from ../shared/data when available (decoded with ffmpeg), otherwise
 * a synthetic voiced/unvoiced signal, so the figure can be produced anywhere.
 * The tracker as the service runs it (native loops where built) and with the TypeScript loops,
 * alternating. Prints a line for each and one JSON line: {"pitch_ms_per_s": …, "typescript_ms_per_s": …}.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { trackPitch } from '../src/dsp/pitch.js';
import { pitchLoops } from '../src/dsp/pitch-loops.js';

const RATE = 16000;

function loadSpeech(): { pcm: Int16Array; source: string } {
  const dir = path.resolve(import.meta.dirname, '..', '..', 'shared', 'data', 'zh', 'aishell-s0150');
  const files = fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith('.flac')).sort() : [];
  if (files.length > 0) {
    const parts = files.slice(0, 10).map((f) => execFileSync('ffmpeg', ['-v', 'error', '-i', path.join(dir, f), '-f', 's16le', '-ac', '1', '-ar', String(RATE), 'pipe:1'], { maxBuffer: 1 << 26 }));
    const buf = Buffer.concat(parts);
    return { pcm: new Int16Array(buf.buffer, buf.byteOffset, buf.length / 2), source: `${Math.min(10, files.length)} AISHELL sentences` };
  }
  const pcm = new Int16Array(RATE * 10);
  for (let i = 0; i < pcm.length; i++) {
    const t = i / RATE;
    const f = 120 + 40 * Math.sin(2 * Math.PI * 0.5 * t);
    pcm[i] = Math.floor(t) % 2 === 0 ? 8000 * Math.sin(2 * Math.PI * f * t) : Math.round((Math.random() - 0.5) * 2000);
  }
  return { pcm, source: 'synthetic 10 s' };
}

const { pcm, source } = loadSpeech();
const seconds = pcm.length / RATE;
const med = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1];

/**
 * CPU time of this thread (user + system) as well as wall time: on a shared machine the wall
 * clock includes waiting for a core, the CPU time does not. The two settings alternate run by
 * run, so the machine's changing speed falls on both alike.
 */
const settings = { native: { native: true }, typescript: { native: false } } as const;
for (const opts of Object.values(settings)) for (let i = 0; i < 3; i++) trackPitch(pcm, RATE, opts); // warm-up (JIT)
const cpu: Record<string, number[]> = { native: [], typescript: [] };
const wall: Record<string, number[]> = { native: [], typescript: [] };
for (let i = 0; i < 15; i++) {
  for (const [name, opts] of Object.entries(settings)) {
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    trackPitch(pcm, RATE, opts);
    wall[name].push(Number(process.hrtime.bigint() - t0) / 1e6 / seconds);
    const c = process.cpuUsage(c0);
    cpu[name].push((c.user + c.system) / 1000 / seconds);
  }
}
const built = pitchLoops() !== null;
for (const name of Object.keys(settings)) {
  const label = name === 'native' ? (built ? 'native loops' : 'native loops not built, TypeScript') : 'TypeScript loops';
  console.log(`pitch (${label}): ${source}, ${seconds.toFixed(1)} s of audio, 15 runs: median CPU ${med(cpu[name]).toFixed(2)} ms per second of audio (wall ${med(wall[name]).toFixed(2)}; min CPU ${Math.min(...cpu[name]).toFixed(2)})`);
}
const out = { pitch_ms_per_s: Number(med(cpu.native).toFixed(3)), typescript_ms_per_s: Number(med(cpu.typescript).toFixed(3)), native_built: built };
console.log(JSON.stringify(out));
