#!/usr/bin/env bash
# deps-vs-trivy.sh — time sandbox-audit's dependency diff against `trivy fs`
# on the head tree, both reading the same trivy database offline.
#
# The repository is generated: a package-lock.json of N packages (default
# 2000) at the base commit, and a head commit that moves 25 packages and
# adds 25. The database is built from the YAML advisory fixtures in
# fixtures/deps/trivy-db — nothing is ever downloaded; trivy runs with
# --skip-db-update --offline-scan against the same cache dir.
#
# Needs git, go, python3; installs trivy v0.74.0 (go install, GOEXPERIMENT=jsonv2)
# and hyperfine (apt-get) when absent. Prints hyperfine's table and the ratio.
#
#   bench/deps-vs-trivy.sh                 # N=2000 RUNS=10
#   N=10000 RUNS=5 bench/deps-vs-trivy.sh
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
N=${N:-2000}
RUNS=${RUNS:-10}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/deps-vs-trivy.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

export PATH="$(go env GOPATH)/bin:$PATH"
if ! command -v trivy >/dev/null; then
	echo "installing trivy v0.74.0 (a long build)..." >&2
	(cd "$WORK" && GOEXPERIMENT=jsonv2 go install github.com/aquasecurity/trivy/cmd/trivy@v0.74.0)
fi
if ! command -v hyperfine >/dev/null; then
	apt-get install -y hyperfine >/dev/null || { apt-get update >/dev/null && apt-get install -y hyperfine >/dev/null; }
fi

# Our side, twice: the CLI's deps command (the whole audit: rules, policy,
# report) and the bench driver calling collectors/deps alone.
(cd "$ROOT" && go build -o "$WORK/depsscan" ./bench/depsscan)
(cd "$ROOT" && go build -o "$WORK/sandbox-audit" ./cmd/sandbox-audit)
LIB="$WORK/depsscan scan -repo $WORK/repo -base HEAD~1 -head HEAD -db $WORK/cache"
CLI="$WORK/sandbox-audit deps --base HEAD~1 --head HEAD --db $WORK/cache --format json $WORK/repo"

# The database, from fixtures, in trivy's cache layout (cache/db/trivy.db).
"$WORK/depsscan" mkdb -fixtures "$ROOT/fixtures/deps/trivy-db" -out "$WORK/cache/db"

# The repository: base and head commits.
git init -q -b main "$WORK/repo"
g() { git -C "$WORK/repo" -c user.name=bench -c user.email=bench@example.com "$@"; }
"$WORK/depsscan" gen -n "$N" >"$WORK/repo/package-lock.json"
g add -A && g commit -q -m base
"$WORK/depsscan" gen -n "$N" -bump 25 -add 25 >"$WORK/repo/package-lock.json"
g add -A && g commit -q -m head

TRIVY="trivy fs --skip-db-update --offline-scan --cache-dir $WORK/cache --scanners vuln --format json --quiet $WORK/repo"

# All must see the vulnerable lodash the head adds. sandbox-audit exits 1
# there (the gate fails on a high finding), so exit codes are not checked.
for cmd in "$LIB" "$CLI" "$TRIVY"; do
	{ $cmd || true; } | grep -q CVE-2021-23337 || { echo "no CVE-2021-23337 from: $cmd" >&2; exit 1; }
done

hyperfine -N --ignore-failure --warmup 2 --runs "$RUNS" --export-json "$WORK/hf.json" \
	-n "collectors/deps" "$LIB" -n "sandbox-audit deps" "$CLI" -n "trivy fs" "$TRIVY"

python3 - "$WORK/hf.json" <<'PY'
import json, sys
r = {x["command"]: x["mean"] for x in json.load(open(sys.argv[1]))["results"]}
t = r["trivy fs"]
for name in ("collectors/deps", "sandbox-audit deps"):
    print(f"{name}: {r[name]*1000:.0f} ms vs trivy fs {t*1000:.0f} ms -> {t/r[name]:.1f}x (target >= 3x)")
PY
