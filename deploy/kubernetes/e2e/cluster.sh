# shellcheck shell=bash
# A single-node Kubernetes cluster on this machine, from binaries built out of
# the Go module proxy: sourced by run.sh (see README.md). It needs run.sh's
# variables: K8S_VER CRICTL_VER K8S_CACHE BIN WORK STATE RUNDIR CSOCK, and
# its functions log, die and start.
#
# Everything the cluster writes is under $WORK (certificates, configs, logs,
# pid files), $STATE (/var/lib/...: etcd, containerd, kubelet, CNI) and
# $RUNDIR (/run/...: containerd's state and socket), except what the
# programs fix themselves: /var/log/containers (the kubelet), the shim
# sockets in /run/containerd/s (containerd 1.6), the cni0 bridge, iptables
# chains named KUBE-* and CNI-*, the kubepods cgroups, and a few sysctls.
# cluster_down removes all of it and puts the sysctls back.

K8S_BINS="kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy kubectl crictl"
POD_CIDR=10.244.0.0/24
SERVICE_CIDR=10.96.0.0/16

# The sysctls the kubelet sets (setupKernelTunables), the ones kube-proxy
# sets unless told not to (its config below tells it not to), and the two
# this script sets: saved before, restored after.
SYSCTLS="vm.overcommit_memory vm.panic_on_oom kernel.panic kernel.panic_on_oops
kernel.keys.root_maxkeys kernel.keys.root_maxbytes net.ipv4.ip_forward
net.bridge.bridge-nf-call-iptables net.bridge.bridge-nf-call-ip6tables
net.ipv4.conf.all.route_localnet net.netfilter.nf_conntrack_max
net.netfilter.nf_conntrack_tcp_timeout_established net.netfilter.nf_conntrack_tcp_timeout_close_wait"

# k8s_binaries: $BIN holds the Kubernetes binaries at $K8S_VER, built if not.
# k8s.io/kubernetes is not installable as a module (its go.mod replaces 31
# k8s.io/* modules with ./staging, which the module zip leaves empty): a copy
# of it gets those replaces dropped and the staging modules required at
# their published v0.X.Y, whose checksums come through the proxy.
k8s_binaries() {
	local b have=1 want
	for b in $K8S_BINS; do [ -x "$BIN/$b" ] || have=0; done
	if [ "$have" = 1 ]; then
		want="Kubernetes $K8S_VER"
		if [ "$("$BIN/kubelet" --version 2>/dev/null)" = "$want" ]; then
			log "Kubernetes binaries: $BIN ($want, cached)"
			return 0
		fi
		log "Kubernetes binaries in $BIN are not $K8S_VER: rebuilding"
	fi
	log "building Kubernetes $K8S_VER into $BIN (cold: about 17 minutes on 2 cores)"
	local src=$K8S_CACHE/src/kubernetes-$K8S_VER staging=v0.${K8S_VER#v1.} minor dir
	mkdir -p "$K8S_CACHE/src" "$BIN"
	if [ ! -f "$src/.prepared" ]; then
		dir=$(cd "$K8S_CACHE/src" && GOFLAGS='' go mod download -json "k8s.io/kubernetes@$K8S_VER" | jq -r .Dir)
		[ -d "$dir" ] || die "go mod download k8s.io/kubernetes@$K8S_VER gave no directory"
		rm -rf "$src"
		cp -r "$dir" "$src"
		chmod -R u+w "$src"
		rm -rf "$src/go.work" "$src/go.work.sum" "$src/vendor"
		sed -i -E '/=> \.\/staging\//d; s#^(\s+k8s\.io/[a-z0-9-]+) v0\.0\.0( // indirect)?$#\1 '"$staging"'\2#' "$src/go.mod"
		perl -0pi -e 's/\nreplace \(\s*\)\n/\n/g' "$src/go.mod"
		touch "$src/.prepared"
	fi
	minor=$(echo "$K8S_VER" | cut -d. -f2)
	local ldf="-s -w -X k8s.io/component-base/version.gitVersion=$K8S_VER -X k8s.io/component-base/version.gitMajor=1"
	ldf+=" -X k8s.io/component-base/version.gitMinor=$minor -X k8s.io/component-base/version.gitTreeState=clean"
	ldf+=" -X k8s.io/client-go/pkg/version.gitVersion=$K8S_VER"
	(cd "$src" && GOFLAGS=-mod=mod CGO_ENABLED=0 nice -n 19 go build -p "$(nproc)" -trimpath -ldflags "$ldf" -o "$BIN/" \
		./cmd/kube-apiserver ./cmd/kube-controller-manager ./cmd/kube-scheduler ./cmd/kubelet ./cmd/kubectl ./cmd/kube-proxy) \
		>"$WORK/logs/k8s-build.log" 2>&1 || die "Kubernetes build failed: $WORK/logs/k8s-build.log"
	(cd "$K8S_CACHE/src" && GOFLAGS='' GOBIN=$BIN CGO_ENABLED=0 nice -n 19 go install -trimpath -ldflags "-s -w" \
		"sigs.k8s.io/cri-tools/cmd/crictl@$CRICTL_VER") >>"$WORK/logs/k8s-build.log" 2>&1 ||
		die "crictl build failed: $WORK/logs/k8s-build.log"
}

# pause_image: the pod sandbox image, a static Go program that sleeps until
# SIGTERM and reaps children (registry.k8s.io/pause cannot be pulled here).
pause_image() {
	local d=$K8S_CACHE/pause
	if [ ! -x "$d/pause" ]; then
		mkdir -p "$d"
		printf 'module pause\n\ngo 1.22\n' >"$d/go.mod"
		cat >"$d/main.go" <<'GO'
// pause: sleep until SIGINT or SIGTERM (exit 0); reap children on SIGCHLD.
package main

import (
	"os"
	"os/signal"
	"syscall"
)

func main() {
	c := make(chan os.Signal, 8)
	signal.Notify(c, syscall.SIGINT, syscall.SIGTERM, syscall.SIGCHLD)
	for s := range c {
		if s != syscall.SIGCHLD {
			os.Exit(0)
		}
		for {
			var ws syscall.WaitStatus
			if pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil); pid <= 0 || err != nil {
				break
			}
		}
	}
}
GO
		(cd "$d" && GOFLAGS='' CGO_ENABLED=0 nice -n 19 go build -trimpath -ldflags "-s -w" -o pause .)
	fi
	rm -rf "$WORK/images/pause-rootfs"
	mkdir -p "$WORK/images/pause-rootfs"
	cp "$d/pause" "$WORK/images/pause-rootfs/pause"
	"$E2E/mkimage.sh" "$WORK/images/pause.tar" registry.k8s.io/pause:3.10 "$WORK/images/pause-rootfs" \
		'["/pause"]' 'null' 65535:65535 >/dev/null
}

certs() {
	local p=$WORK/pki n
	mkdir -p "$p"
	openssl genrsa -out "$p/ca.key" 2048 2>/dev/null
	openssl req -x509 -new -key "$p/ca.key" -days 30 -subj "/CN=sandbox-audit-e2e-ca" -out "$p/ca.crt"
	openssl genrsa -out "$p/sa.key" 2048 2>/dev/null
	openssl rsa -in "$p/sa.key" -pubout -out "$p/sa.pub" 2>/dev/null
	mk() { # name CN O [SAN]
		local n=$1 cn=$2 o=$3 san=${4:-} subj
		openssl genrsa -out "$p/$n.key" 2048 2>/dev/null
		subj="/CN=$cn"
		[ -n "$o" ] && subj="/O=$o/CN=$cn"
		openssl req -new -key "$p/$n.key" -subj "$subj" -out "$p/$n.csr"
		{
			echo "basicConstraints=CA:FALSE"
			echo "keyUsage=critical,digitalSignature,keyEncipherment"
			if [ -n "$san" ]; then
				echo "extendedKeyUsage=serverAuth,clientAuth"
				echo "subjectAltName=$san"
			else
				echo "extendedKeyUsage=clientAuth"
			fi
		} >"$p/$n.ext"
		openssl x509 -req -in "$p/$n.csr" -CA "$p/ca.crt" -CAkey "$p/ca.key" -CAcreateserial -days 30 \
			-extfile "$p/$n.ext" -out "$p/$n.crt" 2>/dev/null
		rm -f "$p/$n.csr" "$p/$n.ext"
	}
	mk apiserver kube-apiserver "" "DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local,DNS:localhost,DNS:$NODE,IP:127.0.0.1,IP:10.96.0.1,IP:$NODE_IP"
	mk admin admin system:masters
	mk apiserver-kubelet-client kube-apiserver-kubelet-client system:masters
	mk controller-manager system:kube-controller-manager ""
	mk scheduler system:kube-scheduler ""
	mk kubelet "system:node:$NODE" system:nodes
	mk kubelet-serving "$NODE" "" "DNS:$NODE,DNS:localhost,IP:127.0.0.1,IP:$NODE_IP"
	for n in admin controller-manager scheduler kubelet; do
		cat >"$p/$n.kubeconfig" <<KC
apiVersion: v1
kind: Config
clusters:
- name: local
  cluster: {certificate-authority: $p/ca.crt, server: "https://127.0.0.1:6443"}
users:
- name: $n
  user: {client-certificate: $p/$n.crt, client-key: $p/$n.key}
contexts:
- name: local
  context: {cluster: local, user: $n}
current-context: local
KC
	done
}

# waitfor DESC SECONDS CMD...: until CMD succeeds.
waitfor() {
	local d=$1 to=$2 i
	shift 2
	for ((i = 0; i < to; i++)); do
		if "$@" >/dev/null 2>&1; then return 0; fi
		sleep 1
	done
	die "timed out after ${to}s waiting for $d (logs: $WORK/logs)"
}

# cluster_preflight: nothing of another cluster is in the way (and would be
# torn down by cluster_down).
cluster_preflight() {
	local port busy="" t
	for port in 2379 2380 2381 6443 10248 10249 10250 10256 10257 10259; do
		if ss -Htln "sport = :$port" | grep -q .; then busy+=" $port"; fi
	done
	[ -z "$busy" ] || die "ports in use:$busy (another Kubernetes or etcd on this machine?)"
	! ip link show cni0 >/dev/null 2>&1 || die "a cni0 bridge exists already (another cluster on this machine?)"
	for t in iptables ip6tables; do
		command -v "$t-save" >/dev/null || continue
		if "$t-save" 2>/dev/null | grep -qE '^:(KUBE-|CNI-)'; then
			die "$t has KUBE-/CNI- chains already (another cluster on this machine?); this run would remove them"
		fi
	done
}

cluster_up() {
	local p=$WORK/pki etc=$WORK/etc k v
	mkdir -p "$etc/cni" "$STATE" "$RUNDIR"
	# what exists already is not ours to remove
	: >"$WORK/run/preexisting"
	for k in /var/log/containers /var/lib/kubelet /run/containerd /run/containerd/s/* /sys/fs/cgroup/*/kubepods; do
		if [ -e "$k" ]; then echo "$k" >>"$WORK/run/preexisting"; fi
	done
	for k in $SYSCTLS; do
		if v=$(sysctl -n "$k" 2>/dev/null); then echo "$k=$v"; fi
	done >"$WORK/run/sysctl.before"

	certs
	modprobe br_netfilter 2>/dev/null || true
	sysctl -qw net.ipv4.ip_forward=1
	if [ -e /proc/sys/net/bridge/bridge-nf-call-iptables ]; then sysctl -qw net.bridge.bridge-nf-call-iptables=1; fi

	# containerd 1.6 (Debian's), with the CRI plugin. This sandbox has no
	# CAP_SYS_RESOURCE: runc must not be asked to lower oom_score_adj.
	cat >"$etc/containerd.toml" <<TOML
version = 2
root = "$STATE/containerd"
state = "$RUNDIR/containerd"
[grpc]
  address = "$CSOCK"
[plugins]
  [plugins."io.containerd.internal.v1.opt"]
    path = "$STATE/opt"
  [plugins."io.containerd.grpc.v1.cri"]
    netns_mounts_under_state_dir = true
    restrict_oom_score_adj = true
    sandbox_image = "registry.k8s.io/pause:3.10"
    [plugins."io.containerd.grpc.v1.cri".containerd]
      snapshotter = "overlayfs"
      default_runtime_name = "runc"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
        runtime_type = "io.containerd.runc.v2"
        [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
          SystemdCgroup = false
          Root = "$RUNDIR/runc"
    [plugins."io.containerd.grpc.v1.cri".cni]
      bin_dir = "/usr/lib/cni"
      conf_dir = "$etc/cni"
TOML
	cat >"$etc/cni/10-bridge.conflist" <<JSON
{
  "cniVersion": "1.0.0",
  "name": "sandbox-audit-e2e",
  "plugins": [
    {"type": "bridge", "bridge": "cni0", "isGateway": true, "ipMasq": true, "hairpinMode": true,
     "ipam": {"type": "host-local", "ranges": [[{"subnet": "$POD_CIDR"}]], "routes": [{"dst": "0.0.0.0/0"}], "dataDir": "$STATE/cni"}},
    {"type": "portmap", "capabilities": {"portMappings": true}},
    {"type": "firewall"}
  ]
}
JSON
	start containerd containerd --config "$etc/containerd.toml"
	waitfor containerd 30 ctr -a "$CSOCK" version

	start etcd etcd --name node --data-dir "$STATE/etcd" \
		--listen-client-urls http://127.0.0.1:2379 --advertise-client-urls http://127.0.0.1:2379 \
		--listen-peer-urls http://127.0.0.1:2380 --initial-advertise-peer-urls http://127.0.0.1:2380 \
		--initial-cluster node=http://127.0.0.1:2380 --listen-metrics-urls http://127.0.0.1:2381
	waitfor etcd 30 curl -sf http://127.0.0.1:2379/health

	start kube-apiserver "$BIN/kube-apiserver" \
		--etcd-servers=http://127.0.0.1:2379 \
		--bind-address=0.0.0.0 --secure-port=6443 --advertise-address="$NODE_IP" \
		--tls-cert-file="$p/apiserver.crt" --tls-private-key-file="$p/apiserver.key" --client-ca-file="$p/ca.crt" \
		--kubelet-client-certificate="$p/apiserver-kubelet-client.crt" --kubelet-client-key="$p/apiserver-kubelet-client.key" \
		--service-account-key-file="$p/sa.pub" --service-account-signing-key-file="$p/sa.key" \
		--service-account-issuer=https://kubernetes.default.svc.cluster.local \
		--service-cluster-ip-range="$SERVICE_CIDR" \
		--authorization-mode=Node,RBAC --enable-admission-plugins=NodeRestriction \
		--profiling=false --v=1
	waitfor kube-apiserver 120 curl -sf --cacert "$p/ca.crt" --cert "$p/admin.crt" --key "$p/admin.key" https://127.0.0.1:6443/readyz

	start kube-controller-manager "$BIN/kube-controller-manager" \
		--kubeconfig="$p/controller-manager.kubeconfig" \
		--authentication-kubeconfig="$p/controller-manager.kubeconfig" --authorization-kubeconfig="$p/controller-manager.kubeconfig" \
		--service-account-private-key-file="$p/sa.key" --root-ca-file="$p/ca.crt" \
		--cluster-signing-cert-file="$p/ca.crt" --cluster-signing-key-file="$p/ca.key" \
		--use-service-account-credentials=true --leader-elect=false \
		--service-cluster-ip-range="$SERVICE_CIDR" --bind-address=127.0.0.1 --v=1
	start kube-scheduler "$BIN/kube-scheduler" \
		--kubeconfig="$p/scheduler.kubeconfig" \
		--authentication-kubeconfig="$p/scheduler.kubeconfig" --authorization-kubeconfig="$p/scheduler.kubeconfig" \
		--leader-elect=false --bind-address=127.0.0.1 --v=1

	# cgroupfs: this kind of VM may have cgroup v1 and no systemd;
	# failCgroupV1 is false by default in 1.34 (true from 1.35).
	cat >"$etc/kubelet.yaml" <<YAML
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: true}
  x509: {clientCAFile: $p/ca.crt}
authorization: {mode: Webhook}
cgroupDriver: cgroupfs
failCgroupV1: false
containerRuntimeEndpoint: unix://$CSOCK
tlsCertFile: $p/kubelet-serving.crt
tlsPrivateKeyFile: $p/kubelet-serving.key
podLogsDir: $STATE/pod-logs
failSwapOn: false
clusterDomain: cluster.local
resolvConf: /etc/resolv.conf
serializeImagePulls: false
evictionHard: {"memory.available": "100Mi", "nodefs.available": "2%", "imagefs.available": "2%"}
imageGCHighThresholdPercent: 99
imageGCLowThresholdPercent: 98
YAML
	start kubelet "$BIN/kubelet" --config="$etc/kubelet.yaml" --kubeconfig="$p/kubelet.kubeconfig" \
		--root-dir="$STATE/kubelet" --cert-dir="$STATE/kubelet/pki" \
		--hostname-override="$NODE" --node-ip="$NODE_IP" --v=1

	# kube-proxy, iptables mode, told to leave the host's sysctls alone
	# (route_localnet, the conntrack table size and timeouts).
	cat >"$etc/kube-proxy.yaml" <<YAML
apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
clientConnection: {kubeconfig: $p/admin.kubeconfig}
mode: iptables
iptables: {localhostNodePorts: false}
clusterCIDR: $POD_CIDR
hostnameOverride: $NODE
conntrack: {maxPerCore: 0, min: 0, tcpEstablishedTimeout: 0s, tcpCloseWaitTimeout: 0s}
YAML
	start kube-proxy "$BIN/kube-proxy" --config="$etc/kube-proxy.yaml"

	waitfor "node $NODE Ready" 180 kubectl wait --for=condition=Ready "node/$NODE" --timeout=2s
}

# stop NAME: the process of $WORK/run/NAME.pid and its process group
# (each was started in a session of its own).
stop() {
	local f=$WORK/run/$1.pid p i
	[ -f "$f" ] || return 0
	p=$(cat "$f")
	if kill -0 "$p" 2>/dev/null; then
		kill -TERM -- "-$p" 2>/dev/null || kill -TERM "$p" 2>/dev/null
		for ((i = 0; i < 40; i++)); do
			kill -0 "$p" 2>/dev/null || break
			sleep 0.5
		done
		kill -KILL -- "-$p" 2>/dev/null || kill -KILL "$p" 2>/dev/null
	fi
	rm -f "$f"
}

preexisting() { grep -qxF "$1" "$WORK/run/preexisting" 2>/dev/null; }

# ipt_clean iptables|ip6tables: delete the KUBE-* and CNI-* chains and every
# rule that jumps to them, nothing else (iptables-restore --noflush: other
# rules, such as a Docker engine's, are left as they are).
ipt_clean() {
	local t=$1
	command -v "$t-save" >/dev/null || return 0
	"$t-save" 2>/dev/null | awk '
		/^\*/ { tbl = $0; dels = ""; chains = ""; next }
		/^:/ { c = substr($1, 2); if (c ~ /^(KUBE-|CNI-)/) chains = chains " " c; next }
		/^-A / { if ($2 !~ /^(KUBE-|CNI-)/ && $0 ~ /(KUBE-|CNI-)/) { sub(/^-A /, "-D "); dels = dels $0 "\n" } next }
		/^COMMIT/ {
			if (dels == "" && chains == "") next
			n = split(chains, cs, " ")
			printf "%s\n%s", tbl, dels
			for (i = 1; i <= n; i++) print "-F " cs[i]
			for (i = 1; i <= n; i++) print "-X " cs[i]
			print "COMMIT"
		}' >"$WORK/run/$t.clean"
	if [ -s "$WORK/run/$t.clean" ]; then
		"$t-restore" --noflush <"$WORK/run/$t.clean" || echo "warning: $t-restore --noflush failed: see $WORK/run/$t.clean" >&2
	fi
}

# cluster_down: stop everything cluster_up started and remove what it left.
# Safe to run more than once and after a partial start.
cluster_down() {
	local c t m ns s shims h v k
	export PATH=$BIN:$PATH
	# the kubelet first, so that it restarts nothing; then every pod through
	# the CRI, which runs CNI DEL for each (IPs released, veths removed)
	stop kubelet
	if [ -S "$CSOCK" ]; then
		timeout 60 crictl -r "unix://$CSOCK" -t 20s rmp -fa >/dev/null 2>&1 || true
		for t in $(ctr -a "$CSOCK" -n k8s.io tasks ls -q 2>/dev/null); do
			ctr -a "$CSOCK" -n k8s.io tasks kill -s KILL "$t" >/dev/null 2>&1 || true
		done
	fi
	for c in kube-proxy kube-scheduler kube-controller-manager kube-apiserver etcd; do stop "$c"; done
	# the shims outlive containerd: ours are those of our state directory
	shims=$(cat "$RUNDIR"/containerd/io.containerd.runtime.v2.task/*/*/shim.pid 2>/dev/null || true)
	stop containerd
	for s in $shims; do kill -KILL "$s" 2>/dev/null || true; done
	sleep 1
	# mounts, deepest first
	awk '{print $2}' /proc/mounts | grep -E "^($RUNDIR|$STATE)(/|$)" | sort -r | while IFS= read -r m; do
		umount -l "$m" 2>/dev/null || true
	done
	# network: netns, the bridge and its veths, iptables chains
	for ns in "$RUNDIR"/containerd/netns/*; do
		if [ -e "$ns" ]; then
			umount "$ns" 2>/dev/null || true
			rm -f "$ns"
		fi
	done
	for v in $(ip -o link show master cni0 2>/dev/null | awk -F': ' '{print $2}' | cut -d@ -f1); do ip link delete "$v" 2>/dev/null || true; done
	ip link delete cni0 2>/dev/null || true
	for t in iptables ip6tables; do ipt_clean "$t"; done
	# state
	rm -rf "$STATE" "$RUNDIR"
	if ! preexisting /var/log/containers; then rm -rf /var/log/containers; fi
	if ! preexisting /var/lib/kubelet; then rm -rf /var/lib/kubelet; fi
	# containerd 1.6 puts its shims' sockets in /run/containerd/s whatever
	# its state directory: remove those that were not there before and that
	# no process listens on
	for s in /run/containerd/s/*; do
		[ -e "$s" ] || continue
		preexisting "$s" && continue
		ss -Hxl | grep -qF " $s " || rm -f "$s"
	done
	if ! preexisting /run/containerd; then rmdir /run/containerd/s /run/containerd 2>/dev/null || true; fi
	# the kubelet's cgroups (cgroupfs driver)
	for h in /sys/fs/cgroup/*/kubepods; do
		[ -d "$h" ] || continue
		preexisting "$h" && continue
		find "$h" -depth -type d -exec rmdir {} \; 2>/dev/null || true
	done
	# the sysctls, as they were
	if [ -f "$WORK/run/sysctl.before" ]; then
		while IFS='=' read -r k v; do
			if [ "$(sysctl -n "$k" 2>/dev/null)" != "$v" ]; then sysctl -qw "$k=$v" || echo "warning: could not restore $k=$v" >&2; fi
		done <"$WORK/run/sysctl.before"
		rm -f "$WORK/run/sysctl.before"
	fi
}
