/**
 * The native Mandarin training speech of the engine's classifiers (tools/train-tone-zh.ts,
 * tools/train-part-zh.ts): AISHELL speaker S0150 in ../shared/data/zh/aishell-s0150, its
 * transcripts, and its recordings rendered by sox as other voices.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { decodeAudio, type DecodedAudio } from '../src/audio/decode.js';
import { createInThreadBackend } from '../src/acoustic/backend.js';
import { withVoice } from '../src/acoustic/types.js';
import { loadConfig } from '../src/config.js';
import { alignReading, type ReadingAlignment } from '../src/zh/engine/align.js';
import { syllableTable } from '../src/zh/engine/syllables.js';
import { analyzeZhText, type ZhText } from '../src/zh/engine/text.js';
import { readerVoice } from '../src/zh/tone/extract.js';
import { PitchAnalysis } from '../src/dsp/pitch.js';

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

/** The file of recording `id` in folder `dir`: FLAC as in S0150, or WAV as AISHELL ships it. */
export function recordingIn(dir: string, id: string): string {
  const found = ['.flac', '.wav'].map((ext) => path.join(dir, id + ext)).find((f) => fs.existsSync(f));
  if (!found) throw new Error(`no ${id}.flac or ${id}.wav in ${dir}`);
  return found;
}

/** A recording as read, or rendered by sox (written to its standard output as FLAC; `-R`: the same dither every run). */
export function readAudio(id: string, rendering: Rendering | null) {
  const file = recordingIn(DATA, id);
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

/**
 * The first `limit` utterances of Chinese characters only, each aligned with every character
 * required (`voice`: decoded for the reader's voice, as the engine decodes), as `make` records
 * them (null: left out). Reports progress every 50 utterances.
 */
export async function alignedUtterances<T>(
  limit: number,
  rendering: Rendering | null,
  make: (u: { id: string; zh: ZhText; audio: DecodedAudio; al: ReadingAlignment }) => T | null,
  voice = false,
): Promise<T[]> {
  const backend = createInThreadBackend(loadConfig(process.env, REPO), { langs: ['zh'] });
  const table = syllableTable(backend.lexicon('zh'));
  const out: T[] = [];
  for (const [u, [id, text]] of transcripts().slice(0, limit).entries()) {
    let zh;
    try {
      zh = analyzeZhText(text);
    } catch {
      continue; // nothing readable (a transcript of spelled letters)
    }
    if (zh.tokens.some((t) => t.charType !== 0 && t.charType !== 1)) continue;
    const audio = await readAudio(id, rendering);
    const aligner = voice ? withVoice(backend, readerVoice(new PitchAnalysis(audio.pcm, audio.sampleRate))) : backend;
    const al = await alignReading(aligner, table, zh.read.map((i) => zh.tokens[i].syllable), audio.pcm, { gop: false, optional: false });
    const record = al.ok ? make({ id, zh, audio, al }) : null;
    if (record !== null) out.push(record);
    if (u % 50 === 0) process.stderr.write(`${u} utterances\n`);
  }
  await backend.close();
  return out;
}
