/** Minimal typing of the Emscripten build of eSpeak NG (only what the engine calls). */
declare module '@echogarden/espeak-ng-emscripten' {
  export interface ESpeakNGWorkerInstance {
    set_voice(name: string): number;
    set_rate(wordsPerMinute: number): void;
    set_pitch(pitch: number): void;
    get_samplerate(): number;
    synthesize(text: string, callback: (samples: Int16Array | null, events: unknown[]) => number): void;
  }
  export interface ESpeakNGModule {
    eSpeakNGWorker: new () => ESpeakNGWorkerInstance;
  }
  const factory: (options?: Record<string, unknown>) => Promise<ESpeakNGModule>;
  export default factory;
}
