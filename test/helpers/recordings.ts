/**
 * Short real recordings from the shared data set, as the 16 kHz 16-bit mono WAV a client
 * would upload (decoded and re-encoded by the service's own audio code), with their text.
 */
import fs from 'node:fs';
import { decodeAudio, type DecodedAudio } from '../../src/audio/decode.js';
import { floatToInt16, resample } from '../../src/audio/resample.js';
import { wavBuffer } from '../../src/audio/encode.js';
import { aishellFile, aishellTranscripts, librivox } from '../acoustic/speech.js';

export interface Recording {
  /** 16 kHz 16-bit mono WAV. */
  wav: Buffer;
  /** The file as stored in the data set (FLAC). */
  original: Buffer;
  text: string;
  seconds: number;
}

async function load(file: string, text: string): Promise<Recording> {
  const original = fs.readFileSync(file);
  const decoded = await decodeAudio(original);
  return { wav: wavBuffer(decoded.pcm, 16000), original, text, seconds: decoded.durationSec };
}

/**
 * An English reading (LibriVox, Sense and Sensibility, 0-4): 1 (3.0 s) is "he was not an ill
 * disposed young man", 4 (3.3 s) "he might even have been made amiable himself", 2 (5.3 s)
 * "unless to be rather cold hearted and rather selfish is to be ill disposed".
 */
export function englishRecording(n = 1): Promise<Recording> {
  const lv = librivox(n);
  return load(lv.file, lv.words.join(' '));
}

/** The first AISHELL utterance of at least `minChars` characters (about 2-4 s). */
export function mandarinRecording(minChars = 6): Promise<Recording> {
  const sentence = aishellTranscripts().find((s) => [...s.text].length >= minChars);
  if (!sentence) throw new Error(`no AISHELL sentence of ${minChars} characters`);
  return load(aishellFile(sentence.id), sentence.text);
}

/** The same 16 kHz recording through a telephone band: 8 kHz and back to 16 kHz. */
export function narrowband(a: DecodedAudio): DecodedAudio {
  const f = Float32Array.from(a.pcm, (v) => v / 32768);
  return { ...a, pcm: floatToInt16(resample(resample(f, 16000, 8000), 8000, 16000)) };
}

/** `samples` of near-silence (a low dither, as a quiet room records). */
export function quiet(samples: number): Int16Array {
  return Int16Array.from({ length: samples }, (_, i) => ((i * 7919) % 5) - 2);
}
