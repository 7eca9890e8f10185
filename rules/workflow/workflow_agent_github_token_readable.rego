# METADATA
# title: A GitHub token that can write is in the agent's environment
# description: |
#   A GitHub token that can write reaches the agent's own process: the job's
#   GITHUB_TOKEN with a write scope, or a GitHub App token an earlier step
#   minted, in the agent step's env, the job's or the workflow's env, the
#   agent's run script, $GITHUB_ENV or claude_env. Whatever the agent runs can
#   read it, so a prompt injection in the issue, pull request or file the agent
#   reads can write with it — comment, label, edit or push as the workflow —
#   without the agent's tools being allowed to. A token minted with
#   actions/create-github-app-token and no permission-* inputs carries every
#   permission of the app's installation. A token the agent action only takes
#   as an input (github_token), a read-only one, and a persisted checkout token
#   (workflow-checkout-persists-credentials) are not reported here; nor is the
#   job token under the repository default or write-all, which the permission
#   rules report.
# related_resources:
#   - ref: https://docs.github.com/en/actions/security-for-github-actions/security-guides/automatic-token-authentication#modifying-the-permissions-for-the-github_token
#     description: GitHub — GITHUB_TOKEN permissions
#   - ref: https://github.com/actions/create-github-app-token#permission-permission-name
#     description: actions/create-github-app-token — permission-* inputs (unset, the token has every permission of the installation)
#   - ref: https://owasp.org/www-project-top-10-ci-cd-security-risks/CICD-SEC-06-Insufficient-Credential-Hygiene
#     description: OWASP Top 10 CI/CD Security Risks — CICD-SEC-6 Insufficient Credential Hygiene
# custom:
#   id: workflow-agent-github-token-readable
#   property: credentials
#   severity: medium
#   remediation: Keep write tokens out of the agent's environment. Give the agent a read-only token (or none), have it write its result to a file or step output, and let a later step or job, which does not run the agent, post or push it with the write token. Mint app tokens with permission-* inputs naming only what that step needs.
package rules.workflow_agent_github_token_readable

import data.lib.sa
import data.lib.workflow

# What reaches the agent's process: env and script, not an input the
# action keeps to itself (claude_env is the agent's env).
_in_env(s) if s.via in {"step-env", "job-env", "workflow-env", "run", "github-env"}

_in_env(s) if {
	s.via == "input"
	s.to == "claude_env"
}

how := {
	"step-env": "the agent step's env",
	"job-env": "the job's env",
	"workflow-env": "the workflow's env",
	"run": "the agent's run script",
	"github-env": "$GITHUB_ENV, written by an earlier step",
	"input": "claude_env",
}

_bound(s) := sprintf(" as %s", [s.to]) if {
	object.get(s, "to", "") != ""
	s.to != "claude_env"
} else := ""

# The job token's write scopes; id-token mints OIDC tokens through a
# different credential and is left out.
_job_writes(j) := [w |
	some w in object.get(j, "effective_write", [])
	not w in {"default", "id-token"}
]

_app_tokens(st) := [s |
	some s in object.get(st, "secrets", [])
	is_object(object.get(s, "app", null))
]

deny contains f if {
	some w in workflow.workflows
	some j in workflow.jobs(w)
	some st in object.get(j, "agent_steps", [])
	some s in _app_tokens(st)
	_in_env(s)
	what := _app_what(s.app)
	f := sa.finding(rego.metadata.chain(), s, sprintf("%s: the GitHub App token minted by step %s (%s) is in the agent's process through %s%s: whatever the agent runs can read it, and a prompt injection can write with it", [workflow.job_label(w, j), s.app.step, what, how[s.via], _bound(s)]))
}

_app_what(app) := "no permission-* inputs: every permission of the app's installation" if {
	app.scoped != true
} else := sprintf("write: %s", [concat(", ", app.write)]) if {
	count(app.write) > 0
}

deny contains f if {
	some w in workflow.workflows
	some j in workflow.jobs(w)
	not _write_all(w, j)
	writes := _job_writes(j)
	count(writes) > 0
	some st in object.get(j, "agent_steps", [])
	some s in object.get(st, "secrets", [])
	s.name == "GITHUB_TOKEN"
	_in_env(s)
	not _app_bound(st, s)
	f := sa.finding(rego.metadata.chain(), s, sprintf("%s: the job's GITHUB_TOKEN (write: %s)%s is in the agent's process through %s%s: whatever the agent runs can read it, and a prompt injection can write with it", [workflow.job_label(w, j), concat(", ", writes), _or_else(st, s), how[s.via], _bound(s)]))
}

# secrets.BOT_PAT || secrets.GITHUB_TOKEN: the variable holds the other
# secret when it is set (reported by workflow-agent-extra-secrets).
_or_else(st, s) := sprintf(", or secret %s when set,", [concat(", ", others)]) if {
	others := sort([o.name |
		some o in object.get(st, "secrets", [])
		o.name != "GITHUB_TOKEN"
		o.via == s.via
		object.get(o, "to", "") == object.get(s, "to", "")
		object.get(o, "to", "") != ""
	])
	count(others) > 0
} else := ""

# write-all is reported by workflow-token-write-all.
_write_all(w, j) if workflow.perm_loc(w, j).all == "write-all"

# A variable that holds an app token with the job token as its fallback
# (app-token || github.token) is reported once, as the app token.
_app_bound(st, s) if {
	some a in _app_tokens(st)
	a.via == s.via
	object.get(a, "to", "") == object.get(s, "to", "")
}
