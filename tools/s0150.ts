/**
 * The native Mandarin training speech of the engine's classifiers (tools/train-tone-zh.ts,
 * tools/train-part-zh.ts): AISHELL speaker S0150 in ../shared/data/zh/aishell-s0150, its
 * transcripts, and its recordings rendered by sox as other voices.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { decodeAudio } from '../src/audio/decode.js';

export const REPO = path.resolve(import.meta.dirname, '..');
export const DATA = path.resolve(REPO, '..', 'shared', 'data', 'zh', 'aishell-s0150');

/** The value after a command-line flag. */
export const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};

/**
 * The speaker's recordings rendered as other voices with sox (`--renderings`): pitch and
 * formants together 3 semitones higher and read 10% faster, or 2.5 semitones lower and 10%
 * slower, as in docs/acoustic.md, "Speaker normalisation". A rendering is aligned anew, so a
 * model also sees how alignment comes out for a voice the acoustic model fits less well.
 */
export const RENDERINGS = [
  { name: 'higher', effects: ['pitch', '300', 'tempo', '1.1'] },
  { name: 'lower', effects: ['pitch', '-250', 'tempo', '0.9'] },
] as const;
export type Rendering = (typeof RENDERINGS)[number];

/** A recording as read, or rendered by sox (written to its standard output as FLAC; `-R`: the same dither every run). */
export function readAudio(id: string, rendering: Rendering | null) {
  const file = path.join(DATA, `${id}.flac`);
  return decodeAudio(rendering ? execFileSync('sox', ['-R', file, '-t', 'flac', '-', ...rendering.effects], { maxBuffer: 1 << 28 }) : fs.readFileSync(file));
}

/** The transcripts (id, text), read once. */
let transcriptLines: [string, string][] | null = null;
export function transcripts(): [string, string][] {
  transcriptLines ??= fs.readFileSync(path.join(DATA, 'transcripts.tsv'), 'utf8').trim().split('\n').map((l) => l.split('\t') as [string, string]);
  return transcriptLines;
}

/** Utterances from the cache file when there is one, else extracted (and cached when a file is named). */
export async function cached<T>(file: string | undefined, make: () => Promise<T[]>): Promise<T[]> {
  if (file && fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as T[];
  const utts = await make();
  if (file) fs.writeFileSync(file, JSON.stringify(utts));
  return utts;
}
