#!/usr/bin/env bash
# Compare sandbox-audit with trivy config and conftest on the same generated
# corpus of sandbox configuration files: wall time (hyperfine) and peak memory
# (/usr/bin/time -v). Peers are installed with `go install` at pinned versions
# and run with embedded checks only: nothing is downloaded at run time.
#
#   bench/compare.sh [N_FILES=5000]
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-5000}
OUT=bench/out
mkdir -p "$OUT"
export PATH="$(go env GOPATH)/bin:$PATH"

TRIVY_VERSION=v0.74.0
CONFTEST_VERSION=v0.71.1

command -v hyperfine >/dev/null || { apt-get update -qq && apt-get install -y -qq hyperfine; }
[ -x /usr/bin/time ] || { apt-get update -qq && apt-get install -y -qq time; }
# trivy v0.74.0's CLI uses encoding/json/v2, which Go 1.26 gates behind GOEXPERIMENT=jsonv2.
command -v trivy >/dev/null || GOEXPERIMENT=jsonv2 go install github.com/aquasecurity/trivy/cmd/trivy@$TRIVY_VERSION
command -v conftest >/dev/null || go install github.com/open-policy-agent/conftest@$CONFTEST_VERSION

go build -o "$OUT/sandbox-audit" ./cmd/sandbox-audit
rm -rf "$OUT/corpus" && go run ./bench/gencorpus "$OUT/corpus" "$N"
rules=$(ls bench/conftest-policy/*.rego | wc -l)

SA="$OUT/sandbox-audit scan --fail-on none -f json -o $OUT/sa.json $OUT/corpus"
TRIVY="trivy config --quiet --skip-check-update --cache-dir $OUT/trivy-cache -f json -o $OUT/trivy.json $OUT/corpus"
# conftest walks the directory and parses by file name; JSONC devcontainer
# files are not JSON to it, so they are left out.
CONFTEST="conftest test --no-color --all-namespaces -o json --ignore=devcontainer -p bench/conftest-policy $OUT/corpus"

echo "corpus: $N files; $($OUT/sandbox-audit version) with $($OUT/sandbox-audit rules list -f json | grep -c '"id"') rules; trivy $TRIVY_VERSION (embedded checks); conftest $CONFTEST_VERSION with $rules rules"
hyperfine --warmup 1 --runs "${RUNS:-5}" -i --export-json "$OUT/hyperfine.json" \
  -n sandbox-audit "$SA" -n "trivy config" "$TRIVY" -n conftest "$CONFTEST"

peak() { /usr/bin/time -v "$@" >/dev/null 2>"$OUT/time.txt" || true; awk -F: '/Maximum resident/ {gsub(/ /,"",$2); print $2}' "$OUT/time.txt"; }
sa_kb=$(peak $SA); tr_kb=$(peak $TRIVY); cf_kb=$(peak $CONFTEST)

python3 - "$OUT/hyperfine.json" "$sa_kb" "$tr_kb" "$cf_kb" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
sa, tr, cf = r["sandbox-audit"]["median"], r["trivy config"]["median"], r["conftest"]["median"]
sa_kb, tr_kb, cf_kb = map(int, sys.argv[2:5])
print(f"median wall: sandbox-audit {sa:.2f}s, trivy config {tr:.2f}s, conftest {cf:.2f}s")
print(f"speed-up: {tr/sa:.1f}x vs trivy config, {cf/sa:.1f}x vs conftest")
print(f"peak RSS: sandbox-audit {sa_kb/1024:.0f} MB, trivy config {tr_kb/1024:.0f} MB ({sa_kb/tr_kb:.2f} of trivy's), conftest {cf_kb/1024:.0f} MB")
PY
