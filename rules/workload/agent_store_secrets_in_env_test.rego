package rules.agent_store_secrets_in_env_test

import data.rules.agent_store_secrets_in_env as r

f := "deploy/agent.yaml"

pod(env) := {"workloads": [{"id": "k8s:Deployment/agents/coder/agent", "source": "kubernetes", "file": f, "line": 10, "env": env}]}

ev(name, from_secret, sensitive, line) := {"name": name, "from_secret": from_secret, "sensitive_name": sensitive, "file": f, "line": line}

test_platform_secrets_listed_once if {
	fs := r.deny with input as pod([
		ev("ANTHROPIC_API_KEY", true, true, 20),
		ev("DASHBOARD_PASSWORD", true, true, 24),
		ev("SESSION_SECRET", true, true, 29),
		ev("LOG_LEVEL", false, false, 33),
	])
	count(fs) == 1
	some x in fs
	x.rule_id == "agent-store-secrets-in-env"
	x.property == "credentials"
	x.severity == "medium"
	x.line == 24
	contains(x.message, "takes 2 stored secret(s) into the agent's environment (DASHBOARD_PASSWORD, SESSION_SECRET)")
}

# The model key, envFrom, literal values and bland names are not reported.
test_model_key_envfrom_and_literals_quiet if {
	count(r.deny) == 0 with input as pod([
		ev("OPENAI_API_KEY", true, true, 20),
		ev("envFrom:secret/provider-keys", true, false, 22),
		ev("DB_PASSWORD", false, true, 24),
		ev("REGION", true, false, 26),
	])
}

# A platform workload (not judged) is not the agent's.
test_platform_workload_quiet if {
	doc := pod([ev("DASHBOARD_PASSWORD", true, true, 24)])
	p := json.patch(doc, [{"op": "add", "path": "/workloads/0/judged", "value": false}])
	count(r.deny) == 0 with input as p
}

test_empty_input_quiet if {
	count(r.deny) == 0 with input as {}
}
