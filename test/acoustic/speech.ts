/**
 * Real recordings for the acoustic tests, read from the shared data folder and decoded by the
 * service's own audio decoder; slot grammars built from the model dictionaries.
 */
import fs from 'node:fs';
import path from 'node:path';
import { decodeAudio } from '../../src/audio/decode.js';
import type { GrammarSpec, Lexicon } from '../../src/acoustic/types.js';
import { SHARED_DATA_DIR } from '../helpers/app.js';

export const AISHELL_DIR = path.join(SHARED_DATA_DIR, 'zh', 'aishell-s0150');
export const LIBRIVOX_DIR = path.join(SHARED_DATA_DIR, 'en', 'librivox');
export const LJSPEECH_DIR = path.join(SHARED_DATA_DIR, 'en', 'ljspeech');

export async function readPcm(file: string): Promise<Int16Array> {
  return (await decodeAudio(fs.readFileSync(file))).pcm;
}

/** AISHELL utterance ids and transcripts, in file order. */
export function aishellTranscripts(): { id: string; text: string }[] {
  return fs
    .readFileSync(path.join(AISHELL_DIR, 'transcripts.tsv'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => {
      const [id, text] = line.split('\t');
      return { id, text: text.replace(/\s+/g, '') };
    });
}

export function aishellFile(id: string): string {
  return path.join(AISHELL_DIR, `${id}.flac`);
}

export function librivox(n: number): { file: string; words: string[] } {
  const ids = ['0870', '0880', '0890', '0920', '0930'];
  const base = path.join(LIBRIVOX_DIR, `sense_and_sensibility_01_austen_64kb-${ids[n]}`);
  return { file: `${base}.flac`, words: fs.readFileSync(`${base}.txt`, 'utf8').trim().split(/\s+/) };
}

export function ljspeech(n: number): { file: string; words: string[] } {
  const line = fs.readFileSync(path.join(LJSPEECH_DIR, 'metadata.csv'), 'utf8').trim().split('\n')[n];
  const [id, , normalized] = line.split('|');
  const words = normalized.toLowerCase().replace(/[^a-z' ]+/g, ' ').trim().split(/\s+/);
  return { file: path.join(LJSPEECH_DIR, 'wavs', `${id}.flac`), words };
}

/** One single-alternative slot per word or character the dictionary knows (others dropped). */
export function referenceGrammar(lexicon: Lexicon, tokens: readonly string[]): GrammarSpec {
  const slots = tokens.flatMap((t) => {
    const prons = lexicon.lookup(t);
    return prons ? [{ alternatives: [{ label: t, prons }] }] : [];
  });
  return { slots };
}
