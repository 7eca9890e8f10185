package rules.egress_firewall_undoable_test

import data.rules.egress_firewall_undoable

script := {
	"restricted": true, "script_unverified": true, "file": ".devcontainer/devcontainer.json", "line": 12,
	"script": {"path": ".devcontainer/init-firewall.sh", "phase": "postStart", "sudo": true, "rules": {"holes": []}},
}

net_admin := [{"value": "NET_ADMIN", "file": ".devcontainer/devcontainer.json", "line": 4}]

user(u) := {"value": u, "file": ".devcontainer/devcontainer.json", "line": 9}

grant(cmds) := {"who": "node", "run_as": "(root)", "nopasswd": true, "commands": cmds, "via": "sudoers", "file": ".devcontainer/Dockerfile", "line": 20}

dev(extra) := object.union({"source": "devcontainer", "name": "dev", "egress": script, "cap_add": net_admin}, extra)

test_reference_pattern_quiet if {
	fs := egress_firewall_undoable.deny with input as {"workloads": [dev({"user": user("node"), "sudo": [grant(["/usr/local/bin/init-firewall.sh"])]})]}
	count(fs) == 0
}

test_nopasswd_all_fires_at_the_grant if {
	fs := egress_firewall_undoable.deny with input as {"workloads": [dev({"user": user("node"), "sudo": [grant(["ALL"])]})]}
	count(fs) == 1
	some f in fs
	f.rule_id == "egress-firewall-undoable"
	f.severity == "high"
	f.file == ".devcontainer/Dockerfile"
	f.line == 20
	contains(f.message, "devcontainer dev's firewall script .devcontainer/init-firewall.sh can be undone by the agent: node can run sudo without a password for every command")
}

test_sudo_for_iptables_fires if {
	fs := egress_firewall_undoable.deny with input as {"workloads": [dev({"user": user("node"), "sudo": [grant(["/usr/sbin/iptables"])]})]}
	count(fs) == 1
	some f in fs
	contains(f.message, "node can run sudo without a password for /usr/sbin/iptables, which runs any program as root (iptables --modprobe=PROGRAM runs it)")
}

test_root_with_net_admin_fires if {
	fs := egress_firewall_undoable.deny with input as {"workloads": [dev({"user": user("root")})]}
	count(fs) == 1
	some f in fs
	contains(f.message, "it runs as root with NET_ADMIN")
}

test_image_root_with_net_admin_fires if {
	fs := egress_firewall_undoable.deny with input as {"workloads": [dev({"image_user": {"value": "root", "file": ".devcontainer/Dockerfile", "line": 1}})]}
	count(fs) == 1
}

test_privileged_fires if {
	fs := egress_firewall_undoable.deny with input as {"workloads": [dev({"user": user("node"), "privileged": {"value": true, "file": ".devcontainer/devcontainer.json", "line": 3}})]}
	count(fs) == 1
	some f in fs
	f.line == 3
	contains(f.message, "the container is privileged")
}

# The user is unknown: nothing shows the agent can undo it.
test_unknown_user_without_sudo_quiet if {
	fs := egress_firewall_undoable.deny with input as {"workloads": [dev({})]}
	count(fs) == 0
}

test_no_script_quiet if {
	fs := egress_firewall_undoable.deny with input as {"workloads": [{"source": "devcontainer", "name": "dev", "user": user("root"), "cap_add": net_admin, "egress": {"restricted": true, "by": "runArgs --network=none"}}]}
	count(fs) == 0
}

test_sudo_for_several_filter_commands if {
	fs := egress_firewall_undoable.deny with input as {"workloads": [dev({"user": user("node"), "sudo": [grant(["/usr/sbin/iptables", "/usr/sbin/ip6tables", "/usr/sbin/ipset"])]})]}
	count(fs) == 1
	some f in fs
	contains(f.message, "node can run sudo without a password for /usr/sbin/ip6tables, which runs any program as root")
}

# Several grants that each undo the firewall (sudo for docker, groupmod and
# usermod, as a real reference image has): one finding, at the first grant,
# not an evaluation error.
test_several_undoing_grants_one_finding if {
	g2 := object.union(grant(["/usr/sbin/groupmod"]), {"line": 21})
	g3 := object.union(grant(["/usr/bin/docker"]), {"line": 22})
	fs := egress_firewall_undoable.deny with input as {"workloads": [dev({"user": user("node"), "sudo": [grant(["/usr/sbin/usermod"]), g2, g3]})]}
	count(fs) == 1
	some f in fs
	f.line == 20
}

# The reference grant for the script itself, but the script reads hosts
# from a file the agent can write: the agent widens it and reruns it.
test_script_reads_agent_writable_file_fires if {
	reads := {"holes": [], "reads": [
		{"value": "/etc/fw/base.conf", "file": ".devcontainer/init-firewall.sh", "line": 10},
		{"value": "/tmp/.extra-domains", "file": ".devcontainer/init-firewall.sh", "line": 88},
	]}
	eg := object.union(script, {"script": object.union(script.script, {"runs": "/usr/local/bin/init-firewall.sh", "rules": reads})})
	w := object.union(dev({"user": user("node"), "sudo": [grant(["/usr/local/bin/init-firewall.sh"])]}), {"egress": eg})
	fs := egress_firewall_undoable.deny with input as {"workloads": [w]}
	count(fs) == 1
	some f in fs
	f.file == ".devcontainer/init-firewall.sh"
	f.line == 88
	contains(f.message, "node can run sudo /usr/local/bin/init-firewall.sh without a password, and the script reads /tmp/.extra-domains, which the agent can write")

	# no grant to rerun it: the file is read once, before the agent starts
	w2 := object.union(dev({"user": user("node"), "sudo": []}), {"egress": eg})
	count(egress_firewall_undoable.deny) == 0 with input as {"workloads": [w2]}

	# a file only root can write
	eg3 := object.union(script, {"script": object.union(script.script, {"runs": "/usr/local/bin/init-firewall.sh", "rules": {"holes": [], "reads": [{"value": "/etc/fw/base.conf", "file": ".devcontainer/init-firewall.sh", "line": 10}]}})})
	w3 := object.union(dev({"user": user("node"), "sudo": [grant(["/usr/local/bin/init-firewall.sh"])]}), {"egress": eg3})
	count(egress_firewall_undoable.deny) == 0 with input as {"workloads": [w3]}
}
