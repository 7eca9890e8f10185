#!/usr/bin/env bash
# Writes r<N>_<check>.rego: 12 checks × 5 copies.
set -euo pipefail
cd "$(dirname "$0")"
rm -f r*_*.rego
checks=(
'privileged|some s in input.services; s.privileged == true'
'hostnet|some s in input.services; s.network_mode == "host"'
'sock|some s in input.services; some v in s.volumes; contains(v, "docker.sock")'
'capadd|some s in input.services; some c in s.cap_add; c in {"SYS_ADMIN", "NET_ADMIN", "ALL"}'
'k8spriv|some c in input.spec.containers; c.securityContext.privileged == true'
'k8shostnet|input.spec.hostNetwork == true'
'k8shostpath|some v in input.spec.volumes; endswith(v.hostPath.path, ".sock")'
'wfwrite|input.permissions == "write-all"'
'wfprt|input.on[_] == "pull_request_target"'
'claudebypass|input.permissions.defaultMode == "bypassPermissions"'
'mcpnpx|some _, s in input.mcpServers; s.command == "npx"; not contains(concat(" ", s.args), "@")'
'codexfull|input.sandbox_mode == "danger-full-access"'
)
for i in 1 2 3 4 5; do
  for c in "${checks[@]}"; do
    name=${c%%|*}; body=${c#*|}
    cat > "r${i}_${name}.rego" <<REGO
package r${i}_${name}

deny contains msg if {
	${body//; /
	}
	msg := "${name} (${i})"
}
REGO
  done
done
