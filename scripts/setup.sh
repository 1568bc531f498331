#!/usr/bin/env bash
# Installs everything Kouyu needs and builds it. Safe to run again: each step skips
# what is already in place.
#   1. Debian packages (ffmpeg, sox, PocketSphinx and its English model, espeak-ng, a C compiler)
#   2. npm dependencies (npm ci, only when package-lock.json changed since the last install)
#   3. speech models: KOUYU_MODELS_DIR (default ./models) points at a sibling shared/models
#      folder when there is one; otherwise scripts/fetch-models.sh downloads and verifies them
#   4. build: the native piece into native/build/, TypeScript into dist/
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '[setup] %s\n' "$*"; }

debian_packages=(ffmpeg sox libsox-fmt-all libpocketsphinx3 pocketsphinx-en-us pocketsphinx espeak-ng curl libvo-amrwbenc0 gcc libc6-dev)
missing=()
for p in "${debian_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  log "installing Debian packages: ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  log "Debian packages present"
fi

# onnxruntime-node ships its CPU binaries in the package; its install script only fetches
# optional GPU builds, which this project does not use.
export ONNXRUNTIME_NODE_INSTALL=skip
stamp=node_modules/.kouyu-lock.sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  log "npm dependencies up to date"
else
  log "installing npm dependencies"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$want" > "$stamp"
fi

models_dir="${KOUYU_MODELS_DIR:-models}"
if [ -e "$models_dir" ]; then
  log "models at $models_dir"
elif [ -d ../shared/models ]; then
  ln -s ../shared/models "$models_dir"
  log "models linked from ../shared/models"
else
  log "downloading the speech models into $models_dir"
  bash scripts/fetch-models.sh "$models_dir"
fi

log "building"
npm run --silent build
mkdir -p "${KOUYU_DATA_DIR:-data}"
log "ready"
