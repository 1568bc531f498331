/**
 * The native English readings of the data folder (LibriVox, LJ Speech, Harvard sentences) with
 * their reference texts, the native passage made of them, and the seeded generator the English
 * tools draw alterations with. Shared by tools/validity-en.ts, tools/placement-en.ts and
 * bench/en-engine.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { decodeAudio, type DecodedAudio } from '../src/audio/decode.js';
import { concatPcm } from '../src/audio/resample.js';

export interface NativeReading {
  set: 'librivox' | 'ljspeech' | 'harvard';
  file: string;
  ref: string;
}

/** Every native reading under `dataDir` (the `en` folder of the data), in a fixed order. */
export function nativeSet(dataDir: string): NativeReading[] {
  const out: NativeReading[] = [];
  const lib = path.join(dataDir, 'librivox');
  for (const f of fs.readdirSync(lib).filter((f) => f.endsWith('.flac')).sort()) {
    out.push({ set: 'librivox', file: path.join(lib, f), ref: fs.readFileSync(path.join(lib, f.replace('.flac', '.txt')), 'utf8').trim() });
  }
  for (const line of fs.readFileSync(path.join(dataDir, 'ljspeech', 'metadata.csv'), 'utf8').trim().split('\n')) {
    const [id, , norm] = line.split('|');
    out.push({ set: 'ljspeech', file: path.join(dataDir, 'ljspeech', 'wavs', `${id}.flac`), ref: norm });
  }
  const js = fs.readFileSync(path.join(dataDir, 'harvard', 'transcripts.js'), 'utf8');
  for (const m of js.matchAll(/file:\s*"([^"]+)\.wav",\s*transcript:\s*"([^"]+)"/g)) {
    out.push({ set: 'harvard', file: path.join(dataDir, 'harvard', 'resources', `${m[1]}.flac`), ref: m[2] });
  }
  return out;
}

/**
 * One passage read by native speakers: the LJ Speech sentences, then the LibriVox ones, joined
 * (16 kHz) until the reading lasts `seconds`; its text is theirs joined by spaces.
 */
export async function nativePassage(dataDir: string, seconds = 60): Promise<{ text: string; audio: DecodedAudio; sentences: number }> {
  const sources = nativeSet(dataDir);
  const ordered = [...sources.filter((r) => r.set === 'ljspeech'), ...sources.filter((r) => r.set === 'librivox')];
  const used: { ref: string; pcm: Int16Array }[] = [];
  let samples = 0;
  for (const r of ordered) {
    if (samples >= seconds * 16000) break;
    const { pcm } = await decodeAudio(fs.readFileSync(r.file));
    used.push({ ref: r.ref, pcm });
    samples += pcm.length;
  }
  const pcm = concatPcm(used.map((u) => u.pcm));
  return {
    text: used.map((u) => u.ref).join(' '),
    sentences: used.length,
    audio: { pcm, sampleRate: 16000, durationSec: pcm.length / 16000, source: { format: 'wav', sampleRate: 16000, channels: 1 }, lowSampleRate: false },
  };
}

/** Seeded generator (mulberry32) so alterations are the same on every run. */
export function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
