/**
 * Synthesised audio (TTS results and evaluation standard audio), stored as files under
 * `$KOUYU_DATA_DIR/tts/` and served without credentials at `/tts/audio/<id>.<ext>` (spec
 * "GET /tts/audio/{id}.{ext}"). Ids are random (128 bits), so an address is not guessable.
 * Files are kept like evaluation records (no purge in this version; see README).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.js';
import { randomId } from '../storage/ids.js';

export const AUDIO_TYPES: Record<string, string> = { wav: 'audio/wav', mp3: 'audio/mpeg', ogg: 'audio/ogg' };
const FILE_PATTERN = /^(a_[A-Za-z0-9_-]{16,40})\.(wav|mp3|ogg)$/;

export interface AudioStore {
  /** Writes the audio and returns its relative address `/tts/audio/<id>.<ext>`. */
  save(audio: Buffer, ext: string): Promise<string>;
  read(file: string): Promise<Buffer | null>;
}

export function createAudioStore(dataDir: string): AudioStore {
  const dir = path.join(dataDir, 'tts');
  let ready: Promise<unknown> | null = null;
  return {
    async save(audio, ext) {
      ready ??= fs.mkdir(dir, { recursive: true });
      await ready;
      const file = `${randomId('a_', 16)}.${ext}`;
      // Written under a temporary name and renamed, so a half-written file is never served.
      const tmp = path.join(dir, `.${file}.tmp`);
      await fs.writeFile(tmp, audio);
      await fs.rename(tmp, path.join(dir, file));
      return `/tts/audio/${file}`;
    },
    async read(file) {
      if (!FILE_PATTERN.test(file)) return null;
      try {
        return await fs.readFile(path.join(dir, file));
      } catch {
        return null;
      }
    },
  };
}

export function registerAudioRoute(app: FastifyInstance, store: AudioStore): void {
  app.get<{ Params: { file: string } }>(
    '/tts/audio/:file',
    { schema: { summary: 'Synthesised audio (no credentials)', tags: ['tts'], params: { type: 'object', properties: { file: { type: 'string' } } } } },
    async (request, reply) => {
      const audio = await store.read(request.params.file);
      if (!audio) throw new ApiError('NOT_FOUND', `audio ${request.params.file} not found`);
      const ext = request.params.file.split('.').pop()!;
      return reply.type(AUDIO_TYPES[ext]).header('Cache-Control', 'public, max-age=86400, immutable').send(audio);
    },
  );
}
