/**
 * Incremental decoding of one real-time session against its reference, on a decoder the session
 * holds for its whole life (PocketSphinx keeps the search state of an utterance inside the
 * decoder, so it cannot serve anything else meanwhile).
 *
 * Audio is fed as it arrives (ps_process_raw without full_utt: the search advances frame by
 * frame), and after each chunk the partial best path (ps_get_hyp) is placed on the reference.
 * Synchronous and CPU-bound: it runs in a progress worker thread (progress-worker.ts).
 */
import { SAMPLE_RATE, type AcousticLang, type AlignUnit, type ProgressUpdate } from './types.js';
import { SKIP_WEIGHT, compileProgressGrammar, mergeReading, readHypothesis, type ProgressGrammar, type ProgressReading } from './progress-grammar.js';
import type { Beams, SphinxDecoder } from './sphinx/decoder.js';

const PROGRESS_SEARCH = 'progress';
/** Audio positions (ms) at which normalisation is re-measured (see restart()). */
const RESTART_AT_MS = [1000, 2000, 4000];

/**
 * Beams of the progress search. The reference grammar has few paths, and pruning the right one
 * away would freeze the progress, so the wide alignment beams are used (see sphinx/engine.ts);
 * the search stays far faster than real time because the grammar is small.
 */
export const PROGRESS_BEAMS: Beams = { beam: 1e-80, pbeam: 1e-80, wbeam: 1e-60 };

export class ProgressTracker {
  private grammar: ProgressGrammar | null = null;
  private reading: ProgressReading = { readUnits: 0, matched: [] };
  private samples = 0;
  private active = false;
  /** The session's audio so far, re-fed after a normalisation restart (kept up to 4 s). */
  private buffer = new Int16Array((SAMPLE_RATE * 9) / 2);
  private nextRestart = 0;

  constructor(
    readonly lang: AcousticLang,
    private readonly decoder: SphinxDecoder,
    private readonly skipWeight = SKIP_WEIGHT,
  ) {}

  /** Begins a session: installs the reference grammar and starts the utterance. */
  start(reference: readonly AlignUnit[]): void {
    if (this.active) this.stop();
    const grammar = compileProgressGrammar(reference, this.skipWeight);
    for (const [word, phones] of grammar.words) {
      if (!this.decoder.addWord(word, phones)) throw new Error(`pronunciation ${phones.join(' ')} uses a phone the model lacks`);
    }
    this.decoder.setBeams(PROGRESS_BEAMS);
    this.decoder.setJsgf(PROGRESS_SEARCH, grammar.jsgf);
    this.decoder.startUtt();
    this.grammar = grammar;
    this.reading = { readUnits: 0, matched: new Array<boolean>(reference.length).fill(false) };
    this.samples = 0;
    this.nextRestart = 0;
    this.active = true;
  }

  /** Decodes a chunk of 16 kHz mono samples and reports the position reached. */
  push(pcm: Int16Array): ProgressUpdate {
    if (!this.active) throw new Error('progress session is not started');
    if (pcm.length > 0) {
      this.append(pcm);
      if (this.nextRestart < RESTART_AT_MS.length && this.samples >= (RESTART_AT_MS[this.nextRestart] * SAMPLE_RATE) / 1000) {
        this.nextRestart++;
        this.restart();
      } else {
        this.decoder.processRaw(pcm, false);
      }
    }
    return this.update(this.decoder.hypothesis()?.text ?? '');
  }

  /** Ends the utterance (the final best path) and reports the last position. */
  finish(): ProgressUpdate {
    if (!this.active) throw new Error('progress session is not started');
    this.decoder.endUtt();
    this.active = false;
    return this.update(this.decoder.hypothesis()?.text ?? '');
  }

  /** Abandons the utterance, leaving the decoder ready for another session. */
  stop(): void {
    if (!this.active) return;
    this.decoder.endUtt();
    this.active = false;
  }

  /** Keeps the audio only while a restart may still need it (up to the last restart point). */
  private append(pcm: Int16Array): void {
    if (this.nextRestart >= RESTART_AT_MS.length) {
      this.samples += pcm.length;
      return;
    }
    if (this.samples + pcm.length > this.buffer.length) {
      const grown = new Int16Array(Math.max(this.buffer.length * 2, this.samples + pcm.length));
      grown.set(this.buffer.subarray(0, this.samples));
      this.buffer = grown;
    }
    this.buffer.set(pcm, this.samples);
    this.samples += pcm.length;
  }

  /**
   * Cepstral mean normalisation restart. Fed incrementally, the library normalises with a prior
   * mean (the model's -cmninit, which feat.params fixes) until 8 s have passed; on AISHELL
   * that prior is far from the speech (c0 54 against about 34) and the grammar search lost its
   * path within a second on some sentences. A whole-utterance decode of the audio so far leaves
   * its mean in the normaliser; the utterance is then restarted and the audio re-fed, so the
   * live search continues with a mean measured on this speaker and microphone. The grammar
   * search costs about 1% of real time here, so re-feeding a few seconds is cheap.
   */
  private restart(): void {
    const audio = this.buffer.subarray(0, this.samples);
    this.decoder.endUtt();
    this.decoder.decode(audio);
    this.decoder.startUtt();
    this.decoder.processRaw(audio, false);
  }


  private update(hyp: string): ProgressUpdate {
    if (!this.grammar) throw new Error('progress session is not started');
    const words = hyp.split(/\s+/).filter((w) => w !== '');
    this.reading = mergeReading(this.reading, readHypothesis(words, this.grammar.unitWords));
    return {
      readUnits: this.reading.readUnits,
      matched: [...this.reading.matched],
      audioMs: (this.samples * 1000) / SAMPLE_RATE,
      decodedMs: this.decoder.frames() * 10,
    };
  }
}
