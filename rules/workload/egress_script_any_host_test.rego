package rules.egress_script_any_host_test

import data.rules.egress_script_any_host

eg(restricted, allow_all, holes) := {
	"restricted": restricted, "script_unverified": true, "allow_all": allow_all,
	"file": ".devcontainer/devcontainer.json", "line": 12,
	"script": {"path": ".devcontainer/init-firewall.sh", "phase": "postStart", "rules": {"holes": holes}},
}

ssh := {"kind": "any-host", "text": "tcp/22 to any host", "file": ".devcontainer/init-firewall.sh", "line": 32}

dns := {"kind": "dns", "text": "udp/53 to any host", "file": ".devcontainer/init-firewall.sh", "line": 30}

test_ssh_to_any_host_fires_at_the_rule if {
	fs := egress_script_any_host.deny with input as {"workloads": [{"source": "devcontainer", "name": "dev", "egress": eg(true, false, [dns, ssh])}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "egress-script-any-host"
	f.severity == "medium"
	f.file == ".devcontainer/init-firewall.sh"
	f.line == 32
	contains(f.message, "devcontainer dev's firewall script .devcontainer/init-firewall.sh accepts tcp/22 to any host")
}

test_dns_only_quiet if {
	fs := egress_script_any_host.deny with input as {"workloads": [{"source": "devcontainer", "name": "dev", "egress": eg(true, false, [dns])}]}
	count(fs) == 0
}

# Allow-all and not-restricted scripts are egress-unrestricted's.
test_allow_all_or_unrestricted_quiet if {
	fs := egress_script_any_host.deny with input as {"workloads": [
		{"source": "devcontainer", "name": "a", "egress": eg(true, true, [ssh])},
		{"source": "devcontainer", "name": "b", "egress": eg(false, false, [ssh])},
	]}
	count(fs) == 0
}

# an allowlist of Cloudflare's published ranges: anyone's site is behind them
test_shared_ranges_fire if {
	cf := {"kind": "shared", "text": "allows Cloudflare's published ranges (fetched from https://www.cloudflare.com/ips-v4): anyone can serve a site or a function from these addresses, so the agent reaches hosts the allowlist never named", "file": ".devcontainer/init-firewall.sh", "line": 20}
	fs := egress_script_any_host.deny with input as {"workloads": [{"source": "devcontainer", "name": "dev", "egress": eg(true, false, [dns, cf])}]}
	count(fs) == 1
	some f in fs
	f.line == 20
	contains(f.message, "devcontainer dev's firewall script .devcontainer/init-firewall.sh allows Cloudflare's published ranges")
	not contains(f.message, "accepts")
}

# Run only when the container is created, the rules are gone after a
# restart; also run on start (here or by the devcontainer a compose service
# runs), they hold.
once(phase) := object.union(eg(true, false, [dns]), {"script": {"path": ".devcontainer/init-firewall.sh", "runs": "/usr/local/bin/init-firewall.sh", "phase": phase}})

cmd(phase) := {"phase": phase, "scripts": ["/usr/local/bin/init-firewall.sh"], "file": ".devcontainer/devcontainer.json", "line": 20}

test_firewall_run_only_on_create_fires if {
	fs := egress_script_any_host.deny with input as {"workloads": [{"source": "devcontainer", "name": "dev", "egress": once("postCreate"), "commands": [cmd("postCreate")]}]}
	count(fs) == 1
	some f in fs
	contains(f.message, "runs only in its postCreate command: its rules are gone once the container restarts")
	f.line == 12
}

test_firewall_run_on_start_too_quiet if {
	count(egress_script_any_host.deny) == 0 with input as {"workloads": [{"source": "devcontainer", "name": "dev", "egress": once("postCreate"), "commands": [cmd("postCreate"), cmd("postStart")]}]}
	count(egress_script_any_host.deny) == 0 with input as {"workloads": [{"source": "devcontainer", "name": "dev", "egress": once("postStart"), "commands": [cmd("postStart")]}]}
	svc := {"source": "compose", "name": "app", "devcontainer": ".devcontainer/devcontainer.json", "egress": once("postCreate")}
	dc := {"source": "devcontainer", "name": "dev", "file": ".devcontainer/devcontainer.json", "commands": [cmd("postCreate"), cmd("postStart")]}
	count(egress_script_any_host.deny) == 0 with input as {"workloads": [svc, dc]}
}
