package rules.live_sensitive_mount_test

import data.rules.live_sensitive_mount as r

mount(target, why, ro) := {"target": target, "source": "/home/alice/.ssh", "fstype": "ext4", "read_only": ro, "why": why, "file": "live/mounts", "line": 1}

test_credentials_dir_fires if {
	some f in r.deny with input as {"live": {"mounts": [mount("/root/.ssh", ["credentials-dir"], true)]}}
	f.message == "/root/.ssh is mounted read-only from /home/alice/.ssh (credentials-dir)"
	f.file == "live/mounts"
}

test_writable_sys_fires if {
	count(r.deny) == 1 with input as {"live": {"mounts": [mount("/sys", ["sys-writable"], false)]}}
}

# The socket rules report sockets.
test_socket_only_quiet if count(r.deny) == 0 with input as {"live": {"mounts": [mount("/var/run/docker.sock", ["runtime-socket"], false)]}}

test_no_mounts_quiet if count(r.deny) == 0 with input as {"live": {"mounts": []}}
