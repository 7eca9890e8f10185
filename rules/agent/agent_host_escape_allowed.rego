# METADATA
# title: Agent may start containers, reach the cluster or other hosts without a prompt
# description: |
#   An allow rule lets the agent run a container runtime, a cluster client or a
#   remote shell without asking, with the subcommands that leave the sandbox:
#   Bash(docker:*), Bash(docker run:*), Bash(docker compose up:*),
#   Bash(podman:*) start containers that can mount the host's filesystem, run
#   privileged and outlive the task (wherever a daemon is reachable);
#   Bash(kubectl:*), Bash(kubectl exec:*), Bash(kubectl apply:*) run code in and
#   change the cluster with the agent's credentials; Bash(ssh:*) runs commands on
#   any host the agent's keys reach. Read-only subcommands (docker ps, docker
#   logs, kubectl describe) stay quiet; kubectl get prints Secrets and is reported
#   by agent-secret-reads-allowed. Quiet when a deny or ask rule covers the
#   grant, when the command sandbox confines the command (it is not excluded),
#   and in bypass mode.
# related_resources:
#   - ref: https://docs.docker.com/engine/security/#docker-daemon-attack-surface
#     description: Docker — the daemon's attack surface (whoever controls it is root on the host)
#   - ref: https://docs.anthropic.com/en/docs/claude-code/iam
#     description: Claude Code — permission rules
#   - ref: https://kubernetes.io/docs/concepts/security/rbac-good-practices/
#     description: Kubernetes — RBAC good practices (exec, create pods, escalation paths)
# custom:
#   id: agent-host-escape-allowed
#   property: disposable
#   severity: high
#   remediation: Remove the allow rule or narrow it to read-only subcommands (Bash(docker ps:*), Bash(kubectl get pods:*)); put docker, kubectl and ssh in permissions.ask, and do not give the agent a runtime socket, kubeconfig or SSH key it does not need.
package rules.agent_host_escape_allowed

import data.lib.agent
import data.lib.sa

deny contains f if {
	some [i, j] in agent.lead_allows
	a := agent.agents[i]
	r := a.allow[j]
	why := agent.escape_reason(r.value)
	agent.unconfined(a, r.value)
	not agent.exec_held_back(a, r.value)
	f := sa.finding(rego.metadata.chain(), r, sprintf("%s allows %q without a prompt: %s", [agent.label(a), r.value, why]))
}
