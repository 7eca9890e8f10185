# METADATA
# title: Agent job's container hands it the runner
# description: |
#   The job that runs the agent (or prepares the Copilot coding agent) runs
#   its steps in a container started with options or volumes that undo the
#   container's isolation from the runner: --privileged, a capability such as
#   SYS_ADMIN or SYS_PTRACE, the host's PID, IPC or network namespace, an
#   unconfined seccomp or AppArmor profile, the runtime socket
#   (/var/run/docker.sock) or a host system directory as a volume — or a
#   privileged docker-in-docker service the job can reach. Whatever the agent
#   runs can then get to the runner itself: the runner process's memory, which
#   holds every secret of the job, and on a self-hosted runner a machine that
#   outlives the job.
# related_resources:
#   - ref: https://docs.github.com/en/actions/writing-workflows/workflow-syntax-for-github-actions#jobsjob_idcontaineroptions
#     description: GitHub — jobs.<job_id>.container.options and volumes
#   - ref: https://docs.docker.com/engine/security/protect-access/
#     description: Docker — protect the daemon socket
#   - ref: https://docs.docker.com/engine/containers/run/#runtime-privilege-and-linux-capabilities
#     description: Docker — runtime privilege and Linux capabilities
# custom:
#   id: workflow-agent-container-privileged
#   property: disposable
#   severity: high
#   remediation: Drop the option or volume from the job's container (and the privileged service); build images in a separate job that does not run the agent, or with a rootless builder, and keep the agent's container unprivileged with its own namespaces.
package rules.workflow_agent_container_privileged

import data.lib.sa
import data.lib.workflow

# Capabilities that reach past the container; others are left alone.
dangerous_caps := {"ALL", "SYS_ADMIN", "SYS_PTRACE", "SYS_MODULE", "SYS_RAWIO", "DAC_READ_SEARCH", "NET_ADMIN", "BPF", "PERFMON"}

deny contains f if {
	some w in workflow.workflows
	some j in workflow.jobs(w)
	workflow.prepares_agent(w, j)
	some p in object.get(object.get(j, "container", {}), "privileges", [])
	_counts(p.value)
	f := sa.finding(rego.metadata.chain(), p, sprintf("%s runs the agent in a container with %s: it can reach the runner and the secrets in its memory", [workflow.job_label(w, j), p.value]))
}

_counts(v) if not startswith(v, "--cap-add ")

_counts(v) if {
	startswith(v, "--cap-add ")
	trim_prefix(v, "--cap-add ") in dangerous_caps
}
