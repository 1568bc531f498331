export { createEnglishEngine, type EnglishEngine, type EnglishEngineDeps } from './engine.js';
export { toAssessment } from './assessment.js';
export type { EnglishAssessment, WordAssessment, PhoneAssessment, SentenceAssessment } from './types.js';
export { presentConnected } from '../connected/present.js';
export type { ConnectedResult } from '../connected/assess.js';
