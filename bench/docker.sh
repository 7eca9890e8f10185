#!/usr/bin/env bash
# Time the two container audits side by side on a private Docker Engine
# (Debian's docker.io; as root): `scan docker://` over N running containers
# (default 50) against `docker inspect` of the same containers — the
# runtime's own record, the least any outside audit must read — and the
# live audit inside one container (its run time from the engine's
# StartedAt/FinishedAt). Needs busybox-static for the containers' sleep.
#
#   bench/docker.sh [N=50]
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-50}
OUT=bench/out/docker
mkdir -p "$OUT"
need=()
command -v dockerd >/dev/null || need+=(docker.io)
command -v hyperfine >/dev/null || need+=(hyperfine)
[ -x /usr/bin/busybox ] || need+=(busybox-static)
if [ ${#need[@]} -gt 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}"; fi

CGO_ENABLED=0 go build -trimpath -o "$OUT/sandbox-audit" ./cmd/sandbox-audit
dir=$(mktemp -d /tmp/sa-bench-docker.XXXXXX)
sock=$dir/docker.sock
dockerd --host "unix://$sock" --data-root "$dir/data" --exec-root "$dir/exec" --pidfile "$dir/pid" \
  --bridge=none --iptables=false >"$dir/dockerd.log" 2>&1 &
cleanup() {
  docker rm -f $(docker ps -aq) >/dev/null 2>&1 || true
  pid=$(cat "$dir/pid" 2>/dev/null || true)
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; while kill -0 "$pid" 2>/dev/null; do sleep 0.2; done; fi
  mount | awk -v d="$dir" 'index($3, d) == 1 {print $3}' | sort -r | xargs -r umount -l
  rm -rf "$dir"
}
trap cleanup EXIT
export DOCKER_HOST=unix://$sock
for _ in $(seq 50); do docker version >/dev/null 2>&1 && break; sleep 0.2; done

root=$dir/rootfs
mkdir -p "$root/bin" "$root/etc"
cp /usr/bin/busybox "$root/bin/" && ln -s busybox "$root/bin/sleep" && ln -s busybox "$root/bin/sh"
cp "$OUT/sandbox-audit" "$root/sandbox-audit"
echo 'root:x:0:0:root:/root:/bin/sh' >"$root/etc/passwd"
tar -C "$root" -c . | docker import - sa-bench:1 >/dev/null
for i in $(seq "$N"); do
  docker run -d --name "c$i" --label bench=1 --cap-add NET_ADMIN -e "API_TOKEN=tok$i" sa-bench:1 sleep 3600 >/dev/null
done

hyperfine --warmup 2 --runs "${RUNS:-20}" -N --export-json "$OUT/outside.json" \
  -n "docker inspect ($N)" "docker inspect $(docker ps -q | tr '\n' ' ')" \
  -n "scan docker:// ($N)" "$OUT/sandbox-audit scan docker:// --fail-on none -f json -o $OUT/outside.out.json"

# The live audit inside a container: its process's run time as the engine records it.
for i in $(seq 10); do
  id=$(docker run -d sa-bench:1 /sandbox-audit scan --live -f json --fail-on none)
  docker wait "$id" >/dev/null
  docker inspect -f '{{.State.StartedAt}} {{.State.FinishedAt}}' "$id"
  docker rm "$id" >/dev/null
done | python3 -c '
import sys, datetime, statistics
def t(s):
    d, frac = s.rstrip("Z").split(".")
    return datetime.datetime.fromisoformat(d).timestamp() + float("0." + frac)
ms = [1000 * (t(b) - t(a)) for a, b in (l.split() for l in sys.stdin)]
print(f"scan --live inside a container: median {statistics.median(ms):.0f} ms (min {min(ms):.0f}, max {max(ms):.0f}, n={len(ms)})")
' | tee "$OUT/live.txt"
