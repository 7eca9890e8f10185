package rules.agent_egress_command_allowed_test

import data.rules.agent_egress_command_allowed as r

f := ".claude/settings.local.json"

settings(allow, extra) := {"agents": [object.union({
	"tool": "claude-code", "scope": "local", "file": f, "line": 1,
	"allow": [{"value": v, "file": f, "line": 10 + i} | some i, v in allow],
}, extra)]}

test_curl_any_args_fires if {
	fs := r.deny with input as settings(["Bash(npm test:*)", "Bash(curl:*)"], {})
	count(fs) == 1
	some x in fs
	x.rule_id == "agent-egress-command-allowed"
	x.property == "network"
	x.severity == "medium"
	x.line == 11
	contains(x.message, `allows "Bash(curl:*)" without a prompt and no sandbox limits its network: curl sends`)
}

test_other_clients_and_paths_fire if {
	count(r.deny) == 3 with input as settings(["Bash(wget *)", "Bash(/usr/bin/nc:*)", "Bash(curl.exe:*)"], {})
}

# One URL, an ask rule, the sandbox on, a workflow's settings: quiet.
test_one_url_ask_sandbox_workflow_quiet if {
	count(r.deny) == 0 with input as settings(["Bash(curl -s http://localhost:3000/healthz)"], {})
	count(r.deny) == 0 with input as settings(["Bash(curl:*)"], {"ask": [{"value": "Bash(curl:*)", "file": f, "line": 20}]})
	count(r.deny) == 0 with input as settings(["Bash(curl:*)"], {"sandbox_enabled": {"value": true, "file": f, "line": 3}})
	count(r.deny) == 0 with input as settings(["Bash(curl:*)"], {"scope": "workflow"})
}

test_empty_input_quiet if {
	count(r.deny) == 0 with input as {}
}

test_every_command_and_every_fetch_fire if {
	every v in ["Bash", "Bash(*)", "WebFetch", "WebFetch(domain:*)"] {
		got := r.deny with input as {"agents": [{
			"tool": "claude-code", "scope": "project", "file": ".claude/settings.json", "line": 1,
			"allow": [{"value": v, "file": ".claude/settings.json", "line": 3}],
		}]}
		count(got) == 1
	}
	# the sandbox confines Bash, not WebFetch
	got := r.deny with input as {"agents": [{
		"tool": "claude-code", "scope": "project", "file": ".claude/settings.json", "line": 1,
		"sandbox_enabled": {"value": true, "file": ".claude/settings.json", "line": 5},
		"allow": [{"value": "Bash(*)", "file": ".claude/settings.json", "line": 3}, {"value": "WebFetch(domain:*)", "file": ".claude/settings.json", "line": 4}],
	}]}
	count(got) == 1
	some g in got
	g.line == 4
}

test_named_fetch_and_held_back_quiet if {
	count(r.deny) == 0 with input as {"agents": [{
		"tool": "claude-code", "scope": "project", "file": ".claude/settings.json", "line": 1,
		"allow": [{"value": "WebFetch(domain:docs.example.com)", "file": ".claude/settings.json", "line": 3}, {"value": "Bash(*)", "file": ".claude/settings.json", "line": 4}],
		"ask": [{"value": "Bash(curl:*)", "file": ".claude/settings.json", "line": 5}],
	}]}
}

# Claude Code's PowerShell tool: its web cmdlets and their aliases, in any
# case, and the bare tool; a single cmdlet that sends nothing stays quiet.
test_powershell_clients_fire if {
	count(r.deny) == 4 with input as settings(["PowerShell(Invoke-WebRequest *)", "PowerShell(iwr:*)", "PowerShell(INVOKE-RESTMETHOD *)", "PowerShell(curl *)"], {})
	count(r.deny) == 1 with input as settings(["PowerShell"], {})
	count(r.deny) == 0 with input as settings(["PowerShell(Get-ChildItem *)", "PowerShell(New-Item -ItemType Directory *)"], {})
	count(r.deny) == 0 with input as settings(["PowerShell(iwr:*)"], {"ask": [{"value": "PowerShell(Invoke-WebRequest *)", "file": f, "line": 20}], "deny": [{"value": "PowerShell(iwr *)", "file": f, "line": 21}]})
}

# OpenCode's bash rules, as the collector names them; OpenCode has no
# sandbox, so nothing confines them.
test_opencode_fires if {
	count(r.deny) == 2 with input as settings(["bash(curl *)", "bash"], {"tool": "opencode"})
	count(r.deny) == 0 with input as settings(["bash(curl https://example.com/health)", "edit"], {"tool": "opencode"})
}

# Qwen Code takes Claude's Bash rules; its sandbox does not hold the
# network, so the rule fires with it on.
test_qwen_fires_with_sandbox if {
	count(r.deny) == 1 with input as settings(["Bash(curl *)"], {"tool": "qwen", "sandbox_enabled": {"value": true, "file": f, "line": 3}})
}

cursor(allow, extra) := {"agents": [object.union({
	"tool": "cursor", "scope": "project", "file": ".cursor/cli.json", "line": 1,
	"allow": [{"value": v, "file": ".cursor/cli.json", "line": 4 + i} | some i, v in allow],
}, extra)]}

# The Cursor CLI's Shell rules match by command prefix: Shell(curl) and
# Shell(**) let curl reach any host unless Cursor's sandbox denies the
# network by default.
test_cursor_shell_rules_fire if {
	count(r.deny) == 1 with input as cursor(["Shell(ls)", "Shell(curl)"], {})
	count(r.deny) == 1 with input as cursor(["Shell(**)"], {})
	count(r.deny) == 1 with input as cursor(["Shell(curl)"], {"sandbox_enabled": {"value": true, "file": ".cursor/sandbox.json", "line": 2}})
	count(r.deny) == 0 with input as cursor(["Shell(curl)"], {
		"sandbox_enabled": {"value": true, "file": ".cursor/sandbox.json", "line": 2},
		"network_default": {"value": "deny", "file": ".cursor/sandbox.json", "line": 3},
	})
	count(r.deny) == 0 with input as cursor(["Shell(curl)"], {"deny": [{"value": "Shell(curl)", "file": ".cursor/cli.json", "line": 9}]})
}

# A wildcard among curl's arguments spans any text: any URL, any data. A
# rule that names the URL and leaves what follows open is read as meant for
# that host (not reported), as one for the exact URL is.
test_wildcard_argument_fires if {
	count(r.deny) == 1 with input as settings(["Bash(curl *vendor*)"], {})
	count(r.deny) == 1 with input as settings(["Bash(wget -q * -O -)"], {})
	count(r.deny) == 0 with input as settings(["Bash(curl -s https://api.example.com/*)"], {})
	count(r.deny) == 0 with input as settings(["Bash(curl -s https://api.example.com/health)"], {})
}
