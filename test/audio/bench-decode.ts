/**
 * Decode speed per format (median of 5 runs) on a 7.1 s English sentence, and the in-process
 * paths (WAV fast path, streaming resampler, energy VAD, quality analysis) per second of audio.
 * Run with `npx tsx test/audio/bench-decode.ts`; numbers are wall-clock on a shared machine.
 */
import fs from 'node:fs';
import { decodeAudio } from '../../src/audio/decode.js';
import { analyzeQuality } from '../../src/audio/quality.js';
import { StreamingIntake } from '../../src/audio/stream.js';
import { detectSpeech } from '../../src/audio/vad.js';
import { tempDir } from '../helpers/app.js';
import { ENGLISH_SENTENCE, makeFormatFixtures, soxDuration } from './fixtures.js';

const RUNS = 5;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function time(fn: () => unknown): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return median(times);
}

const dir = tempDir('kouyu-bench-');
const seconds = soxDuration(ENGLISH_SENTENCE);
try {
  const fixtures = makeFormatFixtures(ENGLISH_SENTENCE, dir);
  console.log(`decode, median of ${RUNS}, ${seconds.toFixed(1)} s of audio`);
  for (const f of fixtures) {
    const input = fs.readFileSync(f.file);
    const ms = await time(() => decodeAudio(input));
    console.log(`  ${f.name.padEnd(22)} ${ms.toFixed(1).padStart(7)} ms  (${(ms / seconds).toFixed(2)} ms per s)`);
  }
  const pcm = (await decodeAudio(fs.readFileSync(fixtures[0].file))).pcm;
  const st = fs.readFileSync(fixtures.find((f) => f.name === 'wav 44.1 kHz stereo')!.file);
  const stream = await time(async () => {
    const intake = new StreamingIntake();
    for (let at = 0; at < st.length; at += 8192) intake.push(st.subarray(at, at + 8192));
    await intake.finish();
  });
  console.log(`  streaming 44.1 kHz stereo WAV (8 KiB chunks, in-process resampling): ${(stream / seconds).toFixed(2)} ms per s`);
  console.log(`  energy VAD: ${((await time(() => detectSpeech(pcm, 16000))) / seconds).toFixed(3)} ms per s`);
  console.log(`  quality analysis incl. VAD: ${((await time(() => analyzeQuality(pcm, 16000))) / seconds).toFixed(3)} ms per s`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
