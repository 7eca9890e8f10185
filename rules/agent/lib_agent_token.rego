# What a workflow's agent can write on GitHub with the credentials that
# reach it: an allow rule for git push or gh pr merge does nothing when no
# token the agent holds may write there.
package lib.agent

# (The workflow area may be left out of a run, so its library is not
# imported: the workflows are read from input.)

# workflow_step(a) is the job and agent step that start a workflow agent
# (its agents[] entry sits at the step). The Copilot setup job is left out:
# the coding agent after it gets a token of its own.
workflow_step(a) := [j, st] if {
	in_workflow(a)
	some w in object.get(input, "workflows", [])
	object.get(w, "file", "") == a.file
	not w.copilot_setup == true
	some j in object.get(w, "jobs", [])
	some st in object.get(j, "agent_steps", [])
	st.line == a.line
}

# workflow_cannot_write(a, scope): the agent a workflow step starts holds no
# credential that may write scope (contents, pull-requests): the job's token
# does not (no write to it, and when nothing sets permissions the
# repository's default, read from GitHub, is read), the agent action uses
# that token rather than one of its own, and every other secret that
# reaches the agent is its model credential, a setting, or a GitHub App
# token minted without write to scope. Any other secret may be a personal
# access token that can write. Unknown is not "cannot".
workflow_cannot_write(a, scope) if {
	workflow_only_job_token(a, scope)
	[j, _] := workflow_step(a)
	not _job_token_writes(j, scope)
}

# workflow_only_job_token(a, scope): of the credentials that reach the
# workflow's agent, only the job's own token may write scope, if any does.
workflow_only_job_token(a, scope) if {
	[_, st] := workflow_step(a)
	not _own_token(st)
	every s in object.get(st, "secrets", []) {
		not _may_write(st, s, scope)
	}
}

_job_token_writes(j, scope) if scope in object.get(j, "effective_write", [])

_job_token_writes(j, _) if {
	"default" in object.get(j, "effective_write", [])
	not input.repository.actions.default_permissions == "read"
}

# claude-code-action without a github_token input trades its OIDC token for
# the Claude GitHub App's installation token, which writes contents and
# pull requests.
_own_token(st) if {
	startswith(object.get(st, "uses", ""), "anthropics/claude-code-action@")
	not _given_token(st)
}

_given_token(st) if {
	v := st.inputs.github_token.value
	trim_space(v) != ""
}

# secrets: inherit (named "*") may hold anything.
_may_write(st, s, scope) if {
	s.name != "GITHUB_TOKEN"
	not _model_key(st, s)
	not s.setting == true
	not _app_without(s, scope)
}

# The model credential calls the model, except the Copilot CLI's, which is
# a GitHub token.
_model_key(st, s) if {
	s.model_key == true
	st.tool != "copilot"
}

_app_without(s, scope) if {
	is_object(s.app)
	s.app.scoped == true
	not scope in object.get(s.app, "write", [])
}
