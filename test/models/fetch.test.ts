/**
 * Runs scripts/fetch-models.sh offline: `--from` the shared models folder (a local copy of the
 * upstream files) into a temporary target, with a stand-in for Ekho's symbol table (see
 * symbols.ts). The download itself needs the network and is not exercised here.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { missingModelFiles, resolveModels } from '../../src/models.js';
import { REPO_ROOT, tempDir } from '../helpers/app.js';
import { SHARED_MODELS_DIR, writeStandInSymbolTable } from './symbols.js';

const SCRIPT = path.join(REPO_ROOT, 'scripts', 'fetch-models.sh');
// Each run copies about 8 MB, so every temporary folder is removed at the end.
const made: string[] = [];
function scratch(prefix: string): string {
  const dir = tempDir(prefix);
  made.push(dir);
  return dir;
}
after(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});
const work = scratch('kouyu-models-');
const symbols = path.join(work, 'symbol_array.cpp');
writeStandInSymbolTable(symbols);

/** The upstream files the script fetches (everything but the SOURCE.md files and the derived table). */
const UPSTREAM_FILES = [
  'pocketsphinx-zh/tdt_sc_8k/feat.params',
  'pocketsphinx-zh/tdt_sc_8k/mdef',
  'pocketsphinx-zh/tdt_sc_8k/means',
  'pocketsphinx-zh/tdt_sc_8k/noisedict',
  'pocketsphinx-zh/tdt_sc_8k/sendump',
  'pocketsphinx-zh/tdt_sc_8k/transition_matrices',
  'pocketsphinx-zh/tdt_sc_8k/variances',
  'pocketsphinx-zh/mandarin_notone.dic',
  'pocketsphinx-zh/gigatdt.5000.DMP',
  'pocketsphinx-zh/COPYING',
  'ekho-mandarin/pinyin.voice',
  'ekho-mandarin/pinyin.index',
  'ekho-mandarin/README.voice',
  'ekho-mandarin/COPYING',
];

function run(args: string[]) {
  const env = { ...process.env };
  delete env.KOUYU_MODELS_DIR;
  const r = spawnSync('bash', [SCRIPT, ...args], { cwd: REPO_ROOT, env, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A local copy of the shared folder made of symlinks, with one file replaced by a real copy. */
function copyWithFlippedByte(relative: string, at: number): string {
  const dir = scratch('kouyu-models-copy-');
  for (const rel of UPSTREAM_FILES) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.symlinkSync(path.join(SHARED_MODELS_DIR, rel), path.join(dir, rel));
  }
  const bytes = fs.readFileSync(path.join(SHARED_MODELS_DIR, relative));
  bytes[at] ^= 0xff;
  fs.rmSync(path.join(dir, relative));
  fs.writeFileSync(path.join(dir, relative), bytes);
  return dir;
}

const target = path.join(work, 'models');
const first = run(['--from', SHARED_MODELS_DIR, '--symbols', symbols, target]);

test('fetches every file, verified, into the layout src/models.ts expects', () => {
  assert.equal(first.status, 0, first.stderr);
  for (const rel of UPSTREAM_FILES) {
    assert.ok(fs.readFileSync(path.join(target, rel)).equals(fs.readFileSync(path.join(SHARED_MODELS_DIR, rel))), rel);
  }
  assert.deepEqual(missingModelFiles(resolveModels(target)), []);
  assert.match(first.stdout, /17 written, 0 already in place/);
  assert.match(first.stdout, /English model (present|missing)/);
});

test('syllables.tsv is derived and equals the shared one byte for byte', () => {
  const derived = fs.readFileSync(path.join(target, 'ekho-mandarin', 'syllables.tsv'));
  assert.ok(derived.equals(fs.readFileSync(path.join(SHARED_MODELS_DIR, 'ekho-mandarin', 'syllables.tsv'))));
});

test('each folder gets its own SOURCE.md naming the upstream commit', () => {
  const ps = fs.readFileSync(path.join(target, 'pocketsphinx-zh', 'SOURCE.md'), 'utf8');
  const ekho = fs.readFileSync(path.join(target, 'ekho-mandarin', 'SOURCE.md'), 'utf8');
  assert.match(ps, /github\.com\/cmusphinx\/pocketsphinx at commit 9e3a5ea6444eae9c0bae96ffa0a1fecadc181f1e/);
  assert.match(ekho, /github\.com\/hgneng\/ekho at commit 1dbca73bff5276abd0fb5c8eccbe1609f6849f6c/);
  assert.match(ekho, /COPYING/);
});

test('a second run skips everything and touches nothing', () => {
  const mtimes = () => UPSTREAM_FILES.map((rel) => fs.statSync(path.join(target, rel)).mtimeMs);
  const before = mtimes();
  const again = run(['--from', SHARED_MODELS_DIR, '--symbols', symbols, target]);
  assert.equal(again.status, 0, again.stderr);
  assert.match(again.stdout, /0 written, 17 already in place/);
  assert.deepEqual(mtimes(), before);
});

test('a complete folder assembled elsewhere (the read-only shared one) is verified and left as it is', () => {
  const r = run([SHARED_MODELS_DIR]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /0 written, 17 already in place/);
  assert.match(r.stdout, /ekho-mandarin\/SOURCE\.md: kept \(not written by this script\)/);
});

test('a corrupted upstream file is refused with a clear message and nothing is left behind', () => {
  const from = copyWithFlippedByte('ekho-mandarin/pinyin.index', 100);
  const dest = path.join(scratch('kouyu-models-bad-'), 'models');
  const r = run(['--from', from, '--symbols', symbols, dest]);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /sha256 mismatch for ekho-mandarin\/pinyin\.index .*expected 89e3c314.*file refused/);
  assert.equal(fs.existsSync(path.join(dest, 'ekho-mandarin', 'pinyin.index')), false);
  assert.equal(fs.existsSync(path.join(dest, 'ekho-mandarin', 'pinyin.index.part')), false);
});

test('a damaged file already in the target is fetched again', () => {
  const dest = path.join(scratch('kouyu-models-fix-'), 'models');
  fs.cpSync(target, dest, { recursive: true });
  const dic = path.join(dest, 'pocketsphinx-zh', 'mandarin_notone.dic');
  fs.appendFileSync(dic, 'x');
  const r = run(['--from', SHARED_MODELS_DIR, '--symbols', symbols, dest]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /mandarin_notone\.dic: present but its sha256 differs; fetching again/);
  assert.match(r.stdout, /1 written, 16 already in place/);
});

test('a symbol table that names the clips wrongly is refused', () => {
  const wrong = path.join(work, 'wrong_symbols.cpp');
  writeStandInSymbolTable(wrong, (name) => (name === 'ma3' ? 'ma4' : name === 'ma4' ? 'ma3' : name));
  const dest = path.join(scratch('kouyu-models-sym-'), 'models');
  fs.cpSync(target, dest, { recursive: true });
  fs.rmSync(path.join(dest, 'ekho-mandarin', 'syllables.tsv'));
  const r = run(['--from', SHARED_MODELS_DIR, '--symbols', wrong, dest]);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /derived syllables\.tsv has sha256 \w+, expected 5caf744f.*file refused/);
  assert.equal(fs.existsSync(path.join(dest, 'ekho-mandarin', 'syllables.tsv')), false);
  assert.equal(fs.existsSync(path.join(dest, 'ekho-mandarin', 'syllables.tsv.part')), false);
});

test('usage errors are reported', () => {
  assert.match(run(['--bogus']).stderr, /unknown option --bogus/);
  assert.match(run(['--from', path.join(work, 'nowhere'), target]).stderr, /is not a directory/);
});

/** Upstream addresses, written out here independently of the script's manifest. */
const PS = 'cmusphinx/pocketsphinx/9e3a5ea6444eae9c0bae96ffa0a1fecadc181f1e';
const EKHO = 'hgneng/ekho/1dbca73bff5276abd0fb5c8eccbe1609f6849f6c';
const UPSTREAM_PATHS: Record<string, string> = {
  'pocketsphinx-zh/tdt_sc_8k/feat.params': `${PS}/model/hmm/zh/tdt_sc_8k/feat.params`,
  'pocketsphinx-zh/tdt_sc_8k/mdef': `${PS}/model/hmm/zh/tdt_sc_8k/mdef`,
  'pocketsphinx-zh/tdt_sc_8k/means': `${PS}/model/hmm/zh/tdt_sc_8k/means`,
  'pocketsphinx-zh/tdt_sc_8k/noisedict': `${PS}/model/hmm/zh/tdt_sc_8k/noisedict`,
  'pocketsphinx-zh/tdt_sc_8k/sendump': `${PS}/model/hmm/zh/tdt_sc_8k/sendump`,
  'pocketsphinx-zh/tdt_sc_8k/transition_matrices': `${PS}/model/hmm/zh/tdt_sc_8k/transition_matrices`,
  'pocketsphinx-zh/tdt_sc_8k/variances': `${PS}/model/hmm/zh/tdt_sc_8k/variances`,
  'pocketsphinx-zh/mandarin_notone.dic': `${PS}/model/lm/zh_CN/mandarin_notone.dic`,
  'pocketsphinx-zh/gigatdt.5000.DMP': `${PS}/model/lm/zh_CN/gigatdt.5000.DMP`,
  'pocketsphinx-zh/COPYING': `${PS}/COPYING`,
  'ekho-mandarin/pinyin.voice': `${EKHO}/ekho-data/pinyin.voice`,
  'ekho-mandarin/pinyin.index': `${EKHO}/ekho-data/pinyin.index`,
  'ekho-mandarin/README.voice': `${EKHO}/ekho-data/README.voice`,
  'ekho-mandarin/COPYING': `${EKHO}/COPYING`,
};

/** Serves a folder over HTTP the way raw.githubusercontent.com does (OWNER/REPO/COMMIT/PATH). */
async function serveMirror(root: string) {
  const requested: string[] = [];
  const server = http.createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).slice(1);
    requested.push(rel);
    const file = path.join(root, rel);
    if (!rel.includes('..') && fs.existsSync(file) && fs.statSync(file).isFile()) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      fs.createReadStream(file).pipe(res);
    } else {
      res.writeHead(404).end('404: Not Found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requested, close: () => new Promise((r) => server.close(r)) };
}

function runAsync(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const env = { ...process.env };
  delete env.KOUYU_MODELS_DIR;
  return new Promise((resolve) => {
    execFile('bash', [SCRIPT, ...args], { cwd: REPO_ROOT, env }, (err, stdout, stderr) => {
      resolve({ status: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

test('downloads over HTTP from the pinned raw-file addresses, symbol table included', async (t) => {
  const root = scratch('kouyu-models-mirror-');
  for (const [rel, upstream] of Object.entries(UPSTREAM_PATHS)) {
    fs.mkdirSync(path.dirname(path.join(root, upstream)), { recursive: true });
    fs.symlinkSync(path.join(SHARED_MODELS_DIR, rel), path.join(root, upstream));
  }
  fs.mkdirSync(path.join(root, EKHO, 'src'));
  fs.copyFileSync(symbols, path.join(root, EKHO, 'src', 'symbol_array.cpp'));
  const mirror = await serveMirror(root);
  t.after(() => mirror.close());

  const dest = path.join(scratch('kouyu-models-http-'), 'models');
  const r = await runAsync(['--mirror', mirror.url, dest]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /17 written, 0 already in place/);
  assert.deepEqual(missingModelFiles(resolveModels(dest)), []);
  assert.deepEqual(
    mirror.requested.slice().sort(),
    [...Object.values(UPSTREAM_PATHS), `${EKHO}/src/symbol_array.cpp`].sort(),
  );

  fs.rmSync(path.join(root, PS, 'model', 'hmm', 'zh', 'tdt_sc_8k', 'feat.params'));
  const missing = await runAsync(['--mirror', mirror.url, path.join(scratch('kouyu-models-404-'), 'models')]);
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /download failed: http:\/\/127\.0\.0\.1:\d+\/cmusphinx\/pocketsphinx\/9e3a5ea6\w+\/model\/hmm\/zh\/tdt_sc_8k\/feat\.params/);
});
