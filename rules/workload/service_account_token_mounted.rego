# METADATA
# title: Kubernetes service account token mounted
# description: |
#   The pod gets a Kubernetes API token at
#   /var/run/secrets/kubernetes.io/serviceaccount/token. The agent can read it
#   and call the API server with the service account's rights: list secrets,
#   create pods that outlive the task, or learn the cluster's layout. Coding
#   agents almost never need the Kubernetes API. When an RBAC binding of the
#   scan lets that account create pods or workloads, exec into pods, or read
#   secrets, the finding is high and names the rights. On a workload that is
#   not the agent's (a control plane that starts the sandboxes) it is a note.
# related_resources:
#   - ref: https://kubernetes.io/docs/tasks/configure-pod-container/configure-service-account/#opt-out-of-api-credential-automounting
#     description: Kubernetes — opt out of API credential automounting
#   - ref: https://kubernetes.io/docs/concepts/security/service-accounts/
#     description: Kubernetes — service accounts
#   - ref: https://cheatsheetseries.owasp.org/cheatsheets/Kubernetes_Security_Cheat_Sheet.html
#     description: OWASP Kubernetes Security Cheat Sheet — service account tokens
#   - ref: https://www.cisecurity.org/benchmark/kubernetes
#     description: CIS Kubernetes Benchmark — 5.1.6 ensure service account tokens are only mounted where necessary
# custom:
#   id: service-account-token-mounted
#   property: credentials
#   severity: medium
#   remediation: Set automountServiceAccountToken false on the pod (and on its ServiceAccount). If the task needs the API, use a dedicated ServiceAccount with a minimal Role and a short-lived projected token with an audience.
package rules.service_account_token_mounted

import data.lib.sa
import data.lib.workload as wl

account(w) := w.service_account if {
	object.get(w, "service_account", "") != ""
} else := "default"

# strong(g): a right that reaches beyond the pod: starting pods or
# controllers, running commands in other pods, reading secrets.
strong(g) if g.resource in {"*", "pods", "pods/exec", "pods/attach", "deployments", "statefulsets", "daemonsets", "replicasets", "jobs", "cronjobs"}
strong(g) if g.resource == "secrets"

rights(w) := [sprintf("%s %s", [g.verb, g.resource]) | some g in object.get(w, "service_account_grants", []); strong(g)]

roles(w) := concat(", ", sort({g.role | some g in object.get(w, "service_account_grants", []); strong(g)}))

message(w) := sprintf("%s mounts the API token of service account %s, which may %s (%s)", [wl.label(w), account(w), concat(", ", rights(w)), roles(w)]) if {
	count(rights(w)) > 0
} else := sprintf("%s mounts the API token of service account %s", [wl.label(w), account(w)])

deny contains f if {
	some w in wl.judged_workloads
	wl.is_true(w, "service_account_token")
	count(rights(w)) == 0
	f := sa.finding(rego.metadata.chain(), w.service_account_token, message(w))
}

deny contains f if {
	some w in input.workloads
	wl.is_true(w, "service_account_token")
	count(rights(w)) > 0
	r := wl.result(rego.metadata.chain(), w, w.service_account_token, message(w))
	f := object.union(r, {"severity": severity(r)})
}

severity(r) := "high" if r.severity != "info"
else := r.severity
