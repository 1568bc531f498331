#!/usr/bin/env bash
# Runs the whole test suite with Node's own test runner (TypeScript through tsx).
# Extra arguments narrow the run to the given files or folders: `npm test -- test/audio`.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(test)
mapfile -t files < <(find "${targets[@]}" -name '*.test.ts' | sort)
if [ ${#files[@]} -eq 0 ]; then echo "no test files under ${targets[*]}" >&2; exit 1; fi
exec node --import tsx --test --test-concurrency="${KOUYU_TEST_CONCURRENCY:-2}" --test-reporter=spec "${files[@]}"
