/**
 * The README's tour, its HTTP steps and both WebSocket examples, runs as written against the
 * built service started with `npm start`'s entry point: real process, real port, real speech
 * models. Also checks the graceful exit on SIGTERM. Needs the build from `npm run setup`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { REPO_ROOT, tempDir } from '../helpers/app.js';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

test('examples/quick-tour.sh runs against the started service, which then exits cleanly on SIGTERM', async (t) => {
  const entry = path.join(REPO_ROOT, 'dist', 'src', 'main.js');
  if (!fs.existsSync(entry)) return t.skip('no build: run `npm run setup` (or `npm run build`) first');
  const port = await freePort();
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', KOUYU_DATA_DIR: tempDir(), KOUYU_LOG_LEVEL: 'warn' };
  const server = spawn(process.execPath, [entry], { cwd: REPO_ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
  t.after(() => server.kill('SIGKILL'));

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  let ready = false;
  while (!ready && Date.now() < deadline) {
    ready = await fetch(`${url}/readyz`).then((r) => r.status === 200, () => false);
    if (!ready) await new Promise((r) => setTimeout(r, 250));
  }
  assert.ok(ready, 'the service became ready');

  const tour = spawnSync('bash', ['examples/quick-tour.sh'], { cwd: REPO_ROOT, env: { ...env, KOUYU_URL: url }, encoding: 'utf8', timeout: 300_000 });
  t.diagnostic(tour.stdout);
  assert.equal(tour.status, 0, tour.stderr);
  assert.match(tour.stdout, /overall \d+/);
  assert.match(tour.stdout, /compat overall \d+/);
  assert.match(tour.stdout, /recordId eval_\S+, overall \d+/);
  assert.match(tour.stdout, /"evaluation.calls":2/);
  // examples/ws-compat.mjs: intermediate results while the reading streams, then the final.
  assert.match(tour.stdout, /interim read \d+\/9: \S+:(100|0)/);
  assert.match(tour.stdout, /compat ws recordId eval_\S+, overall \d+/);

  server.kill('SIGTERM');
  assert.equal(await exited, 0);
});
