#!/usr/bin/env bash
# Downloads Kouyu's Mandarin speech models from their upstream GitHub repositories at pinned
# commits, verifies every file against a pinned sha256, derives ekho-mandarin/syllables.tsv from
# Ekho's binary index and writes a SOURCE.md per folder. Needs only curl, sha256sum and node.
#
#   scripts/fetch-models.sh [--from DIR | --mirror URL] [--symbols FILE] [TARGET]
#
#   TARGET          models folder to fill (default: $KOUYU_MODELS_DIR, else ./models)
#   --from DIR      take the upstream files from a local copy laid out like a models folder
#                   (DIR/pocketsphinx-zh/..., DIR/ekho-mandarin/...) instead of the network;
#                   they are verified exactly like downloads
#   --symbols FILE  Ekho's src/symbol_array.cpp from a local copy (otherwise taken from
#                   DIR/ekho-mandarin/symbol_array.cpp with --from, else downloaded)
#   --mirror URL    base of the raw-file addresses, laid out OWNER/REPO/COMMIT/PATH
#                   (default https://raw.githubusercontent.com)
#
# Safe to run again: files already present and verified are skipped. A file whose sha256 does
# not match is refused (the run stops, nothing half-written is left behind). The English model
# comes from Debian's pocketsphinx-en-us package; this script only reports whether it is there.
# docs/models.md explains each model.
set -euo pipefail

PS_REPO=cmusphinx/pocketsphinx
PS_COMMIT=9e3a5ea6444eae9c0bae96ffa0a1fecadc181f1e
EKHO_REPO=hgneng/ekho
EKHO_COMMIT=1dbca73bff5276abd0fb5c8eccbe1609f6849f6c
# The symbol table is Ekho source code, not model data: it is read to name the index entries
# and not kept. Its content is checked through the pinned sum of the derived syllables.tsv.
EKHO_SYMBOLS_PATH=src/symbol_array.cpp
SYLLABLES_SHA256=5caf744f987fb22d28c726ddf6e25d3fe02939599fea595d11964aa612266eef

# destination (relative to TARGET) | repository | path upstream | sha256
MANIFEST="
pocketsphinx-zh/tdt_sc_8k/feat.params|ps|model/hmm/zh/tdt_sc_8k/feat.params|4a6d2b73e03ee01fba914c78375ed3730800a65222054b9dee037ae66c2feb04
pocketsphinx-zh/tdt_sc_8k/mdef|ps|model/hmm/zh/tdt_sc_8k/mdef|ff5c3fca8c64a4951bee20782a9ee2f9660b3272dea14236debff88dd54aa050
pocketsphinx-zh/tdt_sc_8k/means|ps|model/hmm/zh/tdt_sc_8k/means|2a9b89adab74695318781000f84b5ef519c1c05c4f703dedd21ab289ffaf21b9
pocketsphinx-zh/tdt_sc_8k/noisedict|ps|model/hmm/zh/tdt_sc_8k/noisedict|5fa071647f771803feccbe31dc7fb6d8f2e468f97186792db26dad429e59732f
pocketsphinx-zh/tdt_sc_8k/sendump|ps|model/hmm/zh/tdt_sc_8k/sendump|d6d2ac84a7aa7c020114267d6fba9df710f6075fbe02ff7ec98e84765fd38779
pocketsphinx-zh/tdt_sc_8k/transition_matrices|ps|model/hmm/zh/tdt_sc_8k/transition_matrices|0e697ddb2f1a4204615db1d73bdce5d81f30ce3b8fb55de23a2ced2d20fa2eb4
pocketsphinx-zh/tdt_sc_8k/variances|ps|model/hmm/zh/tdt_sc_8k/variances|50a279dde94da2e742113aae9aed03526dddd66bf48a64bed7579e5092f7b53b
pocketsphinx-zh/mandarin_notone.dic|ps|model/lm/zh_CN/mandarin_notone.dic|35db87512760602b5849dd5e8b34302e5fc56110159a6bca1dd901a4ecc390ef
pocketsphinx-zh/gigatdt.5000.DMP|ps|model/lm/zh_CN/gigatdt.5000.DMP|c5fb86d764b322c5e530db548ae672976cf37bb627eae57d98361cd708da107a
pocketsphinx-zh/COPYING|ps|COPYING|d9e91476236b210080837744c99327cf97e6ef3ba65d0ddf36393e99e9e9abca
ekho-mandarin/pinyin.voice|ekho|ekho-data/pinyin.voice|9e451942909995d25b070150d16aea232700dfbb0f0ce92ce598bc6403a35ea1
ekho-mandarin/pinyin.index|ekho|ekho-data/pinyin.index|89e3c3149c932ecda6d23406c9c8509efd91edaf32333505557cc2e86322ff7c
ekho-mandarin/README.voice|ekho|ekho-data/README.voice|751d11ef25132ee79f50ecb566122c861fe3c1eca41770598ddbf889d6717cc2
ekho-mandarin/COPYING|ekho|COPYING|d16407996ebc5a575813622341335fa14e5cf9188461c64d57a06a7045324b29
"

EN_US_DIR=/usr/share/pocketsphinx/model/en-us
here=$(cd "$(dirname "$0")/.." && pwd)

log() { printf '[models] %s\n' "$*"; }
die() { printf '[models] error: %s\n' "$*" >&2; exit 1; }

from=""
symbols=""
target=""
mirror=https://raw.githubusercontent.com
while [ $# -gt 0 ]; do
  case "$1" in
    --from) [ $# -ge 2 ] || die "--from needs a directory"; from=$2; shift 2 ;;
    --symbols) [ $# -ge 2 ] || die "--symbols needs a file"; symbols=$2; shift 2 ;;
    --mirror) [ $# -ge 2 ] || die "--mirror needs a URL"; mirror=${2%/}; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) die "unknown option $1 (see --help)" ;;
    *) [ -z "$target" ] || die "only one target folder, got '$target' and '$1'"; target=$1; shift ;;
  esac
done
target=${target:-${KOUYU_MODELS_DIR:-models}}
[ -z "$from" ] || [ -d "$from" ] || die "--from $from is not a directory"
[ -z "$symbols" ] || [ -f "$symbols" ] || die "--symbols $symbols is not a file"
for cmd in sha256sum node; do
  command -v "$cmd" >/dev/null || die "$cmd is required"
done
[ -n "$from" ] || command -v curl >/dev/null || die "curl is required to download (or use --from)"

raw_url() { # repository key, path upstream
  case "$1" in
    ps) printf '%s/%s/%s/%s' "$mirror" "$PS_REPO" "$PS_COMMIT" "$2" ;;
    ekho) printf '%s/%s/%s/%s' "$mirror" "$EKHO_REPO" "$EKHO_COMMIT" "$2" ;;
  esac
}

sha_of() { sha256sum "$1" | cut -d' ' -f1; }

# Copies (with --from) or downloads one upstream file to OUT. Sets $origin to where it came from.
obtain() { # repository key, path upstream, destination relative path, output file
  if [ -n "$from" ]; then
    origin="$from/$3"
    [ -f "$origin" ] || die "$3 is not in the local copy $from"
    cat "$origin" > "$4"
  else
    origin=$(raw_url "$1" "$2")
    curl -fsSL --retry 3 --connect-timeout 20 -o "$4" "$origin" || die "download failed: $origin"
  fi
}

fetched=0
skipped=0
work=""
trap 'if [ -n "$work" ]; then rm -rf "$work"; fi' EXIT

# True, and counted as skipped, when FILE is already in place with the expected sha256.
in_place() { # file, sha256
  [ -f "$1" ] && [ "$(sha_of "$1")" = "$2" ] || return 1
  skipped=$((skipped + 1))
}

# Moves FILE.part to FILE when its sha256 is the expected one; otherwise removes it and stops
# with the message, where {got} stands for the sha256 it has.
accept_part() { # file, sha256, message
  local got
  got=$(sha_of "$1.part")
  if [ "$got" != "$2" ]; then
    rm -f "$1.part"
    die "${3//\{got\}/$got}; file refused"
  fi
  mv -f "$1.part" "$1"
  fetched=$((fetched + 1))
}

fetch_verified() { # destination relative path, repository key, path upstream, sha256
  local dest="$target/$1"
  in_place "$dest" "$4" && return
  [ ! -e "$dest" ] || log "$1: present but its sha256 differs; fetching again"
  mkdir -p "$(dirname "$dest")"
  obtain "$2" "$3" "$1" "$dest.part"
  accept_part "$dest" "$4" "sha256 mismatch for $1 (from $origin): expected $4, got {got}"
  log "$1: fetched and verified"
}

while IFS='|' read -r dest repo upstream sum; do
  [ -n "$dest" ] || continue
  fetch_verified "$dest" "$repo" "$upstream" "$sum"
done <<< "$MANIFEST"

derive_syllables() {
  local dest="$target/ekho-mandarin/syllables.tsv" table
  in_place "$dest" "$SYLLABLES_SHA256" && return
  work=$(mktemp -d)
  if [ -n "$symbols" ]; then
    table=$symbols
  elif [ -n "$from" ] && [ -f "$from/ekho-mandarin/symbol_array.cpp" ]; then
    table="$from/ekho-mandarin/symbol_array.cpp"
  else
    command -v curl >/dev/null || die "curl is required to download Ekho's symbol table (or pass --symbols)"
    table="$work/symbol_array.cpp"
    curl -fsSL --retry 3 --connect-timeout 20 -o "$table" "$(raw_url ekho "$EKHO_SYMBOLS_PATH")" \
      || die "download failed: $(raw_url ekho "$EKHO_SYMBOLS_PATH") (pass --symbols FILE to use a local copy)"
  fi
  node "$here/tools/ekho-index.mjs" --index "$target/ekho-mandarin/pinyin.index" --symbols "$table" \
    --voice "$target/ekho-mandarin/pinyin.voice" --out "$dest.part" \
    || die "could not derive syllables.tsv from pinyin.index and $table"
  accept_part "$dest" "$SYLLABLES_SHA256" "derived syllables.tsv has sha256 {got}, expected $SYLLABLES_SHA256 (symbol table $table does not match the pinned Ekho commit)"
  log "ekho-mandarin/syllables.tsv: derived from pinyin.index and verified"
}
derive_syllables

write_if_changed() { # file, content: rewritten only when different, so reruns touch nothing
  if [ -f "$1" ] && [ "$(cat "$1")" = "$2" ]; then
    skipped=$((skipped + 1))
    return
  fi
  # A SOURCE.md this script did not write (a folder assembled by hand) is left as it is.
  if [ -f "$1" ] && ! grep -q 'Fetched by scripts/fetch-models.sh' "$1"; then
    skipped=$((skipped + 1))
    log "${1#"$target"/}: kept (not written by this script)"
    return
  fi
  printf '%s\n' "$2" > "$1"
  fetched=$((fetched + 1))
  log "${1#"$target"/}: written"
}

write_if_changed "$target/pocketsphinx-zh/SOURCE.md" "# Mandarin acoustic model, dictionary and language model (PocketSphinx)

Fetched by scripts/fetch-models.sh; every file was checked against the sha256 pinned there.

- Contents: tdt_sc_8k/ is a semi-continuous HMM acoustic model for Mandarin (16 kHz audio,
  toneless pinyin initials and finals as sound units; tones are judged from pitch elsewhere).
  mandarin_notone.dic maps words and characters to those units. gigatdt.5000.DMP is a
  5,000-word trigram language model in Sphinx's binary DMP format; the recogniser repairs it
  before loading.
- Upstream: https://github.com/$PS_REPO at commit $PS_COMMIT,
  files under model/hmm/zh/tdt_sc_8k/ and model/lm/zh_CN/ (later removed from that repository).
- License: BSD-style; the terms are in COPYING beside this file (the repository's COPYING)."

write_if_changed "$target/ekho-mandarin/SOURCE.md" "# Mandarin syllable recordings (Ekho voice data)

Fetched by scripts/fetch-models.sh; every file was checked against the sha256 pinned there.

- Contents: pinyin.voice holds one short human recording per toned Mandarin syllable, each a
  complete WAV file (GSM 6.10, 16 kHz), laid end to end. pinyin.index is Ekho's binary index of
  those clips and README.voice is Ekho's own note about them.
- syllables.tsv is not downloaded: tools/ekho-index.mjs derives it from pinyin.index and the
  symbol table in Ekho's source ($EKHO_SYMBOLS_PATH); each row gives the pinyin with numeric
  tone (5 = neutral, ü written v), the byte offset and the byte length of its clip.
- Upstream: https://github.com/$EKHO_REPO at commit $EKHO_COMMIT, folder ekho-data/.
- License: GPL-2.0; the terms are in COPYING beside this file (the repository's COPYING). Only
  the data is used, no Ekho code."

en_missing=()
for f in en-us cmudict-en-us.dict en-us.lm.bin en-us-phone.lm.bin; do
  if [ -e "$target/pocketsphinx-en-us/$f" ] || [ -e "$EN_US_DIR/$f" ]; then continue; fi
  en_missing+=("$f")
done
if [ ${#en_missing[@]} -eq 0 ]; then
  log "English model present (Debian package pocketsphinx-en-us)"
else
  log "English model missing (${en_missing[*]}): install the Debian package pocketsphinx-en-us"
fi

log "models ready in $target: $fetched written, $skipped already in place"
