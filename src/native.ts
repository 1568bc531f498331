/**
 * Where the optional native pieces are (native/, compiled by scripts/build-native.sh).
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The built native library of that name, if any: `native/build/` of the repository, one folder
 * above this module in the sources (src/) and two in the build (dist/src/).
 */
export function nativeLibrary(name: string): string | null {
  const places = ['../native/build/', '../../native/build/'].map((dir) => fileURLToPath(new URL(dir + name, import.meta.url)));
  return places.find((file) => fs.existsSync(file)) ?? null;
}
