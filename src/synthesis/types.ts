/**
 * Contracts of the synthesis capability: the request the TTS service accepts (spec,
 * `POST /api/v1/tts/generate` table), the result it returns, and the tenant voice profile.
 */

export type SynthesisLanguage = 'zh-CN' | 'en-US' | 'en-GB';
export type SynthesisFormat = 'wav' | 'mp3' | 'ogg';
export type Emotion = 'neutral' | 'warm' | 'energetic';
export type Genre = 'classical_poem' | 'prose';

/** Acoustic summary of a speaker, measured from a reference recording (see profile.ts). */
export interface VoiceProfile {
  language: SynthesisLanguage;
  /** Median F0 of voiced frames, Hz. */
  medianF0: number;
  /** Spread of F0: 90th minus 10th percentile, in semitones. */
  f0RangeSt: number;
  /** Syllables (zh) or words (en) per second of speech, pauses excluded. */
  rate: number;
  /** Spectral centroid of voiced frames relative to the base voice's (1 = same timbre). */
  timbreRatio: number;
  /** Mean spectral centroid of voiced frames, Hz (kept for re-basing on another voice). */
  centroidHz: number;
  gender: 'female' | 'male';
}

export interface SynthesisRequest {
  text: string;
  language: SynthesisLanguage;
  voice: string;
  format: SynthesisFormat;
  /** 0..100, 50 = the voice's standard rate. */
  speed: number;
  /** True when the caller sent `speed` (an explicit speed wins over `energetic`). */
  speedExplicit?: boolean;
  /** 0..100, 50 = the voice's standard pitch. */
  pitch: number;
  /** 0..100, 50 = standard loudness. */
  volume: number;
  sampleRate?: number;
  emotion?: Emotion;
  /** [happy, angry, sad, fear, disgust, low, surprised, calm], each 0..1.2. */
  emoVector?: number[];
  style?: string;
  /** Per-character numeric-tone pinyin separated by spaces. */
  pinyin?: string;
  genre?: Genre;
  /** A tenant voice's profile; when set, the voice id names the base voice to adapt. */
  profile?: VoiceProfile;
}

export interface SynthesisResult {
  audio: Buffer;
  format: SynthesisFormat;
  sampleRate: number;
  durationSec: number;
  warnings: string[];
}

/** Raw engine output before voice shaping and encoding. */
export interface EngineAudio {
  /** Mono samples, nominal range −1..1. */
  samples: Float32Array;
  sampleRate: number;
}
