/**
 * What the whole band says of an English phone: an ensemble of perceptrons
 * (src/classify/ensemble.ts) over the log mel spectrum of the phone's aligned frames
 * (src/dsp/mel-segments.ts: in thirds, with three frames either side, and its length), with a
 * softmax over the acoustic model's phones. The GOP compares a phone's frames with the free
 * phone loop through the same Gaussian mixtures; this classifier was trained on what learners'
 * phones that the experts judged correct sound like, so it is a second, independent opinion of
 * the phone (docs/english-engine.md, "The whole band's opinion of each phone"). Trained by
 * tools/train-phone-en.ts on the speechocean762 train half; the weights live beside this file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { posterior, type Ensemble } from '../../classify/ensemble.js';
import { segmentFeatures } from '../../dsp/mel-segments.js';
import type { ReadingEvidence } from '../engine/evidence.js';

export interface PhoneSpectrumModel extends Ensemble {
  /** The classes in output order: ARPAbet phones without stress. */
  phones: string[];
  /** Training summary for the record. */
  trainedOn: string;
}

export const PHONE_SPECTRUM_FILE = path.join(import.meta.dirname, 'model.json');

/** The posterior of a class held no lower than this before its log is taken. */
const FLOOR = 1e-6;

let shipped: PhoneSpectrumModel | null = null;

/** The shipped model, or another file (a model trained on part of the data). */
export function loadPhoneSpectrumModel(file = PHONE_SPECTRUM_FILE): PhoneSpectrumModel {
  if (file === PHONE_SPECTRUM_FILE && shipped) return shipped;
  const model = JSON.parse(fs.readFileSync(file, 'utf8')) as PhoneSpectrumModel;
  if (!Array.isArray(model.phones) || model.nets[0]?.b2.length !== model.phones.length) throw new Error(`${file}: not a model of the English phones`);
  if (file === PHONE_SPECTRUM_FILE) shipped = model;
  return model;
}

/** A phone's features: its aligned frames as a segment of the spectrum (null: no frames). */
export function spectralFeatures(spectra: readonly Float32Array[], startFrame: number, endFrame: number): number[] | null {
  return startFrame < 0 || endFrame <= startFrame ? null : segmentFeatures(spectra, startFrame, endFrame);
}

/**
 * The log posterior of `phone` over its frames and its margin over the most probable other
 * phone (negative when another phone is likelier); null for a phone the model does not know or
 * a phone without frames.
 */
export function phoneOpinion(model: PhoneSpectrumModel, spectra: readonly Float32Array[], phone: string, startFrame: number, endFrame: number): [number, number] | null {
  const c = model.phones.indexOf(phone);
  const x = c < 0 ? null : spectralFeatures(spectra, startFrame, endFrame);
  if (!x) return null;
  const p = posterior(model, x);
  let other = 0;
  p.forEach((v, j) => {
    if (j !== c) other = Math.max(other, v);
  });
  const own = Math.log(Math.max(FLOOR, p[c]));
  return [own, own - Math.log(Math.max(FLOOR, other))];
}

/**
 * The evidence with the whole band's opinion of each read phone (`spectral`; phoneOpinion),
 * over the phones' spans as they stand. Skipped words' phones get none.
 */
export function withPhoneOpinions(ev: ReadingEvidence, model: PhoneSpectrumModel, spectra: readonly Float32Array[]): ReadingEvidence {
  return {
    ...ev,
    words: ev.words.map((w) => (w.status === 'omitted' ? w : {
      ...w,
      phones: w.phones.map((p) => {
        const { spectral: _stale, ...rest } = p;
        const opinion = phoneOpinion(model, spectra, p.phone, p.startFrame, p.endFrame);
        return opinion ? { ...rest, spectral: opinion } : rest;
      }),
    })),
  };
}
