package rules.drift_running_container_test

import data.rules.drift_running_container as r

loc(file) := {"file": file, "line": 1}

declared := object.union(loc("docker-compose.yml"), {
	"id": "compose:agent", "source": "compose", "name": "agent", "line": 4,
	"cap_add": [{"value": "NET_BIND_SERVICE"}],
	"mounts": [{"type": "bind", "source": "./work", "target": "/work"}],
})

running(extra) := object.union(object.union(loc("docker/proj-agent-1"), {
	"id": "docker:proj-agent-1", "source": "docker", "name": "proj-agent-1",
	"labels": {"com.docker.compose.service": "agent"},
	"cap_add": [{"value": "NET_BIND_SERVICE"}],
	"mounts": [{"type": "bind", "source": "/srv/work", "target": "/work"}],
}), extra)

test_more_privileged_than_declared_fires if {
	doc := {"workloads": [declared, running({
		"privileged": {"value": true},
		"cap_add": [{"value": "NET_BIND_SERVICE"}, {"value": "SYS_ADMIN"}],
		"mounts": [{"type": "bind", "source": "/srv/work", "target": "/work"}, {"type": "bind", "source": "/var/run/docker.sock", "target": "/var/run/docker.sock"}],
	})]}
	fs := r.deny with input as doc
	count(fs) == 1
	some f in fs
	f.rule_id == "drift-running-container"
	f.severity == "high"
	f.file == "docker/proj-agent-1"
	f.message == "running container proj-agent-1 runs with privileged mode, capability SYS_ADMIN, mount /var/run/docker.sock at /var/run/docker.sock, which compose service agent (docker-compose.yml:4) does not declare"
}

# As declared (the bind's host path resolved by the engine), another
# service's container, or a container of no compose project: quiet.
test_as_declared_and_unrelated_quiet if {
	count(r.deny) == 0 with input as {"workloads": [declared, running({})]}
	other := running({"labels": {"com.docker.compose.service": "db"}, "privileged": {"value": true}})
	count(r.deny) == 0 with input as {"workloads": [declared, other]}
	count(r.deny) == 0 with input as {"workloads": [running({"privileged": {"value": true}})]}
}
