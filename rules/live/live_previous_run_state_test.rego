package rules.live_previous_run_state_test

import data.rules.live_previous_run_state as r

fresh := {"task_source": "option", "env_age_at_task_seconds": 240, "history": [], "old_files": 0, "old_file_examples": [], "file": "live/reuse", "line": 1}

test_fresh_quiet if count(r.deny) == 0 with input as {"live": {"reuse": fresh}}

test_canary_fires if {
	reuse := object.union(fresh, {"canary": {"path": "/var/tmp/.sandbox-audit/canary", "found_previous": true, "file": "live/reuse", "line": 1}})
	some f in r.deny with input as {"live": {"reuse": reuse}}
	f.message == "a canary marker left by an earlier audit run is still at /var/tmp/.sandbox-audit/canary"
}

test_canary_first_run_quiet if {
	reuse := object.union(fresh, {"canary": {"path": "/c", "found_previous": false, "written": true, "file": "live/reuse", "line": 1}})
	count(r.deny) == 0 with input as {"live": {"reuse": reuse}}
}

test_history_fires if {
	reuse := object.union(fresh, {"history": [{"path": "/home/a/.bash_history", "before_task": true}, {"path": "/home/a/.zsh_history", "before_task": false}]})
	some f in r.deny with input as {"live": {"reuse": reuse}}
	f.message == "history written before this task started is present: /home/a/.bash_history"
}

test_old_files_threshold if {
	reuse := object.union(fresh, {"old_files": 25, "old_file_examples": ["/w/a"]})
	count(r.deny) == 1 with input as {"live": {"reuse": reuse}}
	count(r.deny) == 0 with input as {"live": {"reuse": reuse}, "params": {"live_old_files_threshold": 100}}
}

test_old_environment_fires if {
	reuse := object.union(fresh, {"env_age_at_task_seconds": (3 * 86400) + 5})
	some f in r.deny with input as {"live": {"reuse": reuse}}
	f.message == "the environment existed more than a day before the task started"
}

test_guessed_task_start_quiet if {
	reuse := object.union(fresh, {"task_source": "process-tree", "env_age_at_task_seconds": 86400})
	count(r.deny) == 0 with input as {"live": {"reuse": reuse}}
}
