# METADATA
# title: Configuration runs a command on the host
# description: |
#   Some lifecycle hooks run on the host, not in the sandbox: a devcontainer's
#   initializeCommand runs on the developer's machine or the runner, with the
#   user's own rights and credentials, before any container exists. Whoever can
#   change the repository's configuration (including an agent that commits to
#   it) can run code outside the sandbox the next time it is opened.
# related_resources:
#   - ref: https://containers.dev/implementors/json_reference/#lifecycle-scripts
#     description: Dev Container metadata reference — initializeCommand runs on the host machine
#   - ref: https://code.visualstudio.com/docs/editor/workspace-trust
#     description: VS Code — workspace trust and repository-controlled code execution
#   - ref: https://owasp.org/www-project-top-10-ci-cd-security-risks/CICD-SEC-04-Poisoned-Pipeline-Execution
#     description: OWASP Top 10 CI/CD Security Risks — poisoned pipeline execution
# custom:
#   id: host-command-hook
#   property: disposable
#   severity: high
#   remediation: Move the command into a hook that runs inside the container (onCreateCommand, postCreateCommand). If host preparation is unavoidable, keep it out of the repository the agent can write, and review changes to it like code that runs with your credentials.
package rules.host_command_hook

import data.lib.sa
import data.lib.workload as wl

# The command text is left out of the message: it may hold values the
# redactor did not recognise, and the file and line already point at it.
deny contains f if {
	some w in wl.judged_workloads
	some c in w.commands
	object.get(c, "on_host", false) == true
	f := sa.finding(
		rego.metadata.chain(), c,
		sprintf("%s runs its %s command on the host, outside the sandbox", [wl.label(w), phase(c)]),
	)
}

phase(c) := c.phase if {
	object.get(c, "phase", "") != ""
} else := "lifecycle"
