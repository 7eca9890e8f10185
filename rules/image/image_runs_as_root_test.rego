package rules.image_runs_as_root_test

import data.rules.image_runs_as_root

test_no_user_fires_at_image if {
	fs := image_runs_as_root.deny with input as {"images": [{"file": "Dockerfile", "line": 1, "base_images": []}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "image-runs-as-root"
	f.severity == "medium"
	f.file == "Dockerfile"
	f.line == 1
}

test_root_user_fires_at_user_line if {
	fs := image_runs_as_root.deny with input as {"images": [{
		"file": "build/agent.Dockerfile", "line": 1,
		"final_user": {"value": "0:0", "file": "build/agent.Dockerfile", "line": 14},
	}]}
	count(fs) == 1
	some f in fs
	f.file == "build/agent.Dockerfile"
	f.line == 14
}

test_hardened_quiet if {
	count(image_runs_as_root.deny) == 0 with input as {"images": [{
		"file": "Dockerfile", "line": 1,
		"final_user": {"value": "10001", "file": "Dockerfile", "line": 20},
	}]}
}

test_empty_input_quiet if {
	count(image_runs_as_root.deny) == 0 with input as {}
}

# Every workload that builds the image names a non-root user: quiet. One
# that names none, or root, keeps the finding.
dev(user) := {"source": "devcontainer", "name": "d", "build": {"dockerfile": ".devcontainer/Dockerfile"}, "user": {"value": user}}

test_built_by_non_root_workloads_quiet if {
	img := {"file": ".devcontainer/Dockerfile", "line": 1}
	count(image_runs_as_root.deny) == 0 with input as {"images": [img], "workloads": [dev("daytona")]}
	count(image_runs_as_root.deny) == 1 with input as {"images": [img], "workloads": [dev("daytona"), dev("root")]}
	count(image_runs_as_root.deny) == 1 with input as {"images": [img], "workloads": [dev("${USER}")]}
	count(image_runs_as_root.deny) == 1 with input as {"images": [img], "workloads": [{"source": "compose", "name": "c", "build": {"dockerfile": ".devcontainer/Dockerfile"}}]}
	count(image_runs_as_root.deny) == 1 with input as {"images": [img], "workloads": [object.union(dev("node"), {"build": {"dockerfile": "other/Dockerfile"}})]}
}

# The image is built by a compose service a devcontainer runs in, whose
# remoteUser is not root: the agent does not run as root.
test_compose_service_of_devcontainer_quiet if {
	img := {"file": ".devcontainer/Dockerfile", "line": 1}
	svc := {"source": "compose", "name": "app", "devcontainer": ".devcontainer/devcontainer.json", "build": {"dockerfile": ".devcontainer/Dockerfile"}}
	dc := {"source": "devcontainer", "name": "dev", "file": ".devcontainer/devcontainer.json", "user": {"value": "daytona", "file": ".devcontainer/devcontainer.json", "line": 82}}
	count(image_runs_as_root.deny) == 0 with input as {"images": [img], "workloads": [svc, dc]}
	# with a root remoteUser it fires
	root_dc := object.union(dc, {"user": {"value": "root", "file": ".devcontainer/devcontainer.json", "line": 82}})
	count(image_runs_as_root.deny) == 1 with input as {"images": [img], "workloads": [svc, root_dc]}
}

# An image only platform services build (a squid proxy in front of the
# sandbox) is not the agent's: quiet. Built by a judged service too, it fires.
test_built_only_by_platform_services_quiet if {
	img := {"file": "proxy/Dockerfile", "line": 1, "base_images": []}
	proxy := {"source": "compose", "name": "firewall", "judged": false, "role": "unknown", "build": {"dockerfile": "proxy/Dockerfile"}}
	count(image_runs_as_root.deny) == 0 with input as {"images": [img], "workloads": [proxy]}
	agent := {"source": "compose", "name": "dev", "judged": true, "role": "agent", "build": {"dockerfile": "proxy/Dockerfile"}}
	count(image_runs_as_root.deny) == 1 with input as {"images": [img], "workloads": [proxy, agent]}
}

# An entrypoint that hands the work to a non-root user (exec gosu node "$@"):
# the image starts as root only to set up. Quiet, with USER unset or root.
test_entrypoint_drops_quiet if {
	drop := {"value": "node", "file": "entrypoint.sh", "line": 9}
	count(image_runs_as_root.deny) == 0 with input as {"images": [
		{"file": "Dockerfile", "line": 1, "drops_to": drop},
		{"file": "b/Dockerfile", "line": 1, "final_user": {"value": "root", "file": "b/Dockerfile", "line": 7}, "drops_to": drop},
	]}
}
