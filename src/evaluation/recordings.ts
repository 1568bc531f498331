/**
 * Uploaded recordings kept for the compat `attachAudioUrl=1` option: written under
 * `$KOUYU_DATA_DIR/recordings/`, downloadable without credentials at
 * `/compat/audio/<recordId>.<ext>` for 7 days (spec Limits), then gone: older files are
 * refused at once and removed by an hourly sweep.
 * `save` answers the path; the compat routes make it absolute (KOUYU_PUBLIC_BASE_URL, else
 * their request's or handshake's protocol and Host: http/public-url.ts).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.js';
import type { RecordingStore } from './service.js';

export const RECORDING_RETENTION_MS = 7 * 24 * 3600 * 1000;
const SWEEP_INTERVAL_MS = 3600 * 1000;
const FILE_PATTERN = /^((?:eval|conn|open)_[A-Za-z0-9_-]{8,40})\.([a-z0-9]{2,5})$/;
const TYPES: Record<string, string> = {
  wav: 'audio/wav', mp3: 'audio/mpeg', m4a: 'audio/mp4', aac: 'audio/aac', amr: 'audio/amr', '3gp': 'audio/3gpp',
  ogg: 'audio/ogg', opus: 'audio/ogg', webm: 'audio/webm', flac: 'audio/flac', wma: 'audio/x-ms-wma',
};

export function createRecordingStore(app: FastifyInstance, dataDir: string, now: () => number = Date.now): RecordingStore {
  const dir = path.join(dataDir, 'recordings');
  const fresh = (mtimeMs: number) => now() - mtimeMs < RECORDING_RETENTION_MS;

  async function sweep(): Promise<void> {
    let names: string[];
    try {
      names = await fs.readdir(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const file = path.join(dir, name);
      const stat = await fs.stat(file).catch(() => null);
      if (stat && !fresh(stat.mtimeMs)) await fs.rm(file, { force: true });
    }
  }
  const timer = setInterval(() => void sweep(), SWEEP_INTERVAL_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));

  app.get<{ Params: { file: string } }>(
    '/compat/audio/:file',
    { schema: { summary: 'A recording kept for attachAudioUrl=1 (7 days, no credentials)', tags: ['compat'] } },
    async (request, reply) => {
      const match = FILE_PATTERN.exec(request.params.file);
      const file = match ? path.join(dir, request.params.file) : null;
      const stat = file ? await fs.stat(file).catch(() => null) : null;
      if (!file || !stat || !fresh(stat.mtimeMs)) throw new ApiError('NOT_FOUND', `recording ${request.params.file} not found (kept 7 days)`);
      return reply.type(TYPES[match![2]] ?? 'application/octet-stream').send(await fs.readFile(file));
    },
  );

  return {
    async save(recordId, audio, format) {
      await fs.mkdir(dir, { recursive: true });
      const ext = TYPES[format] ? format : 'bin';
      const name = `${recordId}.${ext}`;
      const tmp = path.join(dir, `.${name}.tmp`);
      await fs.writeFile(tmp, audio);
      await fs.rename(tmp, path.join(dir, name));
      return `/compat/audio/${name}`;
    },
  };
}
