/**
 * Public surface of the audio layer: intake (decode, streaming), quality warnings and voice
 * activity. Other parts import from here rather than from the individual files.
 */
export { runProcess, type RunOptions, type RunResult } from './process.js';
export { detectFormat, type AudioFormat } from './format.js';
export {
  decodeAudio,
  minDurationError,
  LOW_SAMPLE_RATE_WARNING,
  MAX_AUDIO_BYTES,
  MAX_AUDIO_SECONDS,
  TARGET_RATE,
  type DecodedAudio,
  type DecodeOptions,
} from './decode.js';
export { StreamingIntake, type StreamingIntakeOptions } from './stream.js';
export { analyzeQuality, QUALITY_WARNINGS, QUALITY_THRESHOLDS, type QualityMetrics, type QualityWarning } from './quality.js';
export { detectSpeech, energyVad, speechSeconds, type SpeechSegment, type VoiceActivityDetector } from './vad.js';
export { SileroVad } from './silero-vad.js';
export { resample, SincResampler } from './resample.js';
