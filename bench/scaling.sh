#!/usr/bin/env bash
# How one scan's cost grows with the tree: wall time and peak memory
# (/usr/bin/time -v) of one run on generated corpora of growing size, and
# each size's time as a multiple of the smallest's. Linear growth gives
# ratios near the size ratios (10x the files, about 10x the time).
#
#   bench/scaling.sh ["5000 20000 50000"]      (or SIZES="5000 50000" bench/scaling.sh)
#
# The corpus is generated outside this checkout (a temporary directory): a
# tree inside a git repository is read as one unit of that repository, all
# of it held at once (about 270 MiB at 50,000 files), while a tree of
# several repositories, or none, is read one repository at a time.
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES=${1:-${SIZES:-5000 20000 50000}}
OUT=bench/out/scaling
mkdir -p "$OUT"
CORPUS=$(mktemp -d /tmp/sandbox-audit-scaling.XXXXXX)
trap 'rm -rf "$CORPUS"' EXIT
[ -x /usr/bin/time ] || { apt-get update -qq && apt-get install -y -qq time; }
go build -o "$OUT/sandbox-audit" ./cmd/sandbox-audit
first=""
for n in $SIZES; do
  rm -rf "$CORPUS/corpus" && go run ./bench/gencorpus "$CORPUS/corpus" "$n" >/dev/null
  /usr/bin/time -v "$OUT/sandbox-audit" scan --fail-on none -f json -o "$OUT/report.json" "$CORPUS/corpus" >/dev/null 2>"$OUT/time.txt" || true
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$OUT/time.txt" | awk -F: '{print ($1*60)+$2}')
  kb=$(awk -F': ' '/Maximum resident/ {print $2}' "$OUT/time.txt")
  [ -z "$first" ] && first=$wall && n0=$n
  awk -v n="$n" -v w="$wall" -v kb="$kb" -v f="$first" -v n0="$n0" \
    'BEGIN { printf "%6d files: %6.2f s (%.1fx the time of %d files, for %.0fx the files), peak %d MiB\n", n, w, w/f, n0, n/n0, kb/1024 }'
done
