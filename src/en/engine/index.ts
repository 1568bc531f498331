export { createEnglishEngine, type EnglishEngine, type EnglishEngineDeps } from './engine.js';
export { presentEnglishReadAloud } from './present.js';
export { createInProcessEnglishBackend } from './sphinx-backend.js';
export type { EnglishAssessment, WordAssessment, PhoneAssessment, SentenceAssessment, Dimensions } from './types.js';
export { presentConnected } from '../connected/present.js';
export type { ConnectedResult } from '../connected/assess.js';
