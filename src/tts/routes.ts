/**
 * `POST /api/v1/tts/generate` (spec TTS table) and the console voice endpoints.
 * Synthesis runs in the synthesis service's worker threads; results are stored as files and
 * answered with their address. Metering: characters synthesised under `tts.standard`.
 */
import type { FastifyInstance } from 'fastify';
import { decodeAudio } from '../audio/decode.js';
import { ApiError, invalid } from '../errors.js';
import { envelope } from '../http/envelope.js';
import { MultipartBody } from '../http/multipart.js';
import { ttsUsage } from '../metering/meters.js';
import type { SpeechServices } from '../speech.js';
import { buildVoiceProfile, checkReferenceDuration, closestBaseVoice } from '../synthesis/profile.js';
import type { SynthesisLanguage } from '../synthesis/types.js';
import { validateSynthesisRequest } from '../synthesis/validate.js';
import { findSystemVoice } from '../synthesis/voices.js';
import type { Storage } from '../storage/types.js';
import type { AudioStore } from './audio-store.js';
import { listVoices, tenantItem, tenantVoices } from './voices.js';

export interface TtsDeps {
  storage: Storage;
  speech: SpeechServices;
  audio: AudioStore;
}

const VOICE_LANGUAGES: Record<string, SynthesisLanguage> = { zh: 'zh-CN', 'zh-CN': 'zh-CN', en: 'en-US', 'en-US': 'en-US', 'en-GB': 'en-GB' };

export function registerTtsRoutes(app: FastifyInstance, deps: TtsDeps): void {
  app.post(
    '/api/v1/tts/generate',
    {
      config: { auth: ['appKey', 'bearer', 'signature'], signedParams: 'tts', idempotent: true, rateLimit: 'ttsAsr' },
      schema: { summary: 'Synthesise standard audio', tags: ['tts'], body: { type: 'object' } },
    },
    async (request) => {
      const principal = request.principal!;
      const voices = await tenantVoices(deps.storage.voices, principal.tenantId);
      const req = voices.resolve(validateSynthesisRequest(request.body, voices.known));
      const result = await deps.speech.synthesis().synthesize(req);
      const audioUrl = await deps.audio.save(result.audio, result.format);
      await deps.storage.ledger.commitSuccess({ usage: ttsUsage(principal, req.text) });
      return envelope({ audioUrl, duration: result.durationSec.toFixed(2), format: result.format, warnings: result.warnings });
    },
  );

  app.get('/api/v1/console/tts/voices', { config: { auth: ['bearer'] }, schema: { summary: 'System and own private voices', tags: ['console'] } }, async (request) =>
    envelope(await listVoices(deps.storage.voices, request.principal!.tenantId)),
  );

  app.post(
    '/api/v1/console/tts/voices',
    { config: { auth: ['bearer'] }, schema: { summary: 'Create a private voice from a reference recording', tags: ['console'], consumes: ['multipart/form-data'] } },
    async (request) => {
      const body = request.body;
      if (!(body instanceof MultipartBody)) throw invalid('multipart/form-data with audio, name, language, gender and promptText is required');
      const f = body.values();
      const audio = body.file('audio');
      if (!audio || audio.data.length === 0) throw invalid('missing audio (the reference recording)');
      const name = (f.name ?? '').trim();
      if (!name || [...name].length > 64) throw invalid('name is required (at most 64 characters)');
      const language = VOICE_LANGUAGES[f.language ?? ''];
      if (!language) throw invalid('language must be zh, zh-CN, en, en-US or en-GB');
      if (f.gender !== undefined && f.gender !== '' && f.gender !== 'female' && f.gender !== 'male') throw invalid('gender must be female or male');
      const promptText = (f.promptText ?? '').trim();
      if (!promptText) throw invalid('promptText (the text spoken in the reference audio) is required');
      const decoded = await decodeAudio(audio.data);
      const warnings = checkReferenceDuration(decoded.durationSec);
      let profile;
      try {
        profile = buildVoiceProfile(decoded.pcm, decoded.sampleRate, promptText, language);
      } catch (err) {
        throw invalid(`reference audio unusable: ${err instanceof Error ? err.message : String(err)}`);
      }
      if (f.gender === 'female' || f.gender === 'male') profile.gender = f.gender;
      const voice = await deps.storage.voices.create({
        tenantId: request.principal!.tenantId,
        name,
        language,
        gender: profile.gender,
        promptText,
        baseVoice: closestBaseVoice(profile).id,
        profile,
      });
      if (!voice) throw new ApiError('CONFLICT', `a voice named "${name}" already exists`);
      return envelope({
        ...tenantItem(voice),
        baseVoice: voice.baseVoice,
        profile: { medianF0: round(profile.medianF0), f0RangeSt: round(profile.f0RangeSt), rate: round(profile.rate), timbreRatio: round(profile.timbreRatio) },
        warnings,
      });
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/api/v1/console/tts/voices/:id',
    { config: { auth: ['bearer'] }, schema: { summary: 'Delete a private voice (irreversible)', tags: ['console'] } },
    async (request) => {
      const { id } = request.params;
      if (findSystemVoice(id)) throw new ApiError('FORBIDDEN', 'system voices cannot be deleted');
      if (!(await deps.storage.voices.delete(request.principal!.tenantId, id))) throw new ApiError('NOT_FOUND', `voice ${id} not found`);
      return envelope({ id, deleted: true });
    },
  );
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}
