package rules.agent_model_key_forwarded_test

import data.rules.agent_model_key_forwarded
import data.rules.host_secret_forwarded

dc := {"workloads": [{
	"source": "devcontainer", "name": "dev", "judged": true,
	"env": [
		{"name": "ANTHROPIC_API_KEY", "from_host": "ANTHROPIC_API_KEY", "sensitive_name": true, "file": "d.json", "line": 4},
		{"name": "GH_TOKEN", "from_host": "GITHUB_TOKEN", "sensitive_name": true, "file": "d.json", "line": 5},
	],
}]}

test_model_key_is_its_own_low_finding if {
	fs := agent_model_key_forwarded.deny with input as dc
	count(fs) == 1
	some f in fs
	f.line == 4
	f.severity == "low"
}

test_other_secret_stays_host_secret_forwarded if {
	fs := host_secret_forwarded.deny with input as dc
	count(fs) == 1
	some f in fs
	f.line == 5
}

test_not_judged_quiet if {
	count(agent_model_key_forwarded.deny) == 0 with input as {"workloads": [{
		"source": "compose", "name": "db", "judged": false,
		"env": [{"name": "OPENAI_API_KEY", "from_host": "OPENAI_API_KEY", "file": "c.yml", "line": 4}],
	}]}
}

# A Codex image's login token and NVIDIA NIM's key are model credentials.
test_codex_login_and_nim_key_are_model_keys if {
	inp := {"workloads": [{
		"source": "compose", "name": "codex", "judged": true,
		"env": [
			{"name": "CODEX_ACCESS_TOKEN", "from_host": "CODEX_ACCESS_TOKEN", "sensitive_name": true, "file": "c.yml", "line": 4},
			{"name": "NVIDIA_API_KEY", "from_host": "NVIDIA_API_KEY", "sensitive_name": true, "file": "c.yml", "line": 5},
		],
	}]}
	count(agent_model_key_forwarded.deny) == 2 with input as inp
	count(host_secret_forwarded.deny) == 0 with input as inp
}

# The names projects give an Anthropic key (CLAUDE_API_KEY) and OpenHands'
# model key (LLM_API_KEY) are model credentials, not other host secrets.
test_claude_and_llm_keys_are_model_keys if {
	inp := {"workloads": [{
		"source": "compose", "name": "agent", "judged": true,
		"env": [
			{"name": "CLAUDE_API_KEY", "from_host": "CLAUDE_API_KEY", "sensitive_name": true, "file": "c.yml", "line": 4},
			{"name": "LLM_API_KEY", "from_host": "LLM_API_KEY", "sensitive_name": true, "file": "c.yml", "line": 5},
		],
	}]}
	count(agent_model_key_forwarded.deny) == 2 with input as inp
	count(host_secret_forwarded.deny) == 0 with input as inp
}

# Other model providers' keys, as an app that lets the user pick the model
# names them.
test_other_providers_are_model_keys if {
	inp := {"workloads": [{
		"source": "compose", "name": "webui", "judged": true,
		"env": [
			{"name": "ALIBABA_API_KEY", "from_host": "ALIBABA_API_KEY", "sensitive_name": true, "file": "c.yml", "line": 4},
			{"name": "moonshot_api_key", "from_host": "MOONSHOT_API_KEY", "sensitive_name": true, "file": "c.yml", "line": 5},
			{"name": "STRIPE_API_KEY", "from_host": "STRIPE_API_KEY", "sensitive_name": true, "file": "c.yml", "line": 6},
		],
	}]}
	count(agent_model_key_forwarded.deny) == 2 with input as inp
	{f.line | some f in host_secret_forwarded.deny with input as inp} == {6}
}
