#!/usr/bin/env bash
# Compare this checkout with an earlier commit on the same generated corpus
# and on one small shipped scenario: wall time side by side (hyperfine) and
# peak memory (/usr/bin/time -v). For "performance stays within N %" checks.
#
#   bench/versions.sh REF [N_FILES=5000]
set -euo pipefail
cd "$(dirname "$0")/.."
REF=${1:?usage: bench/versions.sh REF [N_FILES]}
N=${2:-5000}
OUT=bench/out/versions
mkdir -p "$OUT"
command -v hyperfine >/dev/null || { apt-get update -qq && apt-get install -y -qq hyperfine; }
[ -x /usr/bin/time ] || { apt-get update -qq && apt-get install -y -qq time; }

rm -rf "$OUT/old-src" && git worktree add -f --detach "$OUT/old-src" "$REF" >/dev/null
trap 'git worktree remove --force "$OUT/old-src"' EXIT
(cd "$OUT/old-src" && go build -o ../old ./cmd/sandbox-audit)
go build -o "$OUT/new" ./cmd/sandbox-audit
rm -rf "$OUT/corpus" && go run ./bench/gencorpus "$OUT/corpus" "$N"
small=fixtures/scenarios/devcontainer-dood

hyperfine --warmup 1 --runs "${RUNS:-8}" -N --export-json "$OUT/corpus.json" \
  -n "$REF" "$OUT/old scan --fail-on none -f json -o $OUT/old.json $OUT/corpus" \
  -n HEAD "$OUT/new scan --fail-on none -f json -o $OUT/new.json $OUT/corpus"
hyperfine --warmup 3 --runs 30 -N --export-json "$OUT/small.json" \
  -n "$REF" "$OUT/old scan --fail-on none -f json -o $OUT/old-small.json $small" \
  -n HEAD "$OUT/new scan --fail-on none -f json -o $OUT/new-small.json $small"
for b in old new; do
  /usr/bin/time -v "$OUT/$b" scan --fail-on none -f json -o "$OUT/$b.json" "$OUT/corpus" 2>"$OUT/time-$b.txt" >/dev/null || true
  echo "$b peak RSS: $(awk -F: '/Maximum resident/ {gsub(/ /,"",$2); print $2}' "$OUT/time-$b.txt") kB"
done
