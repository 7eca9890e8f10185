# METADATA
# title: Agent reads credential files without a prompt
# description: |
#   Claude Code reads files without asking when its approval mode does not ask
#   (bypass; acceptEdits approves edits, not reads outside the project) or an
#   allow rule grants reads everywhere (Read, Read(**), Read(~/**), a home
#   directory written out: Read(//Users/dev/**)), its Bash sandbox is off, and no deny or ask rule in any Claude
#   Code settings file covers .env files, ~/.aws or ~/.ssh. The model then takes
#   cloud keys, SSH keys and application secrets into its context, where a prompt
#   injection can make it write them into a commit, a comment or a web request.
#   To stay quiet on ordinary setups the rule fires only when reads are
#   auto-approved as above, or when an allow rule lets a reading command take
#   any path (Bash(cat:*), Bash(grep:*), Bash(head:*), Bash(jq:*)… — a path
#   after the prefix, or ../ inside it, reaches ~/.aws), prints the environment
#   (Bash(printenv:*), Bash(env), Bash(env:*)), the GitHub CLI's token (Bash(gh auth:*), which runs
#   gh auth token) or the cluster's Secrets (Bash(kubectl get:*)), and
#   when an allow rule lets the agent inspect any container the Docker or
#   Podman daemon runs (Bash(docker inspect:*)): their environment carries
#   other services' passwords and keys. Read deny
#   rules do not stop Bash (Claude Code applies them to its file tools only):
#   only a Bash deny or ask rule that covers the command holds those back. An
#   agent a workflow step starts reads the runner, not a developer's home:
#   which secrets reach it there is judged by the workflow rules
#   (workflow-agent-extra-secrets, workflow-agent-model-key-readable); one a
#   container's command starts reads that container, whose mounts and
#   environment the workload rules judge (host-credentials-mounted,
#   host-secret-forwarded).
#   OpenCode asks before touching paths outside the project and denies
#   .env reads by default: a config whose external_directory permission
#   is allow, or whose read rule lets .env files be read, is reported.
# related_resources:
#   - ref: https://docs.anthropic.com/en/docs/claude-code/iam
#     description: Claude Code — Read deny rules
#   - ref: https://code.claude.com/docs/en/settings
#     description: Claude Code — settings (permissions.deny example for .env)
#   - ref: https://genai.owasp.org/llmrisk/llm022025-sensitive-information-disclosure/
#     description: OWASP Top 10 for LLM Applications — LLM02 Sensitive Information Disclosure
# custom:
#   id: agent-secret-reads-allowed
#   property: credentials
#   severity: medium
#   remediation: Add Read(./.env), Read(./.env.*), Read(~/.aws/**) and Read(~/.ssh/**) to permissions.deny (in the project or managed settings), narrow broad Read allow rules, and turn the sandbox on; better still, keep credential files out of the agent's machine.
package rules.agent_secret_reads_allowed

import data.lib.agent
import data.lib.sa

# Paths that stand for each credential location; a deny rule that covers any
# of them counts, to keep false positives down.
targets := {
	".env": [".env", "app/.env"],
	"~/.aws": ["~/.aws/credentials", "/home/agent/.aws/credentials", "/root/.aws/credentials"],
	"~/.ssh": ["~/.ssh/id_ed25519", "/home/agent/.ssh/id_ed25519", "/root/.ssh/id_rsa"],
}

deny contains f if {
	some a in agent.agents
	a.tool in agent.claude_rules
	not agent.in_workflow(a)
	not agent.in_container(a)
	not _sandbox_on(a)
	loc := _trigger(a)
	open := [name | some name, paths in targets; not _covered(a, paths)]
	count(open) > 0
	f := sa.finding(rego.metadata.chain(), loc, sprintf("%s %s and no deny or ask rule covers %s: the agent can read these credentials", [agent.label(a), _how(loc), concat(", ", open)]))
}

# docker inspect (podman, docker container inspect) on any container.
deny contains f if {
	some [i, j] in agent.lead_allows
	a := agent.agents[i]
	a.tool == "claude-code"
	not agent.in_workflow(a)
	not _sandbox_on(a)
	r := a.allow[j]
	what := _container_reader(r.value)
	not agent.held_back(a, sprintf("%s __sandbox_audit_probe__", [what]))
	f := sa.finding(rego.metadata.chain(), r, sprintf("%s allows %q without a prompt: %s prints any container's environment, where other services keep their passwords and keys", [agent.label(a), r.value, what]))
}

_container_reader(rule) := concat(" ", [ws[0], sub]) if {
	agent.open_ended(rule)
	ws := agent.core_words(agent.command_words(rule))
	count(ws) == 2
	ws[0] in agent.runtimes
	sub := ws[1]
	sub == "inspect"
} else := concat(" ", [ws[0], "container", ws[2]]) if {
	agent.open_ended(rule)
	ws := agent.core_words(agent.command_words(rule))
	count(ws) == 3
	ws[0] in agent.runtimes
	ws[1] == "container"
	ws[2] == "inspect"
}

# OpenCode asks before a tool touches a path outside the project and denies
# .env reads by default; a config that allows either (external_directory,
# a read rule for .env) lets the agent take those credentials unasked.
deny contains f if {
	some a in agent.agents
	a.tool == "opencode"
	not agent.in_workflow(a)
	opens := [r | some r in object.get(a, "allow", []); _opencode_read(r.value)]
	count(opens) > 0
	what := concat(" and ", [_opencode_what(r.value) | some r in opens])
	f := sa.finding(rego.metadata.chain(), opens[0], sprintf("%s allows %s without a prompt: the agent can read %s", [agent.label(a), concat(", ", [sprintf("%q", [r.value]) | some r in opens]), what]))
}

_opencode_read("external_directory")

_opencode_read(v) if startswith(v, "read(")

_opencode_what("external_directory") := "any file outside the project (~/.aws, ~/.ssh, other projects' .env)"

_opencode_what(v) := ".env files, which OpenCode denies by default" if startswith(v, "read(")

# A helper rule because OPA evaluates a call inside `not` before negating:
# `not f(x).value == v` is undefined, not true, when f(x) is undefined.
_sandbox_on(a) if agent.effective(a, "sandbox_enabled").value == true

# acceptEdits changes nothing for reads: only bypass approves them all.
_trigger(a) := a.approval_mode if {
	a.approval_mode.value == "bypass"
} else := r if {
	r := [x | some x in object.get(a, "allow", []); _broad(x.value)][0]
}

_broad(rule) if {
	is_string(rule)
	some p in targets["~/.aws"]
	agent.reads(rule, p)
}

# A home directory written out (Read(//Users/dev/**), Read(//home/dev/**)).
_broad(rule) if {
	is_string(rule)
	m := regex.find_all_string_submatch_n(`^Read\(//(Users|home)/([^/*]+)/`, rule, 1)
	count(m) == 1
	agent.reads(rule, sprintf("/%s/%s/.aws/credentials", [m[0][1], m[0][2]]))
}

_how(loc) := sprintf("approves reads automatically (approval mode %s)", [loc.value]) if loc.value == "bypass"

else := sprintf("allows %q", [loc.value])

_covered(a, paths) if {
	some b in agent.peers(a)
	some r in array.concat(object.get(b, "deny", []), object.get(b, "ask", []))
	is_string(r.value)
	some p in paths
	agent.reads(r.value, p)
}

# Shell commands that read any path or secret, when nothing above already
# auto-approves reads: one finding per settings file, at its first such rule.
deny contains f if {
	some a in agent.agents
	a.tool in agent.shell_rule_agents
	not agent.in_workflow(a)
	not _sandbox_on(a)
	not _trigger(a)
	grants := [g |
		some [i, j] in agent.lead_allows
		agent.agents[i] == a
		r := a.allow[j]
		c := agent.read_command(r.value)
		open := _bash_open(a, r.value, c)
		count(open) > 0
		g := {"rule": r, "open": open}
	]
	count(grants) > 0
	rules := concat(", ", [sprintf("%q", [g.rule.value]) | some g in grants])
	open := concat(", ", sort({o | some g in grants; some o in g.open}))
	f := sa.finding(rego.metadata.chain(), grants[0].rule, sprintf("%s allows %s without a prompt and no Bash deny or ask rule covers %s: the agent can read these credentials", [agent.label(a), rules, open]))
}

# A reader run on a file whose name says it holds a credential
# (Bash(cat ~/.service-api-key), Bash(cat .secrets/token)), written out in
# the rule: the agent reads that credential unasked.
deny contains f if {
	some [i, j] in agent.lead_allows
	a := agent.agents[i]
	a.tool in agent.shell_rule_agents
	not agent.in_workflow(a)
	r := a.allow[j]
	ws := agent.core_words(agent.command_words(r.value))
	count(ws) > 1
	agent.base(ws[0]) in agent.readers
	files := [p | some p in array.slice(ws, 1, count(ws)); not startswith(p, "-"); _secret_file(p)]
	count(files) > 0
	not agent.held_back(a, concat(" ", ws))
	f := sa.finding(rego.metadata.chain(), r, sprintf("%s allows %q without a prompt: it prints %s, whose name says it holds a credential", [agent.label(a), r.value, concat(", ", files)]))
}

# _secret_file(p): the file's name is a credential's (api-key, token,
# secret, credentials, a private key, .netrc, .pgpass).
_secret_file(p) if {
	b := lower(regex.replace(p, `^.*/`, ""))
	regex.match(`(^|[._-])(api[._-]?keys?|apikey|tokens?|secrets?|credentials?|creds|passwords?|private[._-]?key)([._-]|$)|^id_(rsa|ecdsa|ed25519|dsa)$|\.(pem|key|p12|pfx)$|^\.(netrc|pgpass|git-credentials)$`, b)
	not regex.match(`\.(pub|md|txt|example|sample|template|dist)$`, b)
}

# _bash_open lists what a reading command may print that no deny or ask
# rule holds back, trying the command on each credential path.
_bash_open(a, rule, "printenv") := ["the environment's secrets"] if {
	not agent.held_back(a, concat("", [agent.shell_literal(rule), " GITHUB_TOKEN"]))
} else := []

_bash_open(a, _, "gh auth token") := ["the GitHub CLI's token (gh auth token)"] if {
	not agent.held_back(a, "gh auth token")
} else := []

_bash_open(a, rule, "kubectl get") := ["the cluster's Secrets"] if {
	not agent.held_back(a, concat("", [agent.shell_literal(rule), " secret -o yaml"]))
} else := []

_bash_open(a, rule, c) := [name |
	some name, paths in targets
	_reachable(a, name)
	not _shell_covered(a, rule, paths)
] if not c in {"printenv", "kubectl get", "gh auth token"}

# OpenCode asks before a command touches a path outside the project, unless
# external_directory is allowed: a reader reaches the project's .env only.
_reachable(a, name) if a.tool != "opencode"

_reachable(a, ".env") if a.tool == "opencode"

_reachable(a, _) if {
	a.tool == "opencode"
	some r in object.get(a, "allow", [])
	r.value == "external_directory"
}

_shell_covered(a, rule, paths) if {
	some p in paths
	agent.held_back(a, concat(" ", [agent.shell_literal(rule), p]))
}
