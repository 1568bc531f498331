/**
 * The system voice catalogue (spec, "Voice (TTS)": `female`, `male`, the `sv_*` table, and
 * `xiaoyan`, `xiaofeng` named by the schema).
 *
 * How a voice is made: every voice is one of two engines shaped by four numbers.
 * - Mandarin: the recorded Ekho speaker (ekho/engine.ts), except `xiaofeng`, which is eSpeak
 *   NG's `cmn-latn-pinyin`. English: eSpeak NG `en-us` / `en-gb`.
 * - `f0`: target median F0 in Hz. Ekho: TD-PSOLA sets it exactly; eSpeak: its base-pitch
 *   parameter, chosen from a measured calibration table.
 * - `range`: F0 excursions around the median, scaled in log-F0 (Ekho only; eSpeak keeps its own
 *   intonation model).
 * - `rate`: multiplier of the standard speaking rate.
 * - `timbre`: formant scale relative to a typical speaker of the voice's gender. The engine's
 *   base speaker is female (Ekho) or male (eSpeak); a voice of the other gender also gets the
 *   usual female/male formant ratio (about 1.17; Peterson & Barney 1952). The formant shift is
 *   made by resampling (which scales formants, F0 and tempo together) after synthesising with
 *   F0 and tempo pre-divided by the same factor, so only the formants move.
 */
import type { EspeakVariant } from './espeak/engine.js';
import type { SynthesisLanguage } from './types.js';

export type EngineName = 'ekho' | 'espeak';
export type Gender = 'female' | 'male';

export interface VoiceDef {
  id: string;
  gender: Gender;
  styleGroup: string;
  languages: SynthesisLanguage[];
  /** Engine per language family. */
  zhEngine: EngineName;
  f0: number;
  range: number;
  rate: number;
  timbre: number;
  /** eSpeak voice variant (formants, voice quality) for English and eSpeak Mandarin. */
  variant: EspeakVariant;
}

const ALL: SynthesisLanguage[] = ['zh-CN', 'en-US', 'en-GB'];

function v(id: string, gender: Gender, styleGroup: string, f0: number, range: number, rate: number, timbre: number, variant: EspeakVariant): VoiceDef {
  return { id, gender, styleGroup, languages: ALL, zhEngine: 'ekho', f0, range, rate, timbre, variant };
}

export const SYSTEM_VOICES: readonly VoiceDef[] = [
  v('female', 'female', 'general, default', 200, 1.0, 1.0, 1.0, 'f3'),
  v('male', 'male', 'general, default', 120, 0.9, 1.0, 1.0, 'm6'),
  v('sv_f_jiaoshi', 'female', 'classroom teaching (gentle teacher)', 205, 0.85, 0.9, 1.0, 'f5'),
  v('sv_f_jiqing', 'female', 'classroom teaching (passionate teacher)', 235, 1.35, 1.1, 1.03, 'f2'),
  v('sv_m_gushi', 'male', 'narration (storyteller)', 125, 1.25, 0.9, 0.98, 'm2'),
  v('sv_m_boyin', 'male', 'broadcast reading', 132, 1.0, 1.05, 1.02, 'm5'),
  v('sv_f_boyin', 'female', 'broadcast reading', 210, 1.0, 1.05, 1.02, 'f2'),
  v('sv_f_zhubo', 'female', 'broadcast reading', 225, 1.05, 1.1, 1.05, 'f5'),
  v('sv_m_jieshuo', 'male', 'commentary (history)', 110, 0.95, 0.92, 0.95, 'm1'),
  v('sv_m_xuanchuan', 'male', 'promotional', 140, 1.3, 1.12, 1.03, 'm5'),
  v('sv_m_xuanchuan2', 'male', 'promotional', 150, 1.2, 1.18, 1.05, 'm2'),
  v('sv_m_guanggao', 'male', 'promotional', 135, 1.4, 1.2, 1.0, 'm6'),
  v('sv_f_zhuanti', 'female', 'promotional', 220, 1.2, 1.0, 1.06, 'f3'),
  v('sv_m_chenwen', 'male', 'calm and warm', 105, 0.75, 0.88, 0.95, 'm3'),
  v('sv_m_wennuan', 'male', 'calm and warm', 118, 0.85, 0.92, 0.97, 'm6'),
  v('sv_f_wenrou', 'female', 'calm and warm', 195, 0.8, 0.88, 0.98, 'f5'),
  v('sv_f_diantai', 'female', 'calm and warm', 185, 0.9, 0.95, 0.96, 'f2'),
  v('sv_f_kaixin', 'female', 'emotional color', 245, 1.45, 1.15, 1.08, 'f5'),
  v('sv_m_aiyuan', 'female', 'emotional color', 175, 0.7, 0.82, 1.0, 'f3'),
  { ...v('xiaoyan', 'female', 'general (Chinese)', 215, 1.1, 1.0, 1.04, 'f3'), languages: ['zh-CN'] },
  { ...v('xiaofeng', 'male', 'general (Chinese)', 115, 1.0, 1.0, 1.0, 'm6'), languages: ['zh-CN'], zhEngine: 'espeak' },
];

const BY_ID = new Map(SYSTEM_VOICES.map((x) => [x.id, x]));

export function findSystemVoice(id: string): VoiceDef | undefined {
  return BY_ID.get(id);
}

/** Female/male ratio of formant frequencies used when the engine's speaker differs in gender. */
export const GENDER_FORMANT_RATIO = 1.17;

/** The speaker gender each engine was built from. */
export const ENGINE_GENDER: Record<EngineName, Gender> = { ekho: 'female', espeak: 'male' };

/**
 * The formant scale to apply after the engine (1 = untouched). eSpeak voices get their timbre
 * from the variant instead: resampling eSpeak's output made it markedly harder to recognise
 * (English read-back scores fell from about 90 to 40–55).
 */
export function formantScale(voice: Pick<VoiceDef, 'gender' | 'timbre'>, engine: EngineName): number {
  if (engine === 'espeak') return 1;
  const base = ENGINE_GENDER[engine];
  const gender = base === voice.gender ? 1 : voice.gender === 'female' ? GENDER_FORMANT_RATIO : 1 / GENDER_FORMANT_RATIO;
  return gender * voice.timbre;
}

/** Listing items for the console (spec: voiceId, name, ownerType, language, gender, status). */
export function systemVoiceListing(): { voiceId: string; name: string; ownerType: 'system'; language: string; gender: Gender; status: string; styleGroup: string }[] {
  return SYSTEM_VOICES.map((x) => ({
    voiceId: x.id,
    name: x.id,
    ownerType: 'system',
    language: x.languages.join(','),
    gender: x.gender,
    status: 'available',
    styleGroup: x.styleGroup,
  }));
}
