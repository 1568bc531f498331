/**
 * From the request's expressive fields to numbers: speed, pitch and volume scales, the rate
 * per genre, and the emotion chosen from `emotion`, `emoVector` or `style` (spec, TTS table: `emotion`
 * wins over both; an explicit `speed` wins over the faster rate of `energetic`).
 */
import type { Emotion, Genre } from './types.js';

/** Speed 0..100 to a rate multiplier: 0 → 0.6, 50 → 1, 100 → 1.6, linear on each half (spec). */
export function speedFactor(speed: number): number {
  return speed <= 50 ? 0.6 + (0.4 * speed) / 50 : 1 + (0.6 * (speed - 50)) / 50;
}

/** Pitch 0..100 to an F0 multiplier: ±4 semitones at the ends, 50 = the voice's own pitch. */
export function pitchFactor(pitch: number): number {
  return Math.pow(2, ((pitch - 50) / 50) * (4 / 12));
}

/** Volume 0..100 to the target peak (0..1): 50 = −6 dBFS, ±6 dB at the ends. */
export function volumePeak(volume: number): number {
  return Math.min(0.99, 0.5 * Math.pow(10, (((volume - 50) / 50) * 6) / 20));
}

/** Characters per second at speed 50 (spec, TTS table `speed`). */
export const CHARS_PER_SEC: Record<Genre, number> = { classical_poem: 1.75, prose: 3 };

export interface EmotionEffect {
  rate: number;
  f0: number;
  range: number;
}

/** How each emotion moves rate, F0 level and F0 range (Scherer 2003, Speech Communication 40). */
export const EMOTION_EFFECT: Record<Emotion, EmotionEffect> = {
  neutral: { rate: 1, f0: 1, range: 1 },
  warm: { rate: 0.94, f0: 0.97, range: 0.9 },
  energetic: { rate: 1.15, f0: 1.08, range: 1.3 },
};

/** Order of emoVector entries (spec). */
export const EMO_DIMENSIONS = ['happy', 'angry', 'sad', 'fear', 'disgust', 'low', 'surprised', 'calm'] as const;
const VECTOR_EMOTION: Record<(typeof EMO_DIMENSIONS)[number], Emotion> = {
  happy: 'energetic',
  angry: 'energetic',
  surprised: 'energetic',
  sad: 'warm',
  low: 'warm',
  calm: 'warm',
  fear: 'neutral',
  disgust: 'neutral',
};

/** Warnings of the spec for a vector: sum above 0.7, or above 0.55 when anger is in the mix. */
export function emoVectorWarnings(v: number[]): string[] {
  const sum = v.reduce((a, b) => a + b, 0);
  const angerMix = v[1] > 0;
  if (angerMix && sum > 0.55) return [`emoVector sum ${sum.toFixed(2)} exceeds 0.55 for an anger-type mix; speaker similarity degrades`];
  if (sum > 0.7) return [`emoVector sum ${sum.toFixed(2)} exceeds 0.7; speaker similarity degrades`];
  return [];
}

/** The dominant dimension's emotion; null for an all-zero vector. */
export function emotionFromVector(v: number[]): Emotion | null {
  let best = -1;
  for (let i = 0; i < v.length; i++) if (v[i] > 0 && (best < 0 || v[i] > v[best])) best = i;
  return best < 0 ? null : VECTOR_EMOTION[EMO_DIMENSIONS[best]];
}

const STYLE_KEYWORDS: [Emotion, RegExp][] = [
  ['energetic', /激情|热情|活泼|兴奋|开心|欢快|高兴|激昂|有活力|响亮|energetic|excited|lively|cheerful|happy|passionate|enthusiastic|upbeat/iu],
  ['warm', /温柔|温暖|亲切|柔和|舒缓|平静|温和|轻柔|安静|gentle|warm|soft|calm|soothing|kind|tender|friendly|relaxed/iu],
  ['neutral', /中性|平淡|标准|新闻|播报|客观|neutral|plain|news|formal|objective/iu],
];

/** Parses a natural-language style instruction into an emotion by keywords; null if none match. */
export function emotionFromStyle(style: string): Emotion | null {
  let found: { e: Emotion; at: number } | null = null;
  for (const [e, re] of STYLE_KEYWORDS) {
    const m = re.exec(style);
    if (m && (found === null || m.index < found.at)) found = { e, at: m.index };
  }
  return found?.e ?? null;
}

/** `emotion` wins, then `emoVector`, then `style`; neutral when none says anything. */
export function resolveEmotion(req: { emotion?: Emotion; emoVector?: number[]; style?: string }): Emotion {
  if (req.emotion) return req.emotion;
  const fromVector = req.emoVector ? emotionFromVector(req.emoVector) : null;
  if (fromVector) return fromVector;
  return (req.style ? emotionFromStyle(req.style) : null) ?? 'neutral';
}
