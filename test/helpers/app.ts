/**
 * Test helpers: a configuration pointing at a fresh temporary data directory, and the app
 * built from it (storage migrated before it is returned). Tests use `app.inject()` for
 * routes, or `app.listen({port: 0})` for integration tests against a real listening server.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../../src/config.js';
import { buildApp, type BuildOptions } from '../../src/app.js';
import type { FastifyInstance } from 'fastify';

export const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');
/** Shared recordings and models live beside the repository (never copied into it). */
export const SHARED_DIR = path.resolve(REPO_ROOT, '..', 'shared');
export const SHARED_DATA_DIR = path.join(SHARED_DIR, 'data');

/** Temporary folders made by this test process; removed when it exits. */
const made = new Set<string>();

/** A new temporary folder, removed at the latest when the test process exits. */
export function tempDir(prefix = 'kouyu-test-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  if (made.size === 0) process.once('exit', () => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
  made.add(dir);
  return dir;
}

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({ KOUYU_DATA_DIR: tempDir(), KOUYU_LOG_LEVEL: 'silent', ...env }, REPO_ROOT);
}

export async function buildTestApp(env: Record<string, string> = {}, options: BuildOptions = {}) {
  const config = testConfig(env);
  const app = await buildApp(config, { warmSpeech: false, ...options });
  await app.storage.migrate();
  return { app, config };
}

/** Starts the app on a free loopback port; returns `127.0.0.1:<port>` (add the scheme). */
export async function listenOnLoopback(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return `127.0.0.1:${address.port}`;
}

export interface LoopbackRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  /** A Buffer or string is sent as it is; an object as JSON. */
  payload?: Buffer | string | object;
}

/**
 * The shape of `app.inject` over a real connection: starts the app on loopback and answers
 * each request through the network stack (what a client sees, headers and all).
 */
export async function loopbackClient(app: FastifyInstance) {
  const base = `http://${await listenOnLoopback(app)}`;
  return async (req: LoopbackRequest) => {
    const headers: Record<string, string> = { ...req.headers };
    let body: BodyInit | undefined;
    if (Buffer.isBuffer(req.payload)) body = new Uint8Array(req.payload);
    else if (req.payload === undefined || typeof req.payload === 'string') body = req.payload;
    else {
      body = JSON.stringify(req.payload);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${base}${req.url}`, { method: req.method, headers, body });
    const text = await res.text();
    return { statusCode: res.status, headers: Object.fromEntries(res.headers), body: text, json: () => JSON.parse(text) };
  };
}
