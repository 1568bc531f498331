/**
 * Standard audio for evaluations (`includeStandardAudio=true`): the reference text read by a
 * system voice in the task's language. For Mandarin the readings are the ones the evaluation
 * used: the per-character pinyin of the assessment is passed to synthesis, so a polyphonic
 * character is read as it was judged.
 */
import type { Assessment } from '../assessment/types.js';
import type { EvaluationConfig } from '../evaluation/config.js';
import type { ScoredEvaluation, StandardAudioProvider } from '../evaluation/service.js';
import type { SpeechServices } from '../speech.js';
import type { SynthesisRequest } from '../synthesis/types.js';
import type { AudioStore } from './audio-store.js';

/** Format of standard audio: mp3 keeps responses' downloads small. */
export const STANDARD_AUDIO_FORMAT = 'mp3';

export function createStandardAudio(speech: SpeechServices, audio: AudioStore): StandardAudioProvider {
  return {
    async create(config: EvaluationConfig, scored?: ScoredEvaluation) {
      const req: SynthesisRequest = {
        text: config.referenceText,
        language: config.language,
        voice: 'female',
        format: STANDARD_AUDIO_FORMAT,
        speed: 50,
        pitch: 50,
        volume: 50,
      };
      if (config.genre === 'classical_poem' || config.genre === 'prose') req.genre = config.genre;
      const pinyin = config.language === 'zh-CN' ? assessedPinyin(config, scored?.assessment as Assessment | undefined) : null;
      if (pinyin) req.pinyin = pinyin;
      const result = await speech.synthesis().synthesize(req);
      const url = await audio.save(result.audio, result.format);
      return { url, format: result.format, duration: result.durationSec.toFixed(2) };
    },
  };
}

/**
 * The numeric-tone pinyin the evaluation used, one syllable per Chinese character of the
 * reference. Texts with digits are read through number normalisation on both sides, so they
 * are left to the synthesiser's own (identical) annotation.
 */
function assessedPinyin(config: EvaluationConfig, assessment: Assessment | undefined): string | null {
  if (!assessment || /[0-9０-９]/.test(config.referenceText)) return null;
  const syllables = assessment.units
    .filter((u) => u.charType === 0 && (u.readType === 0 || u.readType === 2))
    .map((u) => u.extra.rawpinyin)
    .filter((p): p is string => typeof p === 'string' && p !== '');
  const han = [...config.referenceText].filter((c) => /\p{Script=Han}/u.test(c)).length;
  return syllables.length === han && han > 0 ? syllables.join(' ') : null;
}
