#!/usr/bin/env bash
# deploy/kubernetes/e2e/run.sh: the shipped deploy/kubernetes manifests on a
# real single-node Kubernetes, checked against an unsharded run (README.md).
#
#   sudo deploy/kubernetes/e2e/run.sh        # exit 0 equal, 1 different, 2 failed before comparing
#   sudo deploy/kubernetes/e2e/run.sh down   # clean up after a run that was killed (kill -9)
#
# It builds (or reuses, from $K8S_CACHE) Kubernetes from the Go module proxy,
# starts etcd, the control plane, containerd, the kubelet and kube-proxy on
# this machine, builds the Dockerfile's fleet stage without a registry,
# serves the project's fixtures as git repositories and a throwaway
# PostgreSQL on the node, applies deploy/kubernetes through overlay.yaml,
# runs one Job from the CronJob (an Indexed Job of 4 shards) into PostgreSQL,
# runs the same inventory unsharded here into SQLite with the same binary,
# and compares the two runs' reports (compare.sh). Everything it starts is
# stopped on exit, whatever the outcome, and the sysctls the kubelet changes
# are put back.
set -euo pipefail

E2E=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$E2E/../../.." && pwd)
K8S_VER=${K8S_VER:-v1.34.4}
CRICTL_VER=${CRICTL_VER:-v1.34.0}
K8S_CACHE=${K8S_CACHE:-/var/cache/sandbox-audit-k8s}
BIN=$K8S_CACHE/bin
WORK=${E2E_WORK:-/tmp/sandbox-audit-k8s-e2e}
STATE=/var/lib/sandbox-audit-k8s-e2e
RUNDIR=/run/sandbox-audit-k8s-e2e
CSOCK=$RUNDIR/containerd.sock
PG_PORT=${E2E_PG_PORT:-15432}
FIXTURES=${E2E_FIXTURES:-fixtures/scenarios/*}
JOB_TIMEOUT=${E2E_JOB_TIMEOUT:-900}
NS=sandbox-audit
CRONJOB=sandbox-audit-fleet
JOB=fleet-e2e
IMAGE_NAME=sandbox.local/sandbox-audit-fleet
IMAGE_TAG=e2e
SA=$WORK/images/sandbox-audit
export KUBECONFIG=$WORK/pki/admin.kubeconfig KUBECACHEDIR=$WORK/kube-cache PATH=$BIN:$PATH

T0=$SECONDS
TLAST=$SECONDS
COMPARED=0
INVENTORY_LINK=
log() { printf '[e2e %4ss] %s\n' "$((SECONDS - T0))" "$*"; }
die() {
	log "FAIL: $*" >&2
	exit 2
}
# phase NAME: the time since the previous phase was NAME's
phase() {
	printf '%-44s %5ss\n' "$1" "$((SECONDS - TLAST))" >>"$WORK/out/times.txt"
	TLAST=$SECONDS
}
# start NAME CMD...: CMD in a session of its own (stop kills its group)
start() {
	local n=$1
	shift
	setsid "$@" >"$WORK/logs/$n.log" 2>&1 </dev/null &
	echo $! >"$WORK/run/$n.pid"
}

# shellcheck source-path=SCRIPTDIR source=cluster.sh
. "$E2E/cluster.sh"

need_packages() {
	local need=()
	command -v etcd >/dev/null || need+=(etcd-server)
	command -v containerd >/dev/null || need+=(containerd)
	command -v runc >/dev/null || need+=(runc)
	[ -x /usr/lib/cni/bridge ] || need+=(containernetworking-plugins)
	command -v iptables >/dev/null || need+=(iptables)
	command -v ss >/dev/null || need+=(iproute2)
	command -v setpriv >/dev/null || need+=(util-linux)
	command -v openssl >/dev/null || need+=(openssl)
	command -v git >/dev/null || need+=(git)
	command -v curl >/dev/null || need+=(curl)
	command -v jq >/dev/null || need+=(jq)
	command -v sqlite3 >/dev/null || need+=(sqlite3)
	command -v mmdebstrap >/dev/null || need+=(mmdebstrap)
	command -v perl >/dev/null || need+=(perl)
	compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || need+=(postgresql)
	if [ ${#need[@]} -gt 0 ]; then
		log "installing ${need[*]}"
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
	fi
	command -v go >/dev/null || die "needs Go (the version of go.mod) and the Go module proxy"
	PGBIN=$(dirname "$(compgen -G '/usr/lib/postgresql/*/bin/initdb' | sort -V | tail -1)")
}

# services_down: the PostgreSQL and the git daemon.
services_down() {
	if [ -f "$WORK/pg/data/postmaster.pid" ]; then
		(cd / && setpriv --reuid=postgres --regid=postgres --init-groups "$PGBIN/pg_ctl" -D "$WORK/pg/data" -m fast -w stop) >/dev/null 2>&1 || true
	fi
	stop postgres
	stop git-daemon
}

prepare_work() {
	case $WORK in /* ) ;; *) die "E2E_WORK must be an absolute path" ;; esac
	if [ "$WORK" = / ] || [ "$WORK" = "$REPO" ]; then die "E2E_WORK=$WORK: not there"; fi
	if [ -e "$WORK" ] && [ ! -e "$WORK/.sandbox-audit-k8s-e2e" ] && [ -n "$(ls -A "$WORK")" ]; then
		die "$WORK exists and was not made by this script: give another E2E_WORK"
	fi
	if compgen -G "$WORK/run/*.pid" >/dev/null || [ -e "$STATE" ] || [ -e "$RUNDIR" ]; then
		log "a previous run was not cleaned up: cleaning up first"
		(
			set +e
			services_down
			cluster_down
		)
	fi
	rm -rf "$WORK"
	mkdir -p "$WORK/logs" "$WORK/run" "$WORK/out" "$WORK/images"
	touch "$WORK/.sandbox-audit-k8s-e2e"
}

# leftovers: say what of this run is still there after the clean-up.
leftovers() {
	local f left=()
	for f in "$WORK"/run/*.pid; do
		[ -f "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null && left+=("process $(basename "$f" .pid)")
	done
	ip link show cni0 >/dev/null 2>&1 && left+=("cni0")
	grep -qE " ($STATE|$RUNDIR)[/ ]" /proc/mounts && left+=("mounts under $STATE or $RUNDIR")
	for f in iptables ip6tables; do
		command -v "$f-save" >/dev/null && "$f-save" 2>/dev/null | grep -qE '^:(KUBE-|CNI-)' && left+=("$f KUBE-/CNI- chains")
	done
	[ -e "$STATE" ] && left+=("$STATE")
	if [ -f "$WORK/run/sysctl.before" ]; then left+=("sysctls not restored"); fi
	if [ ${#left[@]} -gt 0 ]; then
		log "WARNING: left after the clean-up: ${left[*]}"
	else
		log "clean: no process, mount, bridge, iptables chain or state of this run is left; sysctls restored"
	fi
}

# shellcheck disable=SC2317 # the EXIT trap
on_exit() {
	local rc=$?
	trap - EXIT INT TERM
	set +e
	exec 1>&3 2>&4 # not into a file a function was writing when it failed
	if [ "$rc" -ne 0 ] && [ "$COMPARED" != 1 ]; then
		rc=2
		phase "(the step that failed)"
	fi
	log "cleaning up"
	services_down
	cluster_down
	phase "clean up (cluster down)"
	leftovers
	printf '%-44s %5ss\n' "total" "$((SECONDS - T0))" >>"$WORK/out/times.txt"
	echo "--- wall times"
	cat "$WORK/out/times.txt"
	case $rc in
	0) log "PASS: the sharded run on Kubernetes (PostgreSQL) and the unsharded run (SQLite) give the same answer" ;;
	1) log "FAIL: the sharded and the unsharded run differ (see above; $WORK/out)" ;;
	*)
		if [ "$COMPARED" = 1 ]; then
			log "FAIL: the runs were compared, but they did not audit every target served (see above)"
		else
			log "FAIL: stopped before a comparison could be made (exit $rc; logs in $WORK/logs, outputs in $WORK/out)"
		fi
		;;
	esac
	exit "$rc"
}

build_sandbox_audit() {
	log "building sandbox-audit from $REPO ($(git -C "$REPO" describe --always --dirty 2>/dev/null || echo '?')), CGO_ENABLED=0"
	(cd "$REPO" && CGO_ENABLED=0 nice -n 19 go build -trimpath -ldflags="-s -w" -o "$SA" ./cmd/sandbox-audit)
}

# fleet_image: the Dockerfile's fleet stage, read from the Dockerfile (its
# Debian release, packages, binary path, user, entrypoint and command),
# built with mmdebstrap (the Debian root file system, cached in $K8S_CACHE)
# and mkimage.sh, and imported into the node's containerd.
fleet_image() {
	local stage from ver suite pkgs dest user entry cmd key tarball r
	stage=$(awk '/^FROM .* AS fleet$/ { f = 1 } f && /^FROM / && !/ AS fleet$/ { f = 0 } f' "$REPO/Dockerfile" |
		sed -e ':a' -e '/\\$/{N;s/\\\n//;ba' -e '}')
	from=$(sed -n 's/^FROM \([^ ]*\) AS fleet$/\1/p' <<<"$stage")
	pkgs=$(sed -n 's/.*apt-get install -y --no-install-recommends \([^&]*\).*/\1/p' <<<"$stage" | xargs)
	dest=$(sed -n 's#^COPY --from=build /sandbox-audit \(/[^ ]*\)$#\1#p' <<<"$stage")
	user=$(sed -n 's/^USER //p' <<<"$stage")
	entry=$(sed -n 's/^ENTRYPOINT //p' <<<"$stage")
	cmd=$(sed -n 's/^CMD //p' <<<"$stage")
	if [ -z "$from" ] || [ -z "$pkgs" ] || [ -z "$dest" ] || [ -z "$user" ] || [ -z "$entry" ]; then
		die "cannot read the fleet stage of $REPO/Dockerfile (FROM, apt-get install, COPY, USER, ENTRYPOINT)"
	fi
	[ -n "$cmd" ] || cmd=null
	ver=${from#debian:}
	case ${ver%%[.-]*} in
	11) suite=bullseye ;;
	12) suite=bookworm ;;
	13) suite=trixie ;;
	*) die "the fleet stage is FROM $from: not a Debian release this script knows" ;;
	esac
	key=$(echo "$suite $pkgs" | sha256sum | cut -c1-12)
	tarball=$K8S_CACHE/fleet-rootfs-$suite-$key.tar
	if [ ! -s "$tarball" ]; then
		log "Debian $suite root file system with $pkgs (mmdebstrap from deb.debian.org, for $from)"
		mkdir -p "$K8S_CACHE"
		nice -n 19 mmdebstrap --variant=minbase --include="${pkgs// /,}" \
			--aptopt='APT::Install-Recommends "false"' \
			--dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
			--dpkgopt='path-exclude=/usr/share/info/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
			"$suite" "$tarball.part.tar" http://deb.debian.org/debian >"$WORK/logs/mmdebstrap.log" 2>&1 ||
			die "mmdebstrap failed: $WORK/logs/mmdebstrap.log"
		mv "$tarball.part.tar" "$tarball"
	else
		log "Debian $suite root file system with $pkgs: $tarball (cached)"
	fi
	r=$WORK/images/fleet-rootfs
	rm -rf "$r"
	mkdir -p "$r"
	tar -C "$r" -xf "$tarball"
	rm -rf "$r"/var/lib/apt/lists/* "$r"/var/cache/apt/*
	install -D -m 0755 "$SA" "$r$dest"
	"$E2E/mkimage.sh" "$WORK/images/fleet.tar" "$IMAGE_NAME:$IMAGE_TAG" "$r" "$entry" "$cmd" "$user" >/dev/null
	rm -rf "$r"
	log "image $IMAGE_NAME:$IMAGE_TAG: $(du -h "$WORK/images/fleet.tar" | cut -f1) (FROM $from as $suite; $dest; USER $user)"
}

import_images() {
	local t
	for t in "$WORK/images/pause.tar" "$WORK/images/fleet.tar"; do
		ctr -a "$CSOCK" -n k8s.io images import "$t" >/dev/null
	done
}

start_postgres() {
	PG_PASSWORD=$(openssl rand -hex 16)
	mkdir -p "$WORK/pg"
	chown postgres: "$WORK/pg"
	(cd / && setpriv --reuid=postgres --regid=postgres --init-groups "$PGBIN/initdb" -D "$WORK/pg/data" -U postgres \
		--auth-local=trust --auth-host=scram-sha-256 -E UTF8) >"$WORK/logs/initdb.log" 2>&1
	printf 'host all all %s scram-sha-256\nhost all all %s/32 scram-sha-256\n' "$POD_CIDR" "$NODE_IP" >>"$WORK/pg/data/pg_hba.conf"
	start postgres setpriv --reuid=postgres --regid=postgres --init-groups "$PGBIN/postgres" -D "$WORK/pg/data" \
		-p "$PG_PORT" -k "$WORK/pg" -c "listen_addresses=127.0.0.1,$NODE_IP" -c fsync=off
	waitfor PostgreSQL 30 psql -h "$WORK/pg" -p "$PG_PORT" -U postgres -qAtc 'select 1'
	psql -h "$WORK/pg" -p "$PG_PORT" -U postgres -v ON_ERROR_STOP=1 -q \
		-c "create role audit login password '$PG_PASSWORD'" -c "create database fleet owner audit"
	DSN="postgres://audit:$PG_PASSWORD@$NODE_IP:$PG_PORT/fleet?sslmode=disable"
	log "PostgreSQL $(basename "$(dirname "$PGBIN")") on $NODE_IP:$PG_PORT (pods reach the node's address)"
}

# serve_fixtures: each fixture directory a git repository of one commit
# (fixed dates: the same commit every run), served at git://NODE_IP/PATH.git.
serve_fixtures() {
	local d rel w
	TARGETS=()
	mkdir -p "$WORK/git"
	# shellcheck disable=SC2086 # FIXTURES is a list of globs
	for d in $(cd "$REPO" && printf '%s\n' $FIXTURES); do
		[ -d "$REPO/$d" ] || continue
		rel=${d#fixtures/}
		w=$(mktemp -d)
		cp -a "$REPO/$d/." "$w/"
		(cd "$w" && git init -q -b main && git add -A &&
			GIT_AUTHOR_DATE=2000-01-01T00:00:00Z GIT_COMMITTER_DATE=2000-01-01T00:00:00Z git -c user.name=e2e -c user.email=e2e@sandbox-audit.invalid commit -qm "$d")
		mkdir -p "$(dirname "$WORK/git/$rel.git")"
		git clone -q --bare "$w" "$WORK/git/$rel.git"
		rm -rf "$w"
		TARGETS+=("git://$NODE_IP/$rel.git")
	done
	[ ${#TARGETS[@]} -gt 0 ] || die "E2E_FIXTURES=$FIXTURES matches no directory of $REPO"
	start git-daemon git daemon --export-all --base-path="$WORK/git" --reuseaddr --listen="$NODE_IP" --port=9418
	waitfor "git daemon" 30 git ls-remote "${TARGETS[0]}"
	log "git daemon on $NODE_IP:9418 serves ${#TARGETS[@]} fixtures: ${TARGETS[*]##*/}"
}

write_overlay() {
	local o=$WORK/overlay t cpu nproc completions
	mkdir -p "$o"
	{
		echo "version: 1"
		echo "targets:"
		for t in "${TARGETS[@]}"; do printf '  - git: %s\n    ref: main\n' "$t"; done
	} >"$o/fleet.yaml"
	printf '%s' "$DSN" >"$o/store-url"
	# the shipped request only when the node has a CPU for each shard
	nproc=$(nproc)
	completions=$(kubectl kustomize "$REPO/deploy/kubernetes" | sed -n 's/^ *completions: \([0-9]*\)$/\1/p')
	cpu=$(kubectl kustomize "$REPO/deploy/kubernetes" | awk '/requests:/ { r = 1; next } r && /cpu:/ { gsub(/"/, ""); print $2; exit }')
	# kustomize takes no absolute path to a base
	sed -e "s#@BASE@#$(realpath --relative-to="$o" "$REPO/deploy/kubernetes")#" -e "s#@IMAGE_NAME@#$IMAGE_NAME#" -e "s#@IMAGE_TAG@#$IMAGE_TAG#" "$E2E/overlay.yaml" >"$o/kustomization.yaml"
	if [ "$cpu" = 1 ] && [ "$nproc" -lt "$completions" ]; then
		sed -i -e 's/# @CPU@ /# /' -e "s/@CPU_REQUEST@/$((nproc * 800 / completions))m/" "$o/kustomization.yaml"
	else
		sed -i '/@CPU@/,/@CPU_REQUEST@/d' "$o/kustomization.yaml"
	fi
}

# flat DIR: the rendered objects of a kustomization, one line per value:
# KIND/NAME PATH=JSON
flat() {
	kubectl kustomize "$1" | kubectl create --dry-run=client -o json -f - |
		jq -r '(if .kind == "List" then .items[] else . end) | . as $o
			| paths(scalars) as $p | "\($o.kind)/\($o.metadata.name) \($p | map(tostring) | join("."))=\($o | getpath($p) | tojson)"' |
		LC_ALL=C sort
}

# check_overlay: the overlay changes the shipped manifests in these places
# alone: the image and its pull policy, the CPU request, the inventory's
# content, and the store's Secret (which the shipped manifests leave to you).
check_overlay() {
	local allowed bad
	flat "$REPO/deploy/kubernetes" >"$WORK/out/rendered.shipped"
	flat "$WORK/overlay" >"$WORK/out/rendered.e2e"
	diff "$WORK/out/rendered.shipped" "$WORK/out/rendered.e2e" | grep '^[<>]' >"$WORK/out/rendered.diff" || true
	allowed='^([<>] CronJob/sandbox-audit-fleet spec\.jobTemplate\.spec\.template\.spec\.containers\.0\.(image|imagePullPolicy|resources\.requests\.cpu)=|[<>] ConfigMap/sandbox-audit-inventory data\.fleet\.yaml=|> Secret/sandbox-audit-store )'
	bad=$(grep -vE "$allowed" "$WORK/out/rendered.diff" || true)
	[ -z "$bad" ] || die "the overlay changes more of deploy/kubernetes than it may:
$bad"
	log "the overlay changes of deploy/kubernetes only:"
	grep -v -e '^< ConfigMap' -e '^> ConfigMap' -e '^> Secret' "$WORK/out/rendered.diff" | sed 's/^/    /'
	echo "    (and the inventory's content; and adds the store's Secret)"
}

# wait_job: until the Job is Complete (0), or Failed or a pod of it failed
# (die): here nothing should fail, so a failed pod is not left to the Job's
# retries (backoffLimit) but shown at once.
wait_job() {
	local i st failed p
	for ((i = 0; i < JOB_TIMEOUT; i += 2)); do
		# while a pod runs, its inventory volume is there to look at
		if [ -z "$INVENTORY_LINK" ]; then
			INVENTORY_LINK=$(find "$STATE/kubelet/pods" -path '*/volumes/kubernetes.io~configmap/inventory/fleet.yaml' \
				-exec stat -c '%N' {} + 2>/dev/null | head -1 | sed "s#^'.*/inventory/#'#" || true)
		fi
		st=$(kubectl -n "$NS" get job "$JOB" -o jsonpath='{range .status.conditions[*]}{.type}={.status} {end}' 2>/dev/null || true)
		case " $st" in
		*" Complete=True "*) return 0 ;;
		esac
		failed=$(kubectl -n "$NS" get job "$JOB" -o jsonpath='{.status.failed}' 2>/dev/null || true)
		if [ "${failed:-0}" != 0 ]; then
			kubectl -n "$NS" get pods -l "job-name=$JOB" -o wide || true
			for p in $(kubectl -n "$NS" get pods -l "job-name=$JOB" --field-selector=status.phase=Failed -o name); do
				echo "--- $p"
				kubectl -n "$NS" logs "$p" || true
			done
			die "a pod of job $JOB failed"
		fi
		case " $st" in
		*" Failed=True "*)
			kubectl -n "$NS" get pods -l "job-name=$JOB" -o wide || true
			die "job $JOB failed: $st"
			;;
		esac
		sleep 2
	done
	kubectl -n "$NS" get pods -l "job-name=$JOB" -o wide || true
	die "job $JOB did not complete in ${JOB_TIMEOUT}s"
}

# The run's rows of the store, the same SELECT for SQLite and PostgreSQL.
store_sql() {
	cat <<SQL
SELECT 'target', target, verdict, CASE WHEN gate_passed THEN 'gate-passed' ELSE 'gate-failed' END,
       CASE WHEN incomplete THEN 'incomplete' ELSE 'whole' END, error, '' FROM results WHERE run = $1
UNION ALL SELECT 'property', target, property, status, CAST(score AS TEXT), '', '' FROM properties WHERE run = $1
UNION ALL SELECT 'finding', target, fingerprint, rule, severity, file || ':' || CAST(line AS TEXT),
       CASE WHEN suppressed THEN 'suppressed' ELSE 'active' END FROM findings WHERE run = $1
UNION ALL SELECT 'unread', target, file, CAST(line AS TEXT), kind, message, '' FROM unread WHERE run = $1;
SQL
}

# reports DIR STORE ID: the run's reports (JSON, SARIF) and store rows in DIR
reports() {
	local d=$1 store=$2 id=$3
	SANDBOX_AUDIT_STORE=$store "$SA" fleet report -f json --run "$id" >"$d/report.json"
	SANDBOX_AUDIT_STORE=$store "$SA" fleet report -f sarif --run "$id" >"$d/report.sarif"
	SANDBOX_AUDIT_STORE=$store "$SA" fleet report --run "$id" >"$d/report.txt"
}

run_job() {
	local d=$WORK/out/k8s p id row mount
	mkdir -p "$d"
	kubectl create namespace "$NS" >/dev/null
	kubectl apply -k "$WORK/overlay" | sed 's/^/    /'
	# the inventory as the shipped manifest mounts it: the whole ConfigMap,
	# no subPath, so fleet.yaml is a symlink into the volume's ..data
	mount=$(kubectl -n "$NS" get cronjob "$CRONJOB" -o json | jq -r '.spec.jobTemplate.spec.template.spec as $s
		| ($s.containers[0].volumeMounts[] | select(.name == "inventory") | "\(.mountPath) subPath=\(.subPath // "none")"),
		  ($s.volumes[] | select(.name == "inventory") | "configMap=\(.configMap.name // "none")")' | xargs)
	[ "$mount" = "/etc/sandbox-audit subPath=none configMap=sandbox-audit-inventory" ] ||
		die "the inventory is not mounted as the shipped manifest mounts it: $mount"
	kubectl -n "$NS" create job --from="cronjob/$CRONJOB" "$JOB" >/dev/null
	log "job $JOB created from cronjob/$CRONJOB: $(kubectl -n "$NS" get job "$JOB" -o jsonpath='{.spec.completions} completions, parallelism {.spec.parallelism}, {.spec.completionMode}')"
	wait_job
	if [ -n "$INVENTORY_LINK" ]; then
		log "the inventory volume: $mount; in a running pod's volume: $INVENTORY_LINK"
	else
		log "the inventory volume: $mount"
	fi
	kubectl -n "$NS" get pods -l "job-name=$JOB" -o wide >"$d/pods.txt"
	sed 's/^/    /' "$d/pods.txt"
	for p in $(kubectl -n "$NS" get pods -l "job-name=$JOB" -o name); do
		kubectl -n "$NS" logs "$p" >"$d/${p#pod/}.log" 2>&1 || true
		echo "    ${p#pod/} (shard $(kubectl -n "$NS" get "$p" -o jsonpath='{.metadata.annotations.batch\.kubernetes\.io/job-completion-index}')): $(tr '\n' ' ' <"$d/${p#pod/}.log")"
	done
	id=$(psql "$DSN" -qAtc "SELECT id FROM runs WHERE name = '$JOB'")
	[ -n "$id" ] || die "no run named $JOB in the store"
	row=$(psql "$DSN" -qAtc "SELECT complete, targets, shards FROM runs WHERE id = $id")
	log "store: run $id ($JOB): complete|targets|shards = $row"
	[ "${row%%|*}" = t ] || die "the run is not complete"
	reports "$d" "$DSN" "$id"
	psql "$DSN" -qAt -F $'\t' -v ON_ERROR_STOP=1 -c "$(store_sql "$id")" >"$d/store.tsv"
}

# run_local: the inventory the pods read (the ConfigMap's), with the pods'
# arguments but --shard and the store, here, unsharded, into SQLite.
run_local() {
	local d=$WORK/out/local a args=() rc=0 id
	mkdir -p "$d/home"
	kubectl -n "$NS" get configmap sandbox-audit-inventory -o jsonpath='{.data.fleet\.yaml}' >"$d/fleet.yaml"
	cmp -s "$d/fleet.yaml" "$WORK/overlay/fleet.yaml" || die "the ConfigMap's inventory is not the one written"
	while IFS= read -r a; do
		case $a in
		--inventory=*) args+=(--inventory=fleet.yaml) ;;
		--run-name=*) args+=(--run-name=local) ;;
		--git-cache=*) args+=(--git-cache=cache/git) ;;
		--shard=* | --store=*) ;;
		*) args+=("$a") ;;
		esac
	done < <(kubectl -n "$NS" get cronjob "$CRONJOB" -o json | jq -r '.spec.jobTemplate.spec.template.spec.containers[0].args[]')
	log "unsharded here: sandbox-audit ${args[*]} --store local.db"
	(cd "$d" && env -u JOB_COMPLETION_INDEX -u JOB_COMPLETIONS -u SANDBOX_AUDIT_STORE HOME="$d/home" \
		nice -n 19 "$SA" "${args[@]}" --store local.db) >"$d/scan.log" 2>&1 || rc=$?
	sed 's/^/    /' "$d/scan.log"
	[ "$rc" = 0 ] || log "the unsharded scan exited $rc"
	id=$(sqlite3 "$d/local.db" "SELECT id FROM runs WHERE name = 'local'")
	[ -n "$id" ] || die "no run named local in $d/local.db"
	reports "$d" "$d/local.db" "$id"
	sqlite3 -batch -noheader -separator $'\t' "$d/local.db" "$(store_sql "$id")" >"$d/store.tsv"
}

main() {
	[ "$(id -u)" = 0 ] || die "run as root (it starts a kubelet and containerd)"
	case ${1:-} in
	down)
		need_packages
		if [ -d "$WORK/run" ]; then
			set +e
			services_down
			cluster_down
			leftovers
		fi
		exit 0
		;;
	"") ;;
	*)
		echo "usage: $0 [down]" >&2
		exit 2
		;;
	esac
	need_packages
	NODE=$(hostname | tr '[:upper:]' '[:lower:]')
	NODE_IP=${E2E_NODE_IP:-$(ip -4 route get 1.1.1.1 | sed -n 's/.* src \([0-9.]*\).*/\1/p')}
	[ -n "$NODE_IP" ] || die "no node address (give E2E_NODE_IP)"
	prepare_work
	cluster_preflight
	for p in 9418 "$PG_PORT"; do
		! ss -Htln "sport = :$p" | grep -q . || die "port $p is in use (E2E_PG_PORT for PostgreSQL's)"
	done
	exec 3>&1 4>&2
	trap on_exit EXIT
	trap 'exit 130' INT TERM
	log "work: $WORK; cache: $K8S_CACHE; node $NODE at $NODE_IP"

	k8s_binaries
	phase "Kubernetes binaries"
	build_sandbox_audit
	phase "sandbox-audit build"
	fleet_image
	pause_image
	phase "images (Dockerfile fleet stage, pause)"
	cluster_up
	import_images
	log "node $NODE Ready: $(kubectl get node "$NODE" -o jsonpath='{.status.nodeInfo.kubeletVersion}, {.status.nodeInfo.containerRuntimeVersion}')"
	phase "cluster up, images imported"
	start_postgres
	serve_fixtures
	phase "PostgreSQL, git daemon"
	write_overlay
	check_overlay
	run_job
	phase "apply, Job from the CronJob to Complete"
	run_local
	phase "unsharded run here"

	log "comparing the sharded run (Kubernetes, PostgreSQL) with the unsharded run (here, SQLite)"
	local rc=0 errs
	"$E2E/compare.sh" "$WORK/out/k8s" "$WORK/out/local" || rc=$?
	COMPARED=1
	phase "compare"
	errs=$(jq '.verdicts.error // 0' "$WORK/out/k8s/report.json")
	if [ "$rc" = 0 ] && [ "$errs" != 0 ]; then
		log "both runs are alike, but $errs of their targets could not be audited: not a check"
		rc=2
	fi
	if [ "$rc" = 0 ] && [ "$(jq .run.targets "$WORK/out/k8s/report.json")" != "${#TARGETS[@]}" ]; then
		log "the runs do not hold the ${#TARGETS[@]} targets served"
		rc=2
	fi
	exit "$rc"
}

main "$@"
