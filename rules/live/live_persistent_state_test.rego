package rules.live_persistent_state_test

import data.rules.live_persistent_state as r

test_persistent_home_fires if {
	m := {"target": "/home", "source": "/dev/nvme0n1p3", "fstype": "ext4", "file": "live/mounts", "line": 1}
	some f in r.deny with input as {"live": {"reuse": {"persistent_mounts": [m], "caches": []}}}
	f.message == "/home is a persistent ext4 volume (/dev/nvme0n1p3) over the home or workspace"
}

test_old_cache_fires if {
	reuse := {"task_source": "option", "persistent_mounts": [], "caches": [{"path": "/root/.npm/_cacache", "before_task": true}], "file": "live/reuse", "line": 1}
	count(r.deny) == 1 with input as {"live": {"reuse": reuse}}
}

test_guessed_task_start_quiet if {
	reuse := {"task_source": "process-tree", "persistent_mounts": [], "caches": [{"path": "/root/.npm/_cacache", "before_task": true}], "file": "live/reuse", "line": 1}
	count(r.deny) == 0 with input as {"live": {"reuse": reuse}}
}

test_image_cache_quiet if {
	reuse := {"task_source": "option", "persistent_mounts": [], "caches": [{"path": "/root/.cache", "before_task": false}], "file": "live/reuse", "line": 1}
	count(r.deny) == 0 with input as {"live": {"reuse": reuse}}
}
