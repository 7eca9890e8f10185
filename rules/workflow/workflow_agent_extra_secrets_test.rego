package rules.workflow_agent_extra_secrets_test

import data.rules.workflow_agent_extra_secrets

wf := ".github/workflows/claude.yml"

job(secrets) := {"workflows": [{
	"name": "Claude", "file": wf, "line": 1, "runs_agent": true,
	"jobs": [{
		"id": "claude", "file": wf, "line": 9, "runs_agent": true,
		"agent_steps": [{
			"uses": "anthropics/claude-code-action@v1", "tool": "claude-code", "file": wf, "line": 20, "inputs": {},
			"secrets": secrets,
		}],
	}],
}]}

sec(name, via, to, model, line) := {"name": name, "via": via, "to": to, "model_key": model, "file": wf, "line": line}

test_deploy_token_in_step_env_fires if {
	fs := workflow_agent_extra_secrets.deny with input as job([
		sec("ANTHROPIC_API_KEY", "input", "anthropic_api_key", true, 22),
		sec("NPM_TOKEN", "step-env", "NODE_AUTH_TOKEN", false, 25),
	])
	count(fs) == 1
	some f in fs
	f.rule_id == "workflow-agent-extra-secrets"
	f.severity == "medium"
	f.property == "credentials"
	f.line == 25
	contains(f.message, "secret NPM_TOKEN reaches the agent's process through the agent step's env (as NODE_AUTH_TOKEN)")
}

test_github_env_written_earlier_fires if {
	fs := workflow_agent_extra_secrets.deny with input as job([sec("AWS_SECRET_ACCESS_KEY", "github-env", "aws-secret-access-key", false, 14)])
	some f in fs
	f.line == 14
	contains(f.message, "through $GITHUB_ENV, written by an earlier step")
}

test_secrets_inherit_fires if {
	fs := workflow_agent_extra_secrets.deny with input as job([sec("*", "inherit", "", false, 12)])
	some f in fs
	contains(f.message, "every secret of the repository through secrets: inherit")
}

# The model key has its own rule; the job token its permission rules; a
# persisted checkout token workflow-checkout-persists-credentials.
test_model_key_job_token_and_checkout_quiet if {
	count(workflow_agent_extra_secrets.deny) == 0 with input as job([
		sec("CLAUDE_API_KEY", "input", "anthropic_api_key", true, 22),
		sec("GITHUB_TOKEN", "input", "github_token", false, 23),
		sec("DEPLOY_PAT", "checkout", "token", false, 15),
	])
}

# The collector leaves out what does not reach the agent (an app's private
# key given to create-github-app-token): an agent step without such secrets
# stays quiet.
test_app_token_minting_quiet if {
	count(workflow_agent_extra_secrets.deny) == 0 with input as job([])
}

test_param_allowlist_quiet if {
	count(workflow_agent_extra_secrets.deny) == 0 with input as object.union(
		job([sec("npm_token", "job-env", "NPM_TOKEN", false, 8)]),
		{"params": {"agent_secret_allowlist": ["NPM_TOKEN"]}},
	)
}

test_empty_input_quiet if {
	count(workflow_agent_extra_secrets.deny) == 0 with input as {}
}

# A secret the collector marks as a setting (CUSTOM_MODEL) is quiet; a
# credential beside it is not.
test_setting_secret_quiet if {
	fs := workflow_agent_extra_secrets.deny with input as job([
		object.union(sec("CUSTOM_MODEL", "input", "custom-model", false, 24), {"setting": true}),
		sec("DEPLOY_KEY", "step-env", "DEPLOY_KEY", false, 25),
	])
	count(fs) == 1
	some f in fs
	f.line == 25
}

# A local setup action taken for the agent by its inputs, and the real
# agent step, both get the PAT: it is reported once, at the agent step.
test_local_action_and_agent_step_once if {
	fs := workflow_agent_extra_secrets.deny with input as {"workflows": [{
		"name": "Learn", "file": wf, "line": 1, "runs_agent": true,
		"jobs": [{
			"id": "learn", "file": wf, "line": 9, "runs_agent": true,
			"agent_steps": [
				{"uses": "./.github/actions/setup", "tool": "claude-code", "file": wf, "line": 20, "inputs": {}, "secrets": [sec("QUEUE_PAT", "input", "erk-pat", false, 22)]},
				{"run": "claude --print x", "tool": "claude-code", "file": wf, "line": 30, "inputs": {}, "secrets": [sec("QUEUE_PAT", "step-env", "GH_TOKEN", false, 33)]},
			],
		}],
	}]}
	count(fs) == 1
	some f in fs
	f.line == 33
}
