/**
 * multipart/form-data parsing for the upload endpoints (evaluation, compat evaluation, ASR,
 * voice creation). We parse with busboy ourselves rather than through a plugin because the
 * signature scheme signs the *raw* text of the `config` part, and the spec makes the part's
 * own Content-Type significant (a config part that is not application/json fails with 50000).
 * The whole form is buffered: uploads are at most 10 MB of audio.
 */
import { Busboy, type BusboyHeaders, type BusboyInstance } from '@fastify/busboy';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, invalid } from '../errors.js';

/** Largest accepted file part (spec: audio at most 10 MB). */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
const MAX_FIELD_BYTES = 1024 * 1024;
const MAX_PARTS = 64;

export interface FormField {
  name: string;
  /** The part's raw text, exactly as sent. */
  value: string;
  mimetype: string;
  /** Set when the text part was sent as a file (browser uploads of `config`). */
  filename?: string;
}

export interface FormFile {
  name: string;
  filename: string;
  mimetype: string;
  data: Buffer;
}

export class MultipartBody {
  constructor(
    readonly fields: FormField[],
    readonly files: FormFile[],
  ) {}

  field(name: string): FormField | undefined {
    return this.fields.find((f) => f.name === name);
  }

  file(name: string): FormFile | undefined {
    return this.files.find((f) => f.name === name);
  }

  /** Text parts as plain name → value (the last one wins on repeats). */
  values(): Record<string, string> {
    return Object.fromEntries(this.fields.map((f) => [f.name, f.value]));
  }
}

/** Registers the multipart/form-data body parser on the app. */
export function registerMultipart(app: FastifyInstance): void {
  app.addContentTypeParser('multipart/form-data', (request, payload, done) => {
    parseMultipart(request, payload).then(
      (body) => done(null, body),
      (err: Error) => done(err),
    );
  });
}

/** Text parts whose name says they are text even when sent with a filename. */
const TEXT_PART_NAMES = new Set(['config', 'request']);
/**
 * File parts whose name says they are files even when sent without a filename (busboy's
 * default treats a part as a file only with a filename or as application/octet-stream).
 */
const FILE_PART_NAMES = new Set(['audio', 'image']);

function isPartAFile(name: string | undefined, contentType: string | undefined, filename: string | undefined): boolean {
  return FILE_PART_NAMES.has(name ?? '') || filename !== undefined || contentType === 'application/octet-stream';
}

function parseMultipart(request: FastifyRequest, stream: NodeJS.ReadableStream): Promise<MultipartBody> {
  return new Promise((resolve, reject) => {
    let busboy: BusboyInstance;
    try {
      busboy = new Busboy({
        headers: request.headers as BusboyHeaders,
        limits: { fileSize: MAX_FILE_BYTES, fieldSize: MAX_FIELD_BYTES, parts: MAX_PARTS },
        isPartAFile,
      });
    } catch {
      reject(invalid('malformed multipart/form-data request (missing boundary)'));
      return;
    }
    const fields: FormField[] = [];
    const files: FormFile[] = [];
    const pending: Promise<void>[] = [];
    let failed: ApiError | null = null;
    const fail = (err: ApiError) => {
      failed ??= err;
    };

    busboy.on('field', (name: string, value: string, _nameTruncated: boolean, valueTruncated: boolean, _encoding: string, mimetype: string) => {
      if (valueTruncated) fail(invalid(`form field "${name}" is larger than ${MAX_FIELD_BYTES} bytes`));
      fields.push({ name, value, mimetype: mimetype || 'text/plain' });
    });
    busboy.on('file', (name: string, file: NodeJS.ReadableStream, filename: string | undefined, _encoding: string, mimetype: string) => {
      const chunks: Buffer[] = [];
      let truncated = false;
      file.on('data', (chunk: Buffer) => chunks.push(chunk));
      file.on('limit', () => {
        truncated = true;
        fail(invalid(name === 'audio' ? 'audio larger than 10 MB' : `file part "${name}" larger than 10 MB`));
      });
      pending.push(
        new Promise<void>((done) =>
          file.on('end', () => {
            if (truncated) return done();
            const data = Buffer.concat(chunks);
            if (TEXT_PART_NAMES.has(name)) {
              fields.push({ name, value: data.toString('utf8'), mimetype: mimetype || 'application/octet-stream', filename });
            } else {
              files.push({ name, filename: filename ?? '', mimetype: mimetype || 'application/octet-stream', data });
            }
            done();
          }),
        ),
      );
    });
    busboy.on('partsLimit', () => fail(invalid(`too many form parts (at most ${MAX_PARTS})`)));
    busboy.on('error', () => fail(invalid('malformed multipart/form-data body')));
    busboy.on('finish', () => {
      Promise.all(pending).then(() => (failed ? reject(failed) : resolve(new MultipartBody(fields, files))));
    });
    stream.on('error', () => reject(invalid('request body could not be read')));
    stream.pipe(busboy);
  });
}
