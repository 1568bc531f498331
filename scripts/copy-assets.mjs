// Copies the data files that live beside the code (fitted model parameters, *.json) from src/
// into dist/src/, which the TypeScript compiler does not do for files it does not import.
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const from = path.join(root, 'src');
const to = path.join(root, 'dist', 'src');

function copy(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const source = path.join(dir, entry.name);
    if (entry.isDirectory()) copy(source);
    else if (!entry.name.endsWith('.ts')) {
      const target = path.join(to, path.relative(from, source));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.copyFileSync(source, target);
    }
  }
}
copy(from);
