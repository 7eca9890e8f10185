package rules.image_sudo_root_equivalent_test

import data.rules.image_sudo_root_equivalent

img(sudo) := {
	"file": "Dockerfile", "line": 1,
	"run_user": {"value": "dev", "file": "Dockerfile", "line": 12},
	"sudo": sudo,
}

all := {"who": "dev", "run_as": "(root)", "nopasswd": true, "commands": ["ALL"], "via": "sudoers", "file": "Dockerfile", "line": 6}

test_nopasswd_all_fires if {
	fs := image_sudo_root_equivalent.deny with input as {"images": [img([all])], "workloads": []}
	count(fs) == 1
	some f in fs
	f.rule_id == "image-sudo-root-equivalent"
	f.line == 6
	contains(f.message, "The image's user dev can run sudo without a password for every command")
}

test_group_grant_fires if {
	g := {"who": "%wheel", "run_as": "(ALL)", "nopasswd": true, "commands": ["/usr/bin/apt-get *"], "via": "sudoers", "file": "Dockerfile", "line": 7}
	fs := image_sudo_root_equivalent.deny with input as {"images": [img([g])], "workloads": []}
	count(fs) == 1
}

test_script_only_quiet if {
	g := {"who": "dev", "run_as": "(root)", "nopasswd": true, "commands": ["/usr/local/bin/init-firewall.sh"], "via": "sudoers", "file": "Dockerfile", "line": 7}
	fs := image_sudo_root_equivalent.deny with input as {"images": [img([g])], "workloads": []}
	count(fs) == 0
}

test_reported_on_the_workload_instead if {
	fs := image_sudo_root_equivalent.deny with input as {"images": [img([all])], "workloads": [{"build": {"dockerfile": "Dockerfile", "context": "."}}]}
	count(fs) == 0
}

test_root_image_quiet if {
	i := object.union(img([all]), {"run_user": {"value": "root", "file": "Dockerfile", "line": 12}})
	fs := image_sudo_root_equivalent.deny with input as {"images": [i], "workloads": []}
	count(fs) == 0
}
