import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runProcess } from '../../src/audio/process.js';

test('feeds stdin from memory and collects stdout', async () => {
  const input = Buffer.from('kouyu '.repeat(100_000));
  const res = await runProcess('cat', [], input);
  assert.equal(res.code, 0);
  assert.ok(res.stdout.equals(input));
});

test('a child that exits without reading its input does not crash the caller (EPIPE)', async () => {
  const res = await runProcess('true', [], Buffer.alloc(8 * 1024 * 1024));
  assert.equal(res.code, 0);
  assert.equal(res.stdout.length, 0);
});

test('kills the child at the time limit and reports it', async () => {
  const t0 = Date.now();
  const res = await runProcess('sleep', ['10'], null, { timeoutMs: 200 });
  assert.equal(res.code, null);
  assert.equal(res.timedOut, true);
  assert.ok(Date.now() - t0 < 5000, 'returned long before the child would have ended');
});

test('kills the child when its output passes the limit', async () => {
  const res = await runProcess('head', ['-c', '1000000', '/dev/zero'], null, { maxOutputBytes: 64 * 1024 });
  assert.equal(res.truncated, true);
  assert.equal(res.code, null);
  assert.ok(res.stdout.length <= 64 * 1024);
});

test('reports the exit code and stderr of a failing command', async () => {
  const res = await runProcess('sh', ['-c', 'echo oops >&2; exit 3'], null);
  assert.equal(res.code, 3);
  assert.match(res.stderr, /oops/);
});

test('rejects when the program does not exist', async () => {
  await assert.rejects(runProcess('kouyu-no-such-program', [], null), /ENOENT/);
});
