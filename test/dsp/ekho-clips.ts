/**
 * Reads Ekho's human-recorded Mandarin syllables (models/ekho-mandarin, see its SOURCE.md)
 * for pitch tests: syllables.tsv gives pinyin with tone, byte offset and length of each clip in
 * pinyin.voice; each clip is a complete GSM WAV file. Clips are written to a temporary folder
 * and decoded by one ffmpeg process per batch (many inputs, many outputs) to keep tests fast;
 * the folder is removed afterwards.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { resolveModels } from '../../src/models.js';
import { REPO_ROOT, tempDir } from '../helpers/app.js';

export interface EkhoClip {
  pinyin: string;
  tone: number;
  pcm: Int16Array;
}

export function ekhoIndex(): { pinyin: string; offset: number; bytes: number }[] {
  const { ekho } = resolveModels(loadConfig({ KOUYU_LOG_LEVEL: 'silent' }, REPO_ROOT).modelsDir);
  const lines = fs.readFileSync(ekho.index, 'utf8').trim().split('\n').slice(1);
  return lines.map((l) => {
    const [pinyin, offset, bytes] = l.split('\t');
    return { pinyin, offset: Number(offset), bytes: Number(bytes) };
  });
}

/** Decodes the named clips to 16 kHz mono PCM. */
export function loadEkhoClips(names: string[]): EkhoClip[] {
  const { ekho } = resolveModels(loadConfig({ KOUYU_LOG_LEVEL: 'silent' }, REPO_ROOT).modelsDir);
  const index = new Map(ekhoIndex().map((e) => [e.pinyin, e]));
  const voice = fs.readFileSync(ekho.voice);
  const dir = tempDir('kouyu-ekho-');
  try {
    const out: EkhoClip[] = [];
    for (let b = 0; b < names.length; b += 100) {
      const batch = names.slice(b, b + 100);
      const args = ['-v', 'fatal', '-y']; // GSM clips end in a short packet ffmpeg reports but decodes around
      batch.forEach((name, k) => {
        const e = index.get(name);
        if (!e) throw new Error(`no Ekho clip for ${name}`);
        fs.writeFileSync(path.join(dir, `${k}.wav`), voice.subarray(e.offset, e.offset + e.bytes));
        args.push('-f', 'wav', '-i', path.join(dir, `${k}.wav`));
      });
      batch.forEach((_, k) => args.push('-map', `${k}:a`, '-f', 's16le', '-ac', '1', '-ar', '16000', path.join(dir, `${k}.raw`)));
      execFileSync('ffmpeg', args);
      batch.forEach((name, k) => {
        const buf = fs.readFileSync(path.join(dir, `${k}.raw`));
        const pcm = new Int16Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length));
        out.push({ pinyin: name, tone: Number(name.slice(-1)), pcm });
      });
    }
    return out;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
