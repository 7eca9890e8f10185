#!/usr/bin/env bash
# A fleet run against separate scans: N generated repositories (10 files
# each) audited by one `fleet scan` into a fresh SQLite store, with each
# --concurrency given, and by one `scan` process per repository for the
# first M of them (their time scaled to N). Wall time and peak memory from
# /usr/bin/time -v; the store's size.
#
#   bench/fleet.sh [N=1000] [M=100] [CONCURRENCY="1 2"]
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-1000}
M=${2:-100}
CONC=${3:-1 2}
OUT=bench/out/fleet
mkdir -p "$OUT"
[ -x /usr/bin/time ] || { apt-get update -qq && apt-get install -y -qq time; }
go build -o "$OUT/sandbox-audit" ./cmd/sandbox-audit
rm -rf "$OUT/corpus" && go run ./bench/gencorpus "$OUT/corpus" $((N * 10)) >/dev/null
printf 'version: 1\ntargets:\n  - path: corpus/repo-*\n' >"$OUT/fleet.yaml"
wall() { awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$1" | awk -F: '{print ($1*60)+$2}'; }
for c in $CONC; do
  rm -f "$OUT"/h.db*
  /usr/bin/time -v "$OUT/sandbox-audit" fleet scan --inventory "$OUT/fleet.yaml" --store "$OUT/h.db" --concurrency "$c" >/dev/null 2>"$OUT/time.txt" || true
  printf 'fleet scan, %d targets, --concurrency %d: %.1f s, peak %d MiB, store %d MiB\n' "$N" "$c" "$(wall "$OUT/time.txt")" \
    "$(($(awk -F': ' '/Maximum resident/ {print $2}' "$OUT/time.txt") / 1024))" "$(($(du -k "$OUT/h.db" | cut -f1) / 1024))"
done
start=$(date +%s.%N)
for d in $(ls -d "$OUT"/corpus/repo-* | head -n "$M"); do
  "$OUT/sandbox-audit" scan --fail-on none -f json -o /dev/null "$d" >/dev/null 2>&1 || true
done
end=$(date +%s.%N)
awk -v s="$start" -v e="$end" -v m="$M" -v n="$N" 'BEGIN { printf "separate scan processes: %.0f ms each, %.1f s for %d targets (from %d)\n", (e-s)*1000/m, (e-s)*n/m, n, m }'
