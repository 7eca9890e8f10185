package rules.sudo_root_equivalent_test

import data.rules.sudo_root_equivalent

dev(extra) := object.union({
	"source": "devcontainer", "name": "dev", "file": ".devcontainer/devcontainer.json", "line": 1,
	"user": {"value": "vscode", "file": ".devcontainer/devcontainer.json", "line": 5},
}, extra)

grant(who, cmds, nopasswd, via) := {
	"who": who, "run_as": "(root)", "nopasswd": nopasswd, "commands": cmds, "via": via,
	"file": ".devcontainer/Dockerfile", "line": 7,
}

test_nopasswd_all_from_dockerfile_fires if {
	fs := sudo_root_equivalent.deny with input as {"workloads": [dev({"sudo": [grant("vscode", ["ALL"], true, "sudoers")]})]}
	count(fs) == 1
	some f in fs
	f.rule_id == "sudo-root-equivalent"
	f.severity == "medium"
	f.file == ".devcontainer/Dockerfile"
	f.line == 7
	contains(f.message, "runs as vscode, which can run sudo without a password for every command (written by the Dockerfile)")
}

# Privileged, or holding the host's Docker socket: the user has the host
# already, reported higher; sudo adds nothing to say.
test_root_on_host_quiet if {
	g := [grant("vscode", ["ALL"], true, "sudoers")]
	count(sudo_root_equivalent.deny) == 0 with input as {"workloads": [dev({"sudo": g, "privileged": {"value": true, "file": "f", "line": 1}})]}
	count(sudo_root_equivalent.deny) == 0 with input as {"workloads": [dev({"sudo": g, "mounts": [{"source": "/var/run/docker.sock", "target": "/var/run/docker.sock"}]})]}
	count(sudo_root_equivalent.deny) == 1 with input as {"workloads": [dev({"sudo": g, "mounts": [{"source": "/home/u/src", "target": "/workspace"}]})]}
}

# The compose service a devcontainer runs in: the devcontainer's workload
# speaks for the agent's user and reports the grant, once.
test_compose_service_of_a_devcontainer_quiet if {
	g := [grant("node", ["ALL"], true, "sudoers")]
	svc := {"source": "compose", "name": "app", "id": "compose:compose.yml:app", "user": {"value": "node", "file": "compose.yml", "line": 3}, "sudo": g}
	count(sudo_root_equivalent.deny) == 0 with input as {"workloads": [object.union(svc, {"devcontainer": ".devcontainer/devcontainer.json"})]}
	count(sudo_root_equivalent.deny) == 1 with input as {"workloads": [svc]}
}

test_feature_default_fires if {
	fs := sudo_root_equivalent.deny with input as {"workloads": [dev({"sudo": [grant("vscode", ["ALL"], true, "feature ghcr.io/devcontainers/features/common-utils")]})]}
	count(fs) == 1
	some f in fs
	contains(f.message, "feature ghcr.io/devcontainers/features/common-utils")
}

test_root_equivalent_command_fires if {
	fs := sudo_root_equivalent.deny with input as {"workloads": [dev({"sudo": [grant("vscode", ["/usr/local/bin/init-firewall.sh", "/usr/bin/docker"], true, "sudoers")]})]}
	count(fs) == 1
	some f in fs
	contains(f.message, "/usr/bin/docker, which runs anything as root")
}

test_writable_script_fires if {
	fs := sudo_root_equivalent.deny with input as {"workloads": [dev({"sudo": [grant("vscode", ["/workspaces/app/.devcontainer/fw.sh"], true, "sudoers")]})]}
	count(fs) == 1
	some f in fs
	contains(f.message, "a file the agent can write")
}

test_image_user_used_when_config_sets_none if {
	w := {"source": "compose", "name": "agent", "image_user": {"value": "node", "file": "Dockerfile", "line": 9}, "sudo": [grant("node", ["ALL"], true, "sudoers")]}
	fs := sudo_root_equivalent.deny with input as {"workloads": [w]}
	count(fs) == 1
	some f in fs
	contains(f.message, "compose service agent runs as node")
}

# The reference devcontainer: sudo only for the root-owned firewall script.
test_script_only_quiet if {
	fs := sudo_root_equivalent.deny with input as {"workloads": [dev({"sudo": [grant("vscode", ["/usr/local/bin/init-firewall.sh"], true, "sudoers")]})]}
	count(fs) == 0
}

# A service's init script with its argument fixed is root's own file, not
# the program it is named after (/etc/init.d/ssh is not the ssh client).
test_init_script_quiet if {
	count(sudo_root_equivalent.deny) == 0 with input as {"workloads": [dev({"sudo": [grant("vscode", ["/usr/local/bin/init-firewall.sh", "/etc/init.d/ssh start"], true, "sudoers")]})]}
	count(sudo_root_equivalent.deny) == 1 with input as {"workloads": [dev({"sudo": [grant("vscode", ["/usr/bin/ssh"], true, "sudoers")]})]}
}

test_password_required_quiet if {
	fs := sudo_root_equivalent.deny with input as {"workloads": [dev({"sudo": [grant("vscode", ["ALL"], false, "sudoers")]})]}
	count(fs) == 0
}

test_other_target_user_quiet if {
	g := object.union(grant("vscode", ["ALL"], true, "sudoers"), {"run_as": "(postgres)"})
	fs := sudo_root_equivalent.deny with input as {"workloads": [dev({"sudo": [g]})]}
	count(fs) == 0
}

test_root_workload_left_to_runs_as_root if {
	w := dev({"user": {"value": "root", "file": ".devcontainer/devcontainer.json", "line": 5}, "sudo": [grant("root", ["ALL"], true, "sudoers")]})
	fs := sudo_root_equivalent.deny with input as {"workloads": [w]}
	count(fs) == 0
}

test_setenv_fires if {
	g := object.union(grant("vscode", ["/usr/local/bin/init-proxy.sh"], true, "sudoers"), {"setenv": true})
	fs := sudo_root_equivalent.deny with input as {"workloads": [dev({"sudo": [g]})]}
	count(fs) == 1
	some f in fs
	contains(f.message, "/usr/local/bin/init-proxy.sh with any environment it chooses (SETENV")
}

test_several_root_commands_one_finding if {
	fs := sudo_root_equivalent.deny with input as {"workloads": [dev({"sudo": [grant("vscode", ["/usr/bin/vim", "/usr/bin/docker"], true, "sudoers")]})]}
	count(fs) == 1
	some f in fs
	contains(f.message, "/usr/bin/docker, which runs anything as root")
}

# --security-opt no-new-privileges (allowPrivilegeEscalation: false): sudo's
# setuid bit is ignored, the grant cannot be used
test_no_new_privileges_quiet if {
	g := [grant("vscode", ["ALL"], true, "sudoers")]
	count(sudo_root_equivalent.deny) == 0 with input as {"workloads": [dev({"sudo": g, "allow_privilege_escalation": {"value": false, "file": ".devcontainer/devcontainer.json", "line": 3}})]}
	count(sudo_root_equivalent.deny) == 1 with input as {"workloads": [dev({"sudo": g, "allow_privilege_escalation": {"value": true, "file": ".devcontainer/devcontainer.json", "line": 3}})]}
}

# sudo for the packet filter alone: iptables --modprobe and ip netns exec
# run any program as root; ipset runs none.
test_filter_commands_that_run_programs if {
	fs := sudo_root_equivalent.deny with input as {"workloads": [dev({"sudo": [grant("vscode", ["/usr/sbin/iptables", "/usr/sbin/ipset"], true, "sudoers")]})]}
	count(fs) == 1
	some f in fs
	contains(f.message, "/usr/sbin/iptables, which runs any program as root (iptables --modprobe=PROGRAM runs it)")
	count(sudo_root_equivalent.deny) == 1 with input as {"workloads": [dev({"sudo": [grant("vscode", ["/sbin/ip"], true, "sudoers")]})]}
	count(sudo_root_equivalent.deny) == 0 with input as {"workloads": [dev({"sudo": [grant("vscode", ["/usr/sbin/ipset"], true, "sudoers")]})]}
}

# A script that ends in exec "$@", allowed with no arguments fixed, runs
# whatever its caller names as root.
test_script_running_its_arguments_fires if {
	g := object.union(grant("vscode", ["/usr/local/bin/init-firewall.sh", "/usr/local/bin/entry.sh"], true, "sudoers"), {"runs_args": {"command": "/usr/local/bin/entry.sh", "file": ".devcontainer/entry.sh", "line": 9}})
	fs := sudo_root_equivalent.deny with input as {"workloads": [dev({"sudo": [g]})]}
	count(fs) == 1
	some f in fs
	contains(f.message, "for /usr/local/bin/entry.sh, which runs the command it is given (.devcontainer/entry.sh:9)")
}
