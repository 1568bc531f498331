#!/usr/bin/env bash
# Compiles the native pieces under native/ into native/build/. They are optional: without a C
# compiler the service runs the same, only slower (docs/acoustic.md, "Fast frame scoring";
# docs/pitch.md, "Speed").
set -euo pipefail
cd "$(dirname "$0")/.."
cc_bin="${CC:-cc}"
if ! command -v "$cc_bin" >/dev/null 2>&1; then
  echo "[build] no C compiler ($cc_bin): fast frame scoring and the native pitch loops stay off"
  exit 0
fi
mkdir -p native/build
# No fused multiply-add and no fast-math: the sums must round exactly as the library's (frame
# scoring) and the TypeScript's (pitch loops) do.
build() {
  local src="native/$1.c" out="native/build/$2"
  if [ ! -f "$out" ] || [ "$src" -nt "$out" ]; then
    "$cc_bin" -O3 -fPIC -shared -ffp-contract=off -fno-fast-math -Wall -o "$out.tmp" "$src"
    mv "$out.tmp" "$out"
  fi
}
build fast-scoring libkouyu-scoring.so
build pitch-loops libkouyu-pitch.so
