#!/usr/bin/env bash
# Compiles the native pieces under native/ into native/build/. They are optional: without a C
# compiler the service runs the same, only slower (docs/acoustic.md, "Fast frame scoring").
set -euo pipefail
cd "$(dirname "$0")/.."
cc_bin="${CC:-cc}"
if ! command -v "$cc_bin" >/dev/null 2>&1; then
  echo "[build] no C compiler ($cc_bin): fast frame scoring stays off"
  exit 0
fi
mkdir -p native/build
out=native/build/libkouyu-scoring.so
if [ ! -f "$out" ] || [ native/fast-scoring.c -nt "$out" ]; then
  # No fused multiply-add and no fast-math: the sums must round exactly as the library's do.
  "$cc_bin" -O3 -fPIC -shared -ffp-contract=off -fno-fast-math -Wall -o "$out.tmp" native/fast-scoring.c
  mv "$out.tmp" "$out"
fi
