# Package lib.workflow holds what the workflow rules share: names for
# messages, which jobs run or prepare an agent, and where a job's token
# permissions come from.
package lib.workflow

import data.lib.sa

workflows := object.get(input, "workflows", [])

jobs(w) := object.get(w, "jobs", [])

# label names a workflow by its name, else its file.
label(w) := sprintf("workflow %q", [n]) if {
	n := object.get(w, "name", "")
	n != ""
} else := sprintf("workflow %s", [object.get(w, "file", "")])

job_label(w, j) := sprintf("%s job %q", [label(w), object.get(j, "id", "")])

# runs_agent(w): the workflow runs an agent in some job.
runs_agent(w) if w.runs_agent == true

runs_agent(w) if {
	some j in jobs(w)
	j.runs_agent == true
}

# agent_job(w, j): the job runs the agent.
agent_job(_, j) if j.runs_agent == true

# prepares_agent(w, j): the job runs the agent, or sets up the environment the
# Copilot coding agent then works in (copilot-setup-steps runs on the same
# runner right before the agent).
prepares_agent(_, j) if j.runs_agent == true

prepares_agent(w, _) if w.copilot_setup == true

# copilot_setup(w): the workflow is the Copilot coding agent's setup steps.
# Its permissions block is the setup steps' token only: GitHub gives the
# agent a token of its own, so what that block grants is not the agent's.
copilot_setup(w) if w.copilot_setup == true

# perm_loc(w, j) is where the job's token permissions are written: the job's
# block, else the workflow's, else the job itself (nothing written).
perm_loc(w, j) := j.permissions if is_object(j.permissions)

else := w.permissions if is_object(w.permissions)

else := j

# short(s) keeps a step's text readable in a message.
short(s) := concat("", [substring(s, 0, 77), "…"]) if {
	is_string(s)
	count(s) > 80
}

else := s

# --- runners ------------------------------------------------------------------

# Runner labels the organisation names in the policy file, lower-cased.
self_hosted_labels := {lower(l) | some l in sa.param("self_hosted_runner_labels", []); is_string(l)}

ephemeral_labels := {lower(l) | some l in sa.param("ephemeral_runner_labels", []); is_string(l)}

_labels(j) := {lower(l) | some l in object.get(j, "runner_labels", []); is_string(l)}

# ephemeral(j): a label says the runner lasts one job (ephemeral, jit, a
# hosted runner service), or the policy file lists one of its labels.
ephemeral(j) if j.ephemeral == true

ephemeral(j) if count(_labels(j) & ephemeral_labels) > 0

# persistent_self_hosted(j): a self-hosted runner (its label, or one the
# policy file names) that nothing marks ephemeral.
persistent_self_hosted(j) if {
	_self_hosted(j)
	not ephemeral(j)
}

_self_hosted(j) if j.self_hosted == true

_self_hosted(j) if count(_labels(j) & self_hosted_labels) > 0

# known_label(j): the policy file names one of the job's runner labels.
known_label(j) if count(_labels(j) & (self_hosted_labels | ephemeral_labels)) > 0

runs_on_loc(j) := j.runs_on if is_object(j.runs_on)

else := j

runs_on_text(j) := sprintf(" (%s)", [j.runs_on.value]) if is_string(j.runs_on.value)

else := ""

# approval_gated(j): the job deploys to an environment whose protection
# rules make a person approve each run before it starts (read from GitHub
# with scan --github); a fork's pull request then waits for a maintainer
# who has seen it. Unknown (not read, or a name from an expression) is not
# gated.
approval_gated(j) if {
	name := j.environment.value
	is_string(name)
	not contains(name, "${{")
	input.repository.environments[name].required_reviewers > 0
}
