package rules.workflow_agent_extra_secrets_test

import data.rules.workflow_agent_extra_secrets

wf := ".github/workflows/claude.yml"

job(secrets) := {"workflows": [{
	"name": "Claude", "file": wf, "line": 1, "runs_agent": true,
	"jobs": [{
		"id": "claude", "file": wf, "line": 9, "runs_agent": true,
		"secrets": [{"value": v, "file": wf, "line": i + 20} | some i, v in secrets],
	}],
}]}

test_extra_secret_fires_once_per_name if {
	fs := workflow_agent_extra_secrets.deny with input as job(["ANTHROPIC_API_KEY", "GITHUB_TOKEN", "NPM_TOKEN", "AWS_SECRET_ACCESS_KEY", "NPM_TOKEN"])
	count(fs) == 2
	some f in fs
	f.rule_id == "workflow-agent-extra-secrets"
	f.severity == "medium"
	f.property == "credentials"
	f.file == wf
	f.line == 22
	contains(f.message, "NPM_TOKEN")
}

test_param_allowlist_quiet if {
	count(workflow_agent_extra_secrets.deny) == 0 with input as object.union(job(["OPENAI_API_KEY", "npm_token"]), {"params": {"agent_secret_allowlist": ["NPM_TOKEN"]}})
}

test_hardened_quiet if {
	count(workflow_agent_extra_secrets.deny) == 0 with input as job(["CLAUDE_CODE_OAUTH_TOKEN", "GITHUB_TOKEN"])
}

test_non_agent_job_quiet if {
	count(workflow_agent_extra_secrets.deny) == 0 with input as {"workflows": [{
		"name": "Release", "file": wf, "line": 1,
		"jobs": [{"id": "publish", "file": wf, "line": 9, "runs_agent": false, "secrets": [{"value": "NPM_TOKEN", "file": wf, "line": 12}]}],
	}]}
}

test_empty_input_quiet if {
	count(workflow_agent_extra_secrets.deny) == 0 with input as {}
}
