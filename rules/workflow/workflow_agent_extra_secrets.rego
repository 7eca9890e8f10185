# METADATA
# title: Secrets beyond the agent's own key reach the agent
# description: |
#   A secret other than the job's GITHUB_TOKEN and the agent's model
#   credential reaches the agent's process: through the agent step's env or an
#   input its action passes on, the job's or the workflow's env, a value an
#   earlier step wrote to $GITHUB_ENV, to a step output the agent step reads or
#   to a file (docker login, gh auth login, a redirect, an action that exports
#   credentials), or secrets inherit handed to a reusable agent workflow.
#   Whatever the agent runs can read it and a prompt injection only has to ask.
#   A secret that another step only takes as an input — the private key
#   actions/create-github-app-token turns into a short-lived token, which is
#   the recommended practice — does not reach the agent, nor does anything a
#   later step does; the Copilot coding agent ignores the setup job's env. Nor
#   is a secret whose name says it holds a setting (CUSTOM_MODEL, an API base
#   URL, a cloud project, role or identity provider id), kept secret without being a
#   credential. A
#   checkout token left in .git/config is reported by
#   workflow-checkout-persists-credentials, a GitHub token by
#   workflow-agent-github-token-readable. Add names a deployment
#   legitimately gives the agent with the policy parameter
#   agent_secret_allowlist.
# related_resources:
#   - ref: https://docs.github.com/en/actions/security-for-github-actions/security-guides/security-hardening-for-github-actions#using-secrets
#     description: GitHub — using secrets (least privilege, one job per secret)
#   - ref: https://github.com/actions/create-github-app-token
#     description: actions/create-github-app-token — short-lived installation tokens
#   - ref: https://github.com/anthropics/claude-code-action/blob/main/docs/security.md
#     description: claude-code-action — authentication and secrets
#   - ref: https://owasp.org/www-project-top-10-ci-cd-security-risks/CICD-SEC-06-Insufficient-Credential-Hygiene
#     description: OWASP Top 10 CI/CD Security Risks — CICD-SEC-6 Insufficient Credential Hygiene
# custom:
#   id: workflow-agent-extra-secrets
#   property: credentials
#   severity: medium
#   remediation: Give the agent step only its model credential; move steps that need other secrets (deploy, publish, cloud access) to a separate job that does not run the agent and consumes its output as an artifact after review; mint a short-lived GitHub App token for what the agent must do on GitHub; prefer OIDC federation over stored cloud keys.
package rules.workflow_agent_extra_secrets

import data.lib.sa
import data.lib.workflow

allowed := {"GITHUB_TOKEN"} | {upper(n) | some n in sa.param("agent_secret_allowlist", []); is_string(n)}

how := {
	"step-env": "through the agent step's env",
	"input": "as an input the agent action passes on",
	"run": "written into the agent's run script",
	"job-env": "through the job's env",
	"workflow-env": "through the workflow's env",
	"github-env": "through $GITHUB_ENV, written by an earlier step",
	"step-output": "through an earlier step's output the agent step reads",
	"file": "in a file an earlier step leaves on the runner",
	"inherit": "through secrets: inherit",
}

deny contains f if {
	some w in workflow.workflows
	some j in workflow.jobs(w)
	some st in object.get(j, "agent_steps", [])
	some s in object.get(st, "secrets", [])
	object.get(s, "model_key", false) == false
	object.get(s, "setting", false) == false
	s.via != "checkout"
	not is_object(object.get(s, "app", null)) # workflow-agent-github-token-readable
	not upper(s.name) in allowed
	not _reported_at_agent(j, st, s)
	f := sa.finding(rego.metadata.chain(), s, _message(w, j, st, s))
}

# A local action (uses: ./…) is taken for the agent by the inputs it takes;
# when another agent step of the job gets the same secret, the finding is
# that step's: a setup action passed the agent's inputs is seldom the agent.
_reported_at_agent(j, st, s) if {
	startswith(object.get(st, "uses", ""), "./")
	some other in object.get(j, "agent_steps", [])
	other != st
	not startswith(object.get(other, "uses", ""), "./")
	some t in object.get(other, "secrets", [])
	t.name == s.name
}

_message(w, j, _, s) := sprintf("%s hands the agent every secret of the repository %s", [workflow.job_label(w, j), how[s.via]]) if {
	s.name == "*"
} else := sprintf("%s: secret %s reaches the agent's process %s%s", [workflow.job_label(w, j), s.name, object.get(how, s.via, s.via), _as(s)])

_as(s) := sprintf(" (as %s)", [s.to]) if {
	object.get(s, "to", "") != ""
	s.to != s.name
} else := ""
