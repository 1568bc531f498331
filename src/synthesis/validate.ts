/**
 * Validation of a TTS request body against every rule of the spec's `POST /api/v1/tts/generate`
 * table and its Limits (text ≤ 1000 characters, style ≤ 200, pinyin ≤ 8000). Each violation
 * throws `invalid(message)` (400, code 40001) naming the field.
 *
 * Voice existence is checked here against the system catalogue only when `knownVoice` is not
 * given; the route passes its own check that also accepts the tenant's private voices (and
 * answers another tenant's voice exactly like an unknown one).
 */
import { invalid } from '../errors.js';
import type { Emotion, Genre, SynthesisFormat, SynthesisLanguage, SynthesisRequest } from './types.js';
import { findSystemVoice } from './voices.js';
import { toZhTokens } from './zh/syllables.js';
import { parseRefPinyin } from '../zh/text/index.js';
import { ApiError } from '../errors.js';

const LANGUAGES: SynthesisLanguage[] = ['zh-CN', 'en-US', 'en-GB'];
const FORMATS: SynthesisFormat[] = ['wav', 'mp3', 'ogg'];
const EMOTIONS: Emotion[] = ['neutral', 'warm', 'energetic'];
const GENRES: Genre[] = ['classical_poem', 'prose'];
export const TEXT_MAX = 1000;
export const STYLE_MAX = 200;
export const PINYIN_MAX = 8000;
const SAMPLE_RATES = [8000, 11025, 16000, 22050, 24000, 32000, 44100, 48000];

function oneOf<T extends string>(body: Record<string, unknown>, field: string, allowed: T[], fallback?: T): T | undefined {
  const v = body[field];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'string' || !allowed.includes(v as T)) throw invalid(`${field} must be one of ${allowed.join(', ')}`);
  return v as T;
}

function level(body: Record<string, unknown>, field: string): number {
  const v = body[field];
  if (v === undefined || v === null) return 50;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 100) throw invalid(`${field} must be an integer from 0 to 100`);
  return v;
}

function chars(s: string): number {
  return [...s].length; // code points, so a character outside the BMP counts once
}

function optionalString(body: Record<string, unknown>, field: string, max: number): string | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw invalid(`${field} must be a string`);
  if (chars(v) > max) throw invalid(`${field} must be at most ${max} characters`);
  return v;
}

function emoVector(body: Record<string, unknown>): number[] | undefined {
  const v = body.emoVector;
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.length !== 8) throw invalid('emoVector must be an array of 8 numbers');
  for (const x of v) {
    if (typeof x !== 'number' || !Number.isFinite(x) || x < 0 || x > 1.2) throw invalid('emoVector values must be numbers from 0 to 1.2');
  }
  return v as number[];
}

/**
 * Returns the typed request, with defaults applied (language zh-CN, voice female, format mp3,
 * speed/pitch/volume 50), or throws 40001.
 */
export function validateSynthesisRequest(body: unknown, knownVoice: (id: string) => boolean = (id) => !!findSystemVoice(id)): SynthesisRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('body must be a JSON object');
  const b = body as Record<string, unknown>;
  if (typeof b.text !== 'string' || b.text.trim() === '') throw invalid('text is required');
  if (chars(b.text) > TEXT_MAX) throw invalid(`text must be at most ${TEXT_MAX} characters`);
  const voice = b.voice === undefined || b.voice === null ? 'female' : b.voice;
  if (typeof voice !== 'string' || !knownVoice(voice)) throw invalid(`unknown voice: ${String(voice)}`);
  const sampleRate = b.sampleRate;
  if (sampleRate !== undefined && sampleRate !== null && (typeof sampleRate !== 'number' || !SAMPLE_RATES.includes(sampleRate))) {
    throw invalid(`sampleRate must be one of ${SAMPLE_RATES.join(', ')} Hz`);
  }
  const req: SynthesisRequest = {
    text: b.text,
    language: oneOf(b, 'language', LANGUAGES, 'zh-CN')!,
    voice,
    format: oneOf(b, 'format', FORMATS, 'mp3')!,
    speed: level(b, 'speed'),
    speedExplicit: b.speed !== undefined && b.speed !== null,
    pitch: level(b, 'pitch'),
    volume: level(b, 'volume'),
  };
  if (typeof sampleRate === 'number') req.sampleRate = sampleRate;
  const emotion = oneOf(b, 'emotion', EMOTIONS);
  if (emotion) req.emotion = emotion;
  const vector = emoVector(b);
  if (vector) req.emoVector = vector;
  const style = optionalString(b, 'style', STYLE_MAX);
  if (style !== undefined) req.style = style;
  const genre = oneOf(b, 'genre', GENRES);
  if (genre) req.genre = genre;
  const pinyin = optionalString(b, 'pinyin', PINYIN_MAX);
  if (pinyin !== undefined) {
    checkPinyin(pinyin);
    req.pinyin = pinyin;
  }
  // Mandarin text must have something readable, and an override one syllable per character.
  if (req.language === 'zh-CN') toZhTokens(req.text, req.pinyin);
  return req;
}

/**
 * The override must be numeric-tone pinyin. For Mandarin, toZhTokens then checks one syllable
 * per readable character as the Mandarin text layer counts them (digits are read out, Latin
 * letters are not); other languages ignore the override.
 */
function checkPinyin(pinyin: string): void {
  try {
    parseRefPinyin(pinyin);
  } catch (err) {
    if (err instanceof ApiError) throw invalid(err.message.replace('refPinyin', 'pinyin'));
    throw err;
  }
}
