/**
 * A client for the real-time channels that keeps every frame as received: the raw text (so
 * tests can compare bytes) and the parsed JSON. A close arrives as a frame `{closed: code}`.
 * Waiting for a frame times out, so a server that stays silent fails the test instead of
 * hanging it.
 */
import WebSocket from 'ws';
import { handshakePayload, sign } from '../../src/auth/signature.js';
import { listeningAppWithAccount, type TestAccount } from './gateway.js';
import { englishRecording, mandarinRecording } from './recordings.js';

/**
 * The WebSocket suites' common ground: a listening app with an enterprise account (quota 20,
 * so signed rounds are charged to it) and a short Mandarin and English reading.
 */
export async function realtimeSuite() {
  const { app, base, account } = await listeningAppWithAccount('ws', { tier: 'enterprise', quota: 20 });
  return { app, base, account, zh: await mandarinRecording(6), en: await englishRecording(1) };
}

export interface Received {
  /** The frame's text exactly as sent by the server ('' for the close). */
  text: string;
  json: any;
  /** Arrival time, ms since the epoch. */
  at: number;
}

export class FrameClient {
  readonly ws: WebSocket;
  /** Resolves when the socket is open (the server's first frame may still be on its way). */
  readonly opened: Promise<void>;
  private readonly queue: Received[] = [];
  private readonly waiters: Array<(r: Received) => void> = [];

  constructor(url: string) {
    this.ws = new WebSocket(url);
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
    });
    this.ws.on('message', (data) => {
      const text = String(data);
      this.push({ text, json: JSON.parse(text), at: Date.now() });
    });
    this.ws.on('close', (code) => this.push({ text: '', json: { closed: code }, at: Date.now() }));
  }

  private push(r: Received): void {
    const waiter = this.waiters.shift();
    if (waiter) waiter(r);
    else this.queue.push(r);
  }

  /** The next frame; rejects after `timeoutMs`. */
  next(timeoutMs = 60_000): Promise<Received> {
    const queued = this.queue.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const i = this.waiters.indexOf(waiter);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(new Error(`no frame within ${timeoutMs} ms`));
      }, timeoutMs);
      const waiter = (r: Received) => {
        clearTimeout(timer);
        resolve(r);
      };
      this.waiters.push(waiter);
    });
  }

  /** The next frame's JSON. */
  async json(timeoutMs?: number): Promise<any> {
    return (await this.next(timeoutMs)).json;
  }

  /** Frames up to the first that satisfies `pred` (returned); the others go to `seen`. */
  async until(pred: (json: any) => boolean, seen: Received[] = [], timeoutMs?: number): Promise<Received> {
    for (;;) {
      const r = await this.next(timeoutMs);
      if (pred(r.json)) return r;
      seen.push(r);
    }
  }

  /** Objects are sent as JSON text, strings as they are, buffers as binary frames. */
  send(frame: unknown): void {
    if (Buffer.isBuffer(frame)) this.ws.send(frame);
    else this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  close(): void {
    this.ws.close();
  }
}

/** Opens a client and returns it with its first frame (`connected`, or the refusal). */
export async function connect(url: string): Promise<{ client: FrameClient; first: any }> {
  const client = new FrameClient(url);
  return { client, first: await client.json() };
}

/**
 * Query string of a signed handshake: every parameter but `signature` is signed
 * (spec Authentication, "real-time handshakes").
 */
export function signedHandshake(account: TestAccount, extra: Record<string, string> = {}, opts: { secret?: string; timestamp?: number } = {}): string {
  const query: Record<string, string> = {
    appKey: account.appKey,
    timestamp: String(opts.timestamp ?? Math.floor(Date.now() / 1000)),
    nonce: `n${Math.random().toString(36).slice(2)}`,
    ...extra,
  };
  const signature = sign(handshakePayload(query), opts.secret ?? account.secret);
  return new URLSearchParams({ ...query, signature }).toString();
}

/** Cuts a buffer into frames of `size` bytes (the last one shorter). */
export function frames(buf: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < buf.length; i += size) out.push(buf.subarray(i, i + size));
  return out;
}

/**
 * Sends a 16 kHz 16-bit mono WAV at real-time pace: the header with the first frame, then
 * `frameBytes` per `frameMs` (640 bytes = 20 ms). Resolves when the last frame is sent.
 */
export async function streamAtRealTime(client: FrameClient, wav: Buffer, frameBytes = 640, frameMs = 20): Promise<void> {
  const body = wav.subarray(44);
  const started = Date.now();
  client.send(Buffer.concat([wav.subarray(0, 44), body.subarray(0, frameBytes)]));
  for (let i = frameBytes; i < body.length; i += frameBytes) {
    const due = started + (i / frameBytes) * frameMs;
    await new Promise((r) => setTimeout(r, Math.max(0, due - Date.now())));
    client.send(body.subarray(i, i + frameBytes));
  }
}
