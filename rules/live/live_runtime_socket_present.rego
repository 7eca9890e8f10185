# METADATA
# title: Container runtime socket present in the live sandbox (not verified)
# description: |
#   A runtime socket is mounted into the sandbox, sits at a well-known path,
#   or DOCKER_HOST points at one, but the audit did not confirm that it
#   answers (probes off, not a socket file, access error). Treat it as
#   reachable until shown otherwise. A socket that was probed and refused the
#   connection (a dead daemon) is not reported.
# related_resources:
#   - ref: https://docs.docker.com/engine/security/protect-access/
#     description: Docker — protect the Docker daemon socket
# custom:
#   id: live-runtime-socket-present
#   property: disposable
#   severity: high
#   remediation: Remove the socket mount, file or DOCKER_HOST variable; run the audit with --probe to confirm what answers.
package rules.live_runtime_socket_present

import data.lib.live
import data.lib.sa

deny contains f if {
	some s in input.live.sockets
	not s.reachable
	not refused(s)
	f := sa.finding(
		rego.metadata.chain(), s,
		sprintf("a %s socket is present at %s (found by %s) but was not verified: %s", [s.kind, live.socket_name(s), s.found, detail(s)]),
	)
}

# refused: probed and nobody listening — a stale socket file.
refused(s) if {
	s.probed
	contains(object.get(s, "error", ""), "refused")
}

detail(s) := s.error if {
	object.get(s, "error", "") != ""
} else := s.evidence if {
	object.get(s, "evidence", "") != ""
} else := "not probed"
