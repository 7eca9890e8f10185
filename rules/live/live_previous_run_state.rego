# METADATA
# title: Live sandbox carries state from an earlier task
# description: |
#   The environment existed before this task and kept what earlier work left:
#   a canary marker from an earlier audit, shell or agent history written
#   before the task began, files modified inside this environment before the
#   task, or an environment much older than the task (a reused self-hosted
#   runner or devcontainer). Whatever an earlier task planted — a poisoned
#   cache, a hook, a credential — this one inherits.
# related_resources:
#   - ref: https://docs.github.com/en/actions/hosting-your-own-runners/managing-self-hosted-runners/autoscaling-with-self-hosted-runners#using-ephemeral-runners-for-autoscaling
#     description: GitHub — ephemeral self-hosted runners
#   - ref: https://docs.github.com/en/actions/security-for-github-actions/security-guides/security-hardening-for-github-actions#hardening-for-self-hosted-runners
#     description: GitHub — hardening for self-hosted runners
# custom:
#   id: live-previous-run-state
#   property: disposable
#   severity: high
#   remediation: Create the sandbox for the task and destroy it afterwards (ephemeral runners, a fresh VM or container per task); do not reuse workspaces, homes or /tmp across tasks.
package rules.live_previous_run_state

import data.lib.sa

deny contains f if {
	c := input.live.reuse.canary
	c.found_previous
	f := sa.finding(rego.metadata.chain(), c, sprintf("a canary marker left by an earlier audit run is still at %s", [c.path]))
}

deny contains f if {
	hist := [h.path | some h in input.live.reuse.history; h.before_task]
	count(hist) > 0
	f := sa.finding(
		rego.metadata.chain(), input.live.reuse,
		sprintf("history written before this task started is present: %s", [concat(", ", sort(hist))]),
	)
}

deny contains f if {
	r := input.live.reuse
	r.old_files >= sa.param("live_old_files_threshold", 20)
	f := sa.finding(
		rego.metadata.chain(), r,
		sprintf("files were modified inside this environment before the task started (e.g. %s)", [concat(", ", r.old_file_examples)]),
	)
}

# Only a task start the caller supplied counts: one guessed from the
# process tree is the session start, which an environment always predates.
deny contains f if {
	r := input.live.reuse
	r.task_source == "option"
	r.env_age_at_task_seconds >= sa.param("live_max_env_age_seconds", 3600)
	f := sa.finding(
		rego.metadata.chain(), r,
		sprintf("the environment existed %s before the task started", [age(r.env_age_at_task_seconds)]),
	)
}

# age renders seconds in coarse buckets, so the message (and the finding's
# fingerprint) stays the same from one run to the next.
age(s) := "more than a week" if {
	s >= 7 * 86400
} else := "more than a day" if {
	s >= 86400
} else := "more than an hour"
