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

export interface NativePassage {
  text: string;
  audio: DecodedAudio;
  sentences: number;
}

/**
 * Passages read by native speakers: the LJ Speech sentences, then the LibriVox ones, joined
 * (16 kHz) until the reading lasts each of `lengths` seconds; a passage's text is theirs joined
 * by spaces. Each recording is decoded once for all the lengths.
 */
export async function nativePassages(dataDir: string, lengths: readonly number[]): Promise<NativePassage[]> {
  const sources = nativeSet(dataDir);
  const ordered = [...sources.filter((r) => r.set === 'ljspeech'), ...sources.filter((r) => r.set === 'librivox')];
  const decoded: { ref: string; pcm: Int16Array }[] = [];
  let samples = 0;
  for (const r of ordered) {
    if (samples >= Math.max(...lengths) * 16000) break;
    const { pcm } = await decodeAudio(fs.readFileSync(r.file));
    decoded.push({ ref: r.ref, pcm });
    samples += pcm.length;
  }
  return lengths.map((seconds) => {
    // The first recordings whose samples before them fall short of the length.
    let before = 0;
    const parts = decoded.filter((u) => {
      const take = before < seconds * 16000;
      before += u.pcm.length;
      return take;
    });
    const pcm = concatPcm(parts.map((u) => u.pcm));
    return {
      text: parts.map((u) => u.ref).join(' '),
      sentences: parts.length,
      audio: { pcm, sampleRate: 16000, durationSec: pcm.length / 16000, source: { format: 'wav', sampleRate: 16000, channels: 1 }, lowSampleRate: false },
    };
  });
}

/** One such passage of about `seconds` (60 s: the bench's). */
export async function nativePassage(dataDir: string, seconds = 60): Promise<NativePassage> {
  return (await nativePassages(dataDir, [seconds]))[0];
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
