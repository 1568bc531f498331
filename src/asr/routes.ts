/**
 * POST /api/v1/asr/recognize — standalone speech-to-text (spec "POST /api/v1/asr/recognize"):
 * multipart `audio` and `language` (zh, default, or en); envelope with text, language,
 * duration (s), words (Chinese per character) with start_ms/end_ms, and confidence (English;
 * null for Chinese). Metered as `asr.stream` audio seconds; 60 calls per minute per key.
 */
import type { FastifyInstance } from 'fastify';
import { decodeAudio } from '../audio/decode.js';
import { FRAMES_PER_SECOND } from '../acoustic/types.js';
import { invalid } from '../errors.js';
import { envelope } from '../http/envelope.js';
import { MultipartBody } from '../http/multipart.js';
import { asrUsage } from '../metering/meters.js';
import type { SpeechServices } from '../speech.js';
import type { Storage } from '../storage/types.js';

/** Recognition needs at least wide-band audio (spec: sample rate at least 16 kHz). */
export const ASR_MIN_SAMPLE_RATE = 16000;
const MS_PER_FRAME = 1000 / FRAMES_PER_SECOND;

export function registerAsrRoute(app: FastifyInstance, deps: { storage: Storage; speech: SpeechServices }): void {
  app.post(
    '/api/v1/asr/recognize',
    {
      config: { auth: ['appKey', 'bearer', 'signature'], signedParams: 'compat', idempotent: true, rateLimit: 'ttsAsr' },
      schema: { summary: 'Speech to text (no scoring)', tags: ['asr'], consumes: ['multipart/form-data'] },
    },
    async (request) => {
      const body = request.body;
      if (!(body instanceof MultipartBody)) throw invalid('multipart/form-data with an audio part is required');
      const language = body.field('language')?.value || 'zh';
      if (language !== 'zh' && language !== 'en') throw invalid('language must be zh or en');
      const audio = body.file('audio');
      if (!audio || audio.data.length === 0) throw invalid(audio ? 'audio is empty' : 'missing audio');
      const decoded = await decodeAudio(audio.data);
      if (decoded.source.sampleRate < ASR_MIN_SAMPLE_RATE) {
        throw invalid(`audio sample rate must be at least 16 kHz (got ${decoded.source.sampleRate} Hz)`);
      }
      const backend = await deps.speech.acoustic();
      const result = await backend.recognize(language, decoded.pcm);
      const principal = request.principal!;
      await deps.storage.ledger.commitSuccess({ usage: asrUsage(principal, decoded.durationSec) });
      return envelope({
        text: result.text,
        language,
        duration: Math.round(decoded.durationSec * 1000) / 1000,
        words: result.words.map((w) => ({ word: w.word, start_ms: w.startFrame * MS_PER_FRAME, end_ms: w.endFrame * MS_PER_FRAME })),
        confidence: language === 'en' ? result.confidence : null,
      });
    },
  );
}
