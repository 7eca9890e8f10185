# METADATA
# title: Container explicitly runs as root
# description: |
#   Root in the container is root on the host's kernel, with only namespaces
#   and capabilities between them: a runtime or kernel bug, a writable host
#   mount or an added capability turns into host root. This rule fires when the
#   configuration says so explicitly (user root/0, runAsUser 0, or Kubernetes
#   runAsNonRoot false with no user set); an unset user defers to the image,
#   which image-runs-as-root judges.
# related_resources:
#   - ref: https://kubernetes.io/docs/tasks/configure-pod-container/security-context/
#     description: Kubernetes — configure a security context (runAsUser, runAsNonRoot)
#   - ref: https://kubernetes.io/docs/concepts/security/pod-security-standards/
#     description: Kubernetes Pod Security Standards — Restricted requires running as non-root
#   - ref: https://docs.docker.com/reference/compose-file/services/#user
#     description: Compose services — user
#   - ref: https://cheatsheetseries.owasp.org/cheatsheets/Docker_Security_Cheat_Sheet.html
#     description: OWASP Docker Security Cheat Sheet — RULE #2 set a user
# custom:
#   id: container-runs-as-root
#   property: disposable
#   severity: medium
#   remediation: Set a non-root user (compose user "1000:1000", devcontainer remoteUser/containerUser, Kubernetes runAsUser with runAsNonRoot true), or run rootless / with user namespaces so uid 0 in the sandbox is not uid 0 on the host.
package rules.container_runs_as_root

import data.lib.sa
import data.lib.workload as wl

# root_user accepts "root", "0", "0:0" and a root uid with any group ("0:1000").
root_user(u) if sa.is_root(u)

root_user(u) if {
	uid := split(u, ":")[0]
	uid in {"root", "0"}
}

deny contains f if {
	some w in wl.judged_workloads
	not wl.user_in_devcontainer(w)
	not wl.psa_restricted(w) # the restricted profile admits no pod that runs as root
	root_user(wl.str(w, "user"))
	f := sa.finding(
		rego.metadata.chain(), w.user,
		sprintf("%s runs as root (user %s)", [wl.label(w), trim_space(w.user.value)]),
	)
}

# runAsNonRoot false with no runAsUser lets the image's user, root by default,
# stand. With an explicit non-root runAsUser it is harmless; with a root one
# the rule above has already fired.
deny contains f if {
	some w in wl.judged_workloads
	not wl.user_in_devcontainer(w)
	not wl.psa_restricted(w) # the restricted profile admits no pod that runs as root
	wl.is_false(w, "run_as_non_root")
	not w.user
	f := sa.finding(
		rego.metadata.chain(), w.run_as_non_root,
		sprintf("%s sets runAsNonRoot false and no user: it runs as root whenever the image does", [wl.label(w)]),
	)
}
