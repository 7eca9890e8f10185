# METADATA
# title: Configuration runs a command on the host
# description: |
#   Some lifecycle hooks run on the host, not in the sandbox: a devcontainer's
#   initializeCommand runs on the developer's machine or the runner, with the
#   user's own rights and credentials, before any container exists. Whoever can
#   change the repository's configuration (including an agent that commits to
#   it) can run code outside the sandbox the next time it is opened. A
#   command that only makes directories or files, prints or tests (mkdir -p
#   ~/.claude for a bind mount's source) runs nothing the repository holds
#   and is not reported: the writable configuration itself is
#   workspace-hooks-writable's.
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
	not inert(object.get(c, "text", ""))
	f := sa.finding(
		rego.metadata.chain(), c,
		sprintf("%s runs its %s command on the host, outside the sandbox", [wl.label(w), phase(c)]),
	)
}

phase(c) := c.phase if {
	object.get(c, "phase", "") != ""
} else := "lifecycle"

# inert(text): the command only makes directories or files, prints or tests
# (mkdir -p ~/.claude so a bind mount has a source): it runs no program or
# script the repository holds, and writes nothing into a file. An agent that
# can edit the configuration could add any command in its place, and
# workspace-hooks-writable reports that; this hook adds nothing to it.
inert(text) if {
	t := trim_space(text)
	t != ""
	not regex.match("[$][(]|[`<>|]", t)
	every part in regex.split(`\s*(?:&&|;|\n)\s*`, t) {
		_inert_part(trim_space(part))
	}
}

_inert_part("")

_inert_part(part) if split(part, " ")[0] in {"mkdir", "touch", "echo", "true", ":", "test", "["}
