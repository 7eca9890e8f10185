# METADATA
# title: Agent can read its own model credential
# description: |
#   The agent's model credential (ANTHROPIC_API_KEY, CLAUDE_CODE_OAUTH_TOKEN,
#   OPENAI_API_KEY, GEMINI_API_KEY, GOOGLE_API_KEY, the cloud credentials of
#   Bedrock or Vertex AI…) reaches the process of an agent that runs any
#   command unasked (approval bypassed without a tool list that limits its
#   shell, or an allow rule that runs anything or prints the environment:
#   env or printenv with nothing after it, Bash(env:*), a tool list's
#   run_shell_command(env)). The agent needs the key to
#   call its model, but whatever it runs can read it too, and a prompt
#   injection can send a long-lived API key anywhere. An agent held to named
#   commands cannot print its environment: the rule stays quiet for it, as
#   every agent step holds its own key. openai/codex-action shows
#   the way out: with its default safety-strategy drop-sudo the key stays in a
#   proxy Codex cannot read, and this rule stays quiet. Reported apart from
#   other secrets, at low severity: it lowers the credentials score but does
#   not fail the property on its own.
# related_resources:
#   - ref: https://github.com/openai/codex-action/blob/main/docs/security.md
#     description: openai/codex-action — protecting OPENAI_API_KEY (drop-sudo, the Responses API proxy)
#   - ref: https://github.com/anthropics/claude-code-action/blob/main/docs/cloud-providers.md
#     description: claude-code-action — Bedrock and Vertex AI through OIDC, no stored key
#   - ref: https://github.com/google-github-actions/run-gemini-cli/blob/main/docs/authentication.md
#     description: run-gemini-cli — Workload Identity Federation instead of an API key
# custom:
#   id: workflow-agent-model-key-readable
#   property: credentials
#   severity: low
#   remediation: Prefer federation over a stored key (claude-code-action use_bedrock / use_vertex with OIDC, run-gemini-cli gcp_workload_identity_provider), or keep the key in a proxy the agent cannot read (codex-action's default); give the key a spending limit and rotate it.
package rules.workflow_agent_model_key_readable

import data.lib.agent
import data.lib.sa

how := {
	"step-env": "through the agent step's env",
	"input": "as an input the agent action passes on",
	"run": "written into the agent's run script",
	"job-env": "through the job's env",
	"workflow-env": "through the workflow's env",
	"github-env": "through $GITHUB_ENV",
	"step-output": "through a step output",
	"file": "in a file on the runner",
}

# One finding per agent step, at its first model credential: an action
# handed a key per provider (aider's) is one exposure, not seven.
deny contains f if {
	some w in object.get(input, "workflows", [])
	some j in object.get(w, "jobs", [])
	some st in object.get(j, "agent_steps", [])
	[st.file, st.line] in _open_steps
	keys := [s | some s in object.get(st, "secrets", []); s.model_key == true]
	count(keys) > 0
	s := keys[0]
	f := sa.finding(rego.metadata.chain(), s, sprintf("%s: the agent's model credential %s reaches its process %s%s: the agent needs it, but a prompt injection can read it too", [_job_label(w, j), _name(s), object.get(how, s.via, s.via), _others(keys)]))
}

_others(keys) := "" if count(keys) == 1

else := sprintf(" (and %s)", [concat(", ", [_name(k) | some k in array.slice(keys, 1, count(keys))])])

_name(s) := sprintf("%s (secret %s)", [s.to, s.name]) if {
	object.get(s, "to", "") != ""
	upper(s.to) != upper(s.name)
} else := s.name

# The rule judges a workflow's step by its agent's settings, so it lives with
# the agent rules (lib.agent); it names the job as lib.workflow does.
_job_label(w, j) := sprintf("workflow %q job %q", [w.name, object.get(j, "id", "")]) if {
	object.get(w, "name", "") != ""
} else := sprintf("workflow %s job %q", [object.get(w, "file", ""), object.get(j, "id", "")])

# _open_steps: where the workflow agents that run any command without
# asking (what agent-approval-bypassed and agent-arbitrary-execution-allowed
# report) stand; the workflow collector writes a step's agents[] entry at
# the step. env and printenv are among those commands. Worked out once per agent.
_open_steps contains [a.file, a.line] if {
	some a in agent.agents
	agent.in_workflow(a)
	_runs_anything(a)
}

_runs_anything(a) if {
	agent.effective(a, "approval_mode").value == "bypass"
	not _shell_limited(a)
}

# A command that prints the environment, in the tool list of a bypassed
# agent (Gemini's tools.core: run_shell_command(printenv), (env)) or allowed
# unasked: the model key is in what it prints.
_runs_anything(a) if {
	agent.effective(a, "approval_mode").value == "bypass"
	some t in object.get(a, "tools", [])
	_prints_env(t.value)
}

_runs_anything(a) if {
	some r in object.get(a, "allow", [])
	_prints_env(r.value)
	not agent.held_back(a, agent.shell_literal(r.value))
}

_prints_env(rule) if agent.prints_environment(rule)

_runs_anything(a) if {
	some r in object.get(a, "allow", [])
	agent.exec_reason(r.value)
	agent.unconfined(a, r.value)
	not agent.exec_held_back(a, r.value)
}

# A tool list (Gemini tools.core, Claude --tools) that holds no open shell
# tool leaves even a bypassed agent its named commands only.
_shell_limited(a) if {
	a.tool_list
	not _open_shell(a)
}

_open_shell(a) if {
	some t in object.get(a, "tools", [])
	agent.shell_glob(t.value) == "*"
}
