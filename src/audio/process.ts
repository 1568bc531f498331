/**
 * Run an external program (ffmpeg, sox, ...) with its input fed from memory and its output
 * collected in memory. No temporary files are created, so nothing can be left behind.
 *
 * Guarantees callers rely on:
 * - the promise always settles: on exit, on spawn failure, or after `timeoutMs` (the child
 *   is killed with SIGKILL and the result has `code: null`, `timedOut: true`);
 * - a child that stops reading stdin early (EPIPE) does not crash the process;
 * - stdout above `maxOutputBytes` kills the child and sets `truncated: true`, so a hostile
 *   input cannot make a decoder fill memory.
 */
import { spawn } from 'node:child_process';

export interface RunOptions {
  /** Wall-clock limit in milliseconds (default 30 000). */
  timeoutMs?: number;
  /** Upper bound on collected stdout in bytes (default 256 MiB). */
  maxOutputBytes?: number;
}

export interface RunResult {
  stdout: Buffer;
  /** Decoded as UTF-8; only the last 64 KiB are kept (diagnostics, probing). */
  stderr: string;
  /** Exit code, or null when the child was killed (timeout, output limit, signal). */
  code: number | null;
  timedOut?: boolean;
  truncated?: boolean;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_OUTPUT = 256 * 1024 * 1024;
const STDERR_KEEP = 64 * 1024;

export function runProcess(
  command: string,
  args: string[],
  input: Buffer | null,
  opts: RunOptions = {},
): Promise<RunResult> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxOutput = opts.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
  return new Promise((resolve, reject) => {
    let child;
    try {
      child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    } catch (err) {
      reject(err instanceof Error ? err : new Error(String(err)));
      return;
    }
    const out: Buffer[] = [];
    let outBytes = 0;
    let errText = '';
    let timedOut = false;
    let truncated = false;
    let settled = false;

    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);

    child.stdout.on('data', (chunk: Buffer) => {
      if (truncated) return;
      outBytes += chunk.length;
      if (outBytes > maxOutput) {
        truncated = true;
        child.kill('SIGKILL');
        return;
      }
      out.push(chunk);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      errText += text;
      if (errText.length > STDERR_KEEP * 2) errText = errText.slice(-STDERR_KEEP);
    });

    // The child may exit before consuming all input (e.g. it rejects the header); writing
    // then raises EPIPE on stdin, which is expected and must not become an uncaught error.
    child.stdin.on('error', () => undefined);

    child.on('error', (err) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({
        stdout: Buffer.concat(out),
        stderr: errText.length > STDERR_KEEP ? errText.slice(-STDERR_KEEP) : errText,
        code: timedOut || truncated ? null : code,
        ...(timedOut ? { timedOut } : {}),
        ...(truncated ? { truncated } : {}),
      });
    });

    if (input && input.length > 0) child.stdin.end(input);
    else child.stdin.end();
  });
}
