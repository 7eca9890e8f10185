package rules.weak_default_password_test

import data.rules.weak_default_password

compose := "docker-compose.yml"

test_weak_default_behind_published_port_fires if {
	fs := weak_default_password.deny with input as {"workloads": [{
		"source": "compose", "name": "db",
		"ports": [{"value": "5432:5432", "file": compose, "line": 9}],
		"env": [{"name": "POSTGRES_PASSWORD", "from_host": "POSTGRES_PASSWORD", "weak": true, "sensitive_name": true, "file": compose, "line": 7}],
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "weak-default-password"
	f.property == "credentials"
	f.severity == "medium"
	f.file == compose
	f.line == 7
	f.message == "compose service db sets POSTGRES_PASSWORD to a guessable password and publishes port 5432:5432"
}

test_weak_literal_without_ports_fires if {
	fs := weak_default_password.deny with input as {"workloads": [{
		"source": "kubernetes", "id": "k8s:Deployment/default/db/postgres", "name": "postgres",
		"env": [{"name": "POSTGRES_PASSWORD", "weak": true, "sensitive_name": true, "file": "k8s/db.yaml", "line": 20}],
	}]}
	count(fs) == 1
	some f in fs
	f.message == "Kubernetes container Deployment/default/db/postgres sets POSTGRES_PASSWORD to a guessable password"
}

test_references_and_random_passwords_quiet if {
	count(weak_default_password.deny) == 0 with input as {"workloads": [{
		"source": "compose", "name": "db",
		"ports": [{"value": "5432:5432", "file": compose, "line": 9}],
		"env": [
			{"name": "POSTGRES_PASSWORD", "from_host": "POSTGRES_PASSWORD", "sensitive_name": true, "file": compose, "line": 7},
			{"name": "API_TOKEN", "secret": {"kind": "generic-secret", "lifetime": "unknown", "fingerprint": "0123456789ab"}, "sensitive_name": true, "file": compose, "line": 8},
			{"name": "POSTGRES_USER", "sensitive_name": false, "file": compose, "line": 6},
		],
	}]}
}

# A platform database's local password is not the agent sandbox's weakness.
test_not_judged_quiet if {
	count(weak_default_password.deny) == 0 with input as {"workloads": [{
		"source": "compose", "name": "db", "judged": false, "role": "platform",
		"env": [{"name": "POSTGRES_PASSWORD", "weak": true, "file": "c.yml", "line": 6}],
		"ports": [{"value": "5432:5432", "file": "c.yml", "line": 8}],
	}]}
}

# A connection URL's password is another service's: the app's published
# port is not named as its exposure.
test_connection_url_message if {
	fs := weak_default_password.deny with input as {"workloads": [{
		"id": "app", "source": "compose", "name": "app", "file": "compose.yaml", "line": 2, "judged": true, "role": "agent",
		"ports": [{"value": "8080:8080", "file": "compose.yaml", "line": 4}],
		"env": [{"name": "DATABASE_URL", "weak": true, "file": "compose.yaml", "line": 6}],
	}]}
	some f in fs
	contains(f.message, "connects with a guessable password in DATABASE_URL")
	not contains(f.message, "publishes")
}

# A connection URL to a database of the same compose file that publishes no
# port: only the network's containers reach it. Published, it fires.
test_url_to_unpublished_service_quiet if {
	app := {"source": "compose", "name": "app", "file": "compose.yaml", "line": 3,
		"env": [{"name": "DATABASE_URL", "weak": true, "url_host": "db", "file": "compose.yaml", "line": 6}]}
	db := {"source": "compose", "name": "db", "file": "compose.yaml", "line": 10, "judged": false}
	count(weak_default_password.deny) == 0 with input as {"workloads": [app, db]}
	published := object.union(db, {"ports": [{"value": "0.0.0.0:5432:5432", "file": "compose.yaml", "line": 12}]})
	count(weak_default_password.deny) == 1 with input as {"workloads": [app, published]}
	other := object.union(db, {"file": "other/compose.yaml"})
	count(weak_default_password.deny) == 1 with input as {"workloads": [app, other]}
}
