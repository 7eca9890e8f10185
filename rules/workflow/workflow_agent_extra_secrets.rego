# METADATA
# title: Agent job holds secrets beyond the agent's own key
# description: |
#   The job that runs the agent references secrets other than GITHUB_TOKEN and
#   the model provider's key. Every secret a job references is sent to its
#   runner: whatever the agent runs there can read it from the step
#   environment, from files later steps write, or from the runner process's
#   memory (as the tj-actions/changed-files compromise did), and a prompt
#   injection only has to ask. Add names a deployment legitimately gives the
#   agent with the policy parameter agent_secret_allowlist.
# related_resources:
#   - ref: https://docs.github.com/en/actions/security-for-github-actions/security-guides/security-hardening-for-github-actions#using-secrets
#     description: GitHub — using secrets (least privilege, one job per secret)
#   - ref: https://github.com/anthropics/claude-code-action/blob/main/docs/security.md
#     description: claude-code-action — authentication and secrets
#   - ref: https://owasp.org/www-project-top-10-ci-cd-security-risks/CICD-SEC-06-Insufficient-Credential-Hygiene
#     description: OWASP Top 10 CI/CD Security Risks — CICD-SEC-6 Insufficient Credential Hygiene
# custom:
#   id: workflow-agent-extra-secrets
#   property: credentials
#   severity: medium
#   remediation: Move steps that need other secrets (deploy, publish, cloud access) to a separate job that does not run the agent and consumes its output as an artifact after review; prefer OIDC federation over stored cloud keys.
package rules.workflow_agent_extra_secrets

import data.lib.sa
import data.lib.workflow

# The agent's own credentials: the model provider's key and the job token.
agent_keys := {
	"GITHUB_TOKEN",
	"ANTHROPIC_API_KEY",
	"CLAUDE_CODE_OAUTH_TOKEN",
	"OPENAI_API_KEY",
	"CODEX_API_KEY",
	"GEMINI_API_KEY",
	"GOOGLE_API_KEY",
	"CURSOR_API_KEY",
}

allowed := agent_keys | {upper(n) | some n in sa.param("agent_secret_allowlist", []); is_string(n)}

deny contains f if {
	some w in workflow.workflows
	some j in workflow.jobs(w)
	workflow.agent_job(w, j)
	secrets := [s | some s in object.get(j, "secrets", []); is_string(s.value)]
	some name in {upper(s.value) | some s in secrets}
	not name in allowed
	loc := [s | some s in secrets; upper(s.value) == name][0]
	f := sa.finding(rego.metadata.chain(), loc, sprintf("%s runs an agent and references secret %s, which the agent's process can read", [workflow.job_label(w, j), name]))
}
