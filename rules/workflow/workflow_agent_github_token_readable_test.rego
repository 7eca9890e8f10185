package rules.workflow_agent_github_token_readable_test

import data.rules.workflow_agent_github_token_readable as r

wf := ".github/workflows/review.yml"

job(writes, secrets) := {"workflows": [{
	"name": "Review", "file": wf, "line": 1, "runs_agent": true,
	"jobs": [{
		"id": "review", "file": wf, "line": 9, "runs_agent": true,
		"permissions": {"all": "", "scopes": {}, "file": wf, "line": 11},
		"effective_write": writes,
		"agent_steps": [{
			"tool": "codex", "run": "codex exec", "file": wf, "line": 30, "inputs": {},
			"secrets": secrets,
		}],
	}],
}]}

sec(name, via, to, line) := {"name": name, "via": via, "to": to, "model_key": false, "file": wf, "line": line}

app(id, scoped, write, via, to, line) := object.union(
	sec(sprintf("steps.%s.outputs.token", [id]), via, to, line),
	{"app": {"step": id, "scoped": scoped, "write": write}},
)

test_job_token_with_write_scope_in_step_env_fires if {
	fs := r.deny with input as job(["pull-requests"], [sec("GITHUB_TOKEN", "step-env", "GH_TOKEN", 33)])
	count(fs) == 1
	some f in fs
	f.rule_id == "workflow-agent-github-token-readable"
	f.property == "credentials"
	f.severity == "medium"
	f.line == 33
	contains(f.message, `job "review": the job's GITHUB_TOKEN (write: pull-requests) is in the agent's process through the agent step's env as GH_TOKEN`)
}

test_pat_fallback_named if {
	fs := r.deny with input as job(["contents"], [sec("BOT_PAT", "step-env", "GH_TOKEN", 33), sec("GITHUB_TOKEN", "step-env", "GH_TOKEN", 33)])
	some f in fs
	contains(f.message, "the job's GITHUB_TOKEN (write: contents), or secret BOT_PAT when set, is in the agent's process")
}

test_claude_env_counts_as_the_agents_env if {
	fs := r.deny with input as job(["issues"], [sec("GITHUB_TOKEN", "input", "claude_env", 40)])
	some f in fs
	contains(f.message, "(write: issues) is in the agent's process through claude_env:")
}

test_unscoped_app_token_fires if {
	fs := r.deny with input as job([], [app("app-token", false, [], "step-env", "GH_TOKEN", 31)])
	count(fs) == 1
	some f in fs
	f.line == 31
	contains(f.message, "the GitHub App token minted by step app-token (no permission-* inputs: every permission of the app's installation)")
}

test_scoped_app_token_with_write_fires if {
	fs := r.deny with input as job([], [app("mint", true, ["issues", "pull-requests"], "step-env", "GITHUB_TOKEN", 47)])
	some f in fs
	contains(f.message, "(write: issues, pull-requests)")
}

# app-token || github.token in one variable: one finding, for the app token.
test_app_token_with_job_token_fallback_reported_once if {
	fs := r.deny with input as job(["issues"], [
		sec("GITHUB_TOKEN", "step-env", "GITHUB_TOKEN", 47),
		app("mint", true, ["issues"], "step-env", "GITHUB_TOKEN", 47),
	])
	count(fs) == 1
	some f in fs
	contains(f.message, "App token")
}

test_read_only_tokens_quiet if {
	count(r.deny) == 0 with input as job(["id-token"], [
		sec("GITHUB_TOKEN", "step-env", "GH_TOKEN", 33),
		app("mint", true, [], "step-env", "APP_TOKEN", 34),
	])
}

# An input the action keeps (github_token), a persisted checkout and the
# repository default are other rules' or nobody's.
test_action_input_checkout_and_default_quiet if {
	count(r.deny) == 0 with input as job(["contents"], [
		sec("GITHUB_TOKEN", "input", "github_token", 33),
		app("mint", false, [], "input", "github_token", 34),
		sec("GITHUB_TOKEN", "checkout", "token", 20),
	])
	count(r.deny) == 0 with input as job(["default"], [sec("GITHUB_TOKEN", "step-env", "GH_TOKEN", 33)])
}

test_write_all_left_to_its_rule if {
	doc := job(["contents", "issues"], [sec("GITHUB_TOKEN", "job-env", "GH_TOKEN", 12)])
	wa := json.patch(doc, [{"op": "replace", "path": "/workflows/0/jobs/0/permissions/all", "value": "write-all"}])
	count(r.deny) == 1 with input as doc
	count(r.deny) == 0 with input as wa
}
