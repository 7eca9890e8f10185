package rules.agent_secret_reads_allowed_test

import data.rules.agent_secret_reads_allowed

settings := ".claude/settings.json"

test_bypass_without_denies_fires if {
	fs := agent_secret_reads_allowed.deny with input as {"agents": [{
		"tool": "claude-code", "scope": "project", "profile": "", "file": settings, "line": 1,
		"approval_mode": {"value": "bypass", "file": settings, "line": 3},
		"allow": [], "ask": [],
		"deny": [{"value": "Read(./.env)", "file": settings, "line": 6}],
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "agent-secret-reads-allowed"
	f.severity == "medium"
	f.property == "credentials"
	f.file == settings
	f.line == 3
	contains(f.message, "~/.aws, ~/.ssh")
	not contains(f.message, ".env")
}

test_broad_read_allow_fires if {
	fs := agent_secret_reads_allowed.deny with input as {"agents": [{
		"tool": "claude-code", "scope": "project", "profile": "", "file": settings, "line": 1,
		"allow": [{"value": "Read(./**)", "file": settings, "line": 4}, {"value": "Read(~/**)", "file": settings, "line": 5}],
		"deny": [], "ask": [],
	}]}
	count(fs) == 1
	some f in fs
	f.line == 5
}

test_denies_in_managed_settings_quiet if {
	count(agent_secret_reads_allowed.deny) == 0 with input as {"agents": [
		{
			"tool": "claude-code", "scope": "project", "profile": "", "file": settings, "line": 1,
			"approval_mode": {"value": "bypass", "file": settings, "line": 3},
		},
		{
			"tool": "claude-code", "scope": "managed", "profile": "", "file": "etc/claude-code/managed-settings.json", "line": 1,
			"deny": [
				{"value": "Read(**/.env*)", "file": "etc/claude-code/managed-settings.json", "line": 4},
				{"value": "Read(~/.aws/**)", "file": "etc/claude-code/managed-settings.json", "line": 5},
				{"value": "Read(//home/**/.ssh/**)", "file": "etc/claude-code/managed-settings.json", "line": 6},
			],
		},
	]}
}

test_sandbox_on_quiet if {
	count(agent_secret_reads_allowed.deny) == 0 with input as {"agents": [{
		"tool": "claude-code", "scope": "project", "profile": "", "file": settings, "line": 1,
		"approval_mode": {"value": "bypass", "file": settings, "line": 3},
		"sandbox_enabled": {"value": true, "file": settings, "line": 8},
	}]}
}

test_default_mode_quiet if {
	count(agent_secret_reads_allowed.deny) == 0 with input as {"agents": [{
		"tool": "claude-code", "scope": "project", "profile": "", "file": settings, "line": 1,
		"approval_mode": {"value": "default", "file": settings, "line": 3},
		"allow": [{"value": "Read(./src/**)", "file": settings, "line": 4}],
	}]}
}

test_malformed_patterns_do_not_error if {
	fs := agent_secret_reads_allowed.deny with input as {"agents": [{
		"tool": "claude-code", "scope": "project", "profile": "", "file": settings, "line": 1,
		"approval_mode": {"value": "bypass", "file": settings, "line": 3},
		"deny": [{"value": "Read(src/[)", "file": settings, "line": 6}, {"value": "Read(", "file": settings, "line": 7}, {"value": 5, "file": settings, "line": 8}],
	}]}
	count(fs) == 1
}

test_empty_input_quiet if {
	count(agent_secret_reads_allowed.deny) == 0 with input as {}
}

test_workflow_step_quiet if {
	count(agent_secret_reads_allowed.deny) == 0 with input as {"agents": [{
		"tool": "claude-code", "scope": "workflow", "context": `workflow "Fix" job "fix"`,
		"file": ".github/workflows/fix.yml", "line": 30,
		"approval_mode": {"value": "bypass", "file": ".github/workflows/fix.yml", "line": 33},
		"allow": [{"value": "Read", "file": ".github/workflows/fix.yml", "line": 34}],
	}]}
}

bash_agent(allow, deny) := {"agents": [{
	"tool": "claude-code", "scope": "project", "profile": "", "file": settings, "line": 1,
	"allow": [{"value": v, "file": settings, "line": 4 + i} | some i, v in allow],
	"deny": [{"value": v, "file": settings, "line": 20 + i} | some i, v in deny], "ask": [],
}]}

test_bash_readers_fire_once_per_file if {
	fs := agent_secret_reads_allowed.deny with input as bash_agent(["Bash(npm test:*)", "Bash(cat:*)", "Bash(grep -r:*)"], [])
	count(fs) == 1
	some f in fs
	f.line == 5
	contains(f.message, "allows \"Bash(cat:*)\", \"Bash(grep -r:*)\" without a prompt and no Bash deny or ask rule covers .env, ~/.aws, ~/.ssh")
}

# Read deny rules guard Claude's file tools, not cat in Bash.
test_read_deny_does_not_hold_back_cat if {
	fs := agent_secret_reads_allowed.deny with input as bash_agent(["Bash(cat:*)"], ["Read(~/.aws/**)", "Read(./.env)", "Read(~/.ssh/**)"])
	count(fs) == 1
}

test_bash_deny_holds_back if {
	fs := agent_secret_reads_allowed.deny with input as bash_agent(["Bash(cat:*)"], ["Bash(cat ~/.aws:*)"])
	some f in fs
	not contains(f.message, "~/.aws")
	contains(f.message, ".env, ~/.ssh")
	gs := agent_secret_reads_allowed.deny with input as bash_agent(["Bash(cat:*)"], ["Bash(cat:*)"])
	count(gs) == 0
}

test_printenv_and_kubectl_get if {
	fs := agent_secret_reads_allowed.deny with input as bash_agent(["Bash(printenv:*)", "Bash(kubectl get:*)"], [])
	some f in fs
	contains(f.message, "the cluster's Secrets, the environment's secrets")
}

test_scoped_readers_quiet if {
	fs := agent_secret_reads_allowed.deny with input as bash_agent(["Bash(cat package.json)", "Bash(ls:*)", "Bash(git status:*)", "Bash(wc -l:*)"], [])
	count(fs) == 0
}

container_rules(allow, deny) := {"agents": [{
	"tool": "claude-code", "scope": "project", "profile": "", "file": settings, "line": 1,
	"allow": [{"value": v, "file": settings, "line": 4} | some v in allow], "ask": [],
	"deny": [{"value": v, "file": settings, "line": 9} | some v in deny],
}]}

# docker inspect on any container prints other services' secrets; a scoped
# or held-back rule, and other docker commands (logs), are quiet.
test_container_readers_fire if {
	fs := agent_secret_reads_allowed.deny with input as container_rules(["Bash(docker inspect:*)", "Bash(podman container inspect:*)", "Bash(docker logs:*)"], [])
	count(fs) == 2
	some f in fs
	contains(f.message, "allows \"Bash(docker inspect:*)\" without a prompt: docker inspect prints any container's environment")
	count(agent_secret_reads_allowed.deny) == 0 with input as container_rules(["Bash(docker ps:*)", "Bash(docker inspect myapp)"], [])
	count(agent_secret_reads_allowed.deny) == 0 with input as container_rules(["Bash(docker inspect:*)"], ["Bash(docker inspect:*)"])
}

# acceptEdits approves edits, not reads outside the project: quiet.
test_accept_edits_quiet if {
	count(agent_secret_reads_allowed.deny) == 0 with input as {"agents": [{
		"tool": "claude-code", "scope": "project", "profile": "", "file": settings, "line": 1,
		"approval_mode": {"value": "auto", "file": settings, "line": 3},
	}]}
}

# A home directory written out is every file in it, ~/.aws too.
test_home_written_out_fires if {
	every r in ["Read(//Users/dev/**)", "Read(//home/dev/**)"] {
		fs := agent_secret_reads_allowed.deny with input as {"agents": [{
			"tool": "claude-code", "scope": "project", "profile": "", "file": settings, "line": 1,
			"allow": [{"value": r, "file": settings, "line": 4}],
		}]}
		count(fs) == 1
	}
	count(agent_secret_reads_allowed.deny) == 0 with input as {"agents": [{
		"tool": "claude-code", "scope": "project", "profile": "", "file": settings, "line": 1,
		"allow": [{"value": "Read(//Users/dev/src/**)", "file": settings, "line": 4}],
	}]}
}

# gh auth token prints the GitHub CLI's token.
test_gh_auth_fires if {
	every r in ["Bash(gh auth:*)", "Bash(gh auth *)", "Bash(gh:*)", "Bash(gh auth token)"] {
		fs := agent_secret_reads_allowed.deny with input as {"agents": [{
			"tool": "claude-code", "scope": "project", "profile": "", "file": settings, "line": 1,
			"allow": [{"value": r, "file": settings, "line": 4}],
		}]}
		some f in fs
		contains(f.message, "the GitHub CLI's token (gh auth token)")
	}
	count(agent_secret_reads_allowed.deny) == 0 with input as {"agents": [{
		"tool": "claude-code", "scope": "project", "profile": "", "file": settings, "line": 1,
		"allow": [{"value": "Bash(gh pr view:*)", "file": settings, "line": 4}, {"value": "Bash(gh auth status)", "file": settings, "line": 5}],
	}]}
	count(agent_secret_reads_allowed.deny) == 0 with input as {"agents": [{
		"tool": "claude-code", "scope": "project", "profile": "", "file": settings, "line": 1,
		"allow": [{"value": "Bash(gh auth:*)", "file": settings, "line": 4}],
		"deny": [{"value": "Bash(gh auth token:*)", "file": settings, "line": 5}],
	}]}
}

# PowerShell's readers (Get-Content and its alias gc), in any case.
test_powershell_readers_fire if {
	fs := agent_secret_reads_allowed.deny with input as bash_agent(["PowerShell(Get-Content *)", "PowerShell(gc:*)"], [])
	count(fs) == 1
	gs := agent_secret_reads_allowed.deny with input as bash_agent(["PowerShell(Get-ChildItem *)"], [])
	count(gs) == 0
}

# OpenCode: external_directory and a read rule for .env, as the collector
# names them; its defaults (no such allow) stay quiet.
test_opencode_reads if {
	fs := agent_secret_reads_allowed.deny with input as {"agents": [{
		"tool": "opencode", "scope": "project", "file": "opencode.json", "line": 1,
		"allow": [{"value": "edit", "file": "opencode.json", "line": 1}, {"value": "external_directory", "file": "opencode.json", "line": 4}, {"value": "read(.env)", "file": "opencode.json", "line": 5}],
	}]}
	count(fs) == 1
	some f in fs
	f.line == 4
	contains(f.message, `allows "external_directory", "read(.env)" without a prompt: the agent can read any file outside the project`)
	count(agent_secret_reads_allowed.deny) == 0 with input as {"agents": [{
		"tool": "opencode", "scope": "project", "file": "opencode.json", "line": 1,
		"allow": [{"value": "edit", "file": "opencode.json", "line": 1}, {"value": "bash(cat *)", "file": "opencode.json", "line": 3}],
		"approval_mode": {"value": "bypass", "file": "opencode.json", "line": 1},
	}]}
}

# OpenCode's bash readers: printenv prints the environment; cat reaches the
# project's .env, and ~/.aws and ~/.ssh only with external_directory allowed.
test_opencode_bash_readers if {
	fs := agent_secret_reads_allowed.deny with input as {"agents": [{
		"tool": "opencode", "scope": "project", "file": "opencode.json", "line": 1,
		"allow": [{"value": "bash(printenv*)", "file": "opencode.json", "line": 3}, {"value": "bash(cat *)", "file": "opencode.json", "line": 4}],
	}]}
	some f in fs
	contains(f.message, "covers .env, the environment's secrets:")
	gs := agent_secret_reads_allowed.deny with input as {"agents": [{
		"tool": "opencode", "scope": "project", "file": "opencode.json", "line": 1,
		"allow": [{"value": "bash(cat *)", "file": "opencode.json", "line": 4}, {"value": "external_directory", "file": "opencode.json", "line": 5}],
	}]}
	some g in gs
	contains(g.message, ".env, ~/.aws, ~/.ssh")
}

# Qwen Code takes Claude's Read and Bash rules: a home directory written out
# and Windows' findstr read credentials as they do for Claude.
test_qwen_reads if {
	fs := agent_secret_reads_allowed.deny with input as {"agents": [{
		"tool": "qwen", "scope": "project", "file": ".qwen/settings.json", "line": 1,
		"allow": [{"value": "Read(//home/dev/**)", "file": ".qwen/settings.json", "line": 3}],
	}]}
	count(fs) == 1
	gs := agent_secret_reads_allowed.deny with input as {"agents": [{
		"tool": "qwen", "scope": "project", "file": ".qwen/settings.json", "line": 1,
		"allow": [{"value": "Bash(findstr *)", "file": ".qwen/settings.json", "line": 3}],
	}]}
	count(gs) == 1
	count(agent_secret_reads_allowed.deny) == 0 with input as {"agents": [{
		"tool": "qwen", "scope": "project", "file": ".qwen/settings.json", "line": 1,
		"sandbox_enabled": {"value": true, "file": ".qwen/settings.json", "line": 2},
		"allow": [{"value": "Read(//home/dev/**)", "file": ".qwen/settings.json", "line": 3}],
	}]}
}

# The Cursor CLI's Shell(cat) runs cat on any path unasked; a Shell deny
# rule holds it back.
test_cursor_shell_readers if {
	count(agent_secret_reads_allowed.deny) == 1 with input as {"agents": [{
		"tool": "cursor", "scope": "project", "file": ".cursor/cli.json", "line": 1,
		"allow": [{"value": "Shell(cat)", "file": ".cursor/cli.json", "line": 3}],
	}]}
	count(agent_secret_reads_allowed.deny) == 0 with input as {"agents": [{
		"tool": "cursor", "scope": "project", "file": ".cursor/cli.json", "line": 1,
		"allow": [{"value": "Shell(cat)", "file": ".cursor/cli.json", "line": 3}],
		"deny": [{"value": "Shell(cat)", "file": ".cursor/cli.json", "line": 4}],
	}]}
}

# A reader on a file named for a credential, written out; bare env prints
# the environment.
one_rule(v) := {"agents": [{
	"tool": "claude-code", "scope": "project", "file": ".claude/settings.json", "line": 1,
	"allow": [{"value": v, "file": ".claude/settings.json", "line": 3}],
}]}

got(v) := fs if {
	fs := agent_secret_reads_allowed.deny with input as one_rule(v)
}

test_named_secret_file_and_bare_env if {
	count(got("Bash(cat /home/node/.linear-api-key)")) == 1
	count(got("Bash(cat .secrets/token.json)")) == 1
	count(got("Bash(cat ~/.ssh/id_ed25519)")) == 1
	count(got("Bash(cat README.md)")) == 0
	count(got("Bash(cat ~/.ssh/id_ed25519.pub)")) == 0
	count(got("Bash(head -5 docs/tokens.md)")) == 0
	count(got("Bash(env)")) == 1
}

# env with no command prints the whole environment, as printenv does: bare,
# with :* or a trailing glob, for every tool whose shell rules are read so
# (Gemini's run_shell_command(env) is judged in workflows, by
# workflow-agent-model-key-readable).
test_env_forms_fire if {
	every rule in ["Bash(env)", "Bash(env:*)", "Bash(env *)", "Bash(/usr/bin/env)"] {
		fs := agent_secret_reads_allowed.deny with input as bash_agent([rule], [])
		count(fs) == 1
		some f in fs
		contains(f.message, "the environment's secrets")
	}
	every c in [
		["cursor", ".cursor/cli.json", "Shell(env)"],
		["opencode", "opencode.json", "bash(env*)"],
		["qwen", ".qwen/settings.json", "Bash(env:*)"],
	] {
		fs := agent_secret_reads_allowed.deny with input as {"agents": [{
			"tool": c[0], "scope": "project", "profile": "", "file": c[1], "line": 1,
			"allow": [{"value": c[2], "file": c[1], "line": 3}], "deny": [], "ask": [],
		}]}
		some f in fs
		contains(f.message, "the environment's secrets")
	}
}

# env running a named command, or emptying the environment first, prints
# nothing of it
test_env_with_command_not_a_read if {
	fs := agent_secret_reads_allowed.deny with input as bash_agent(["Bash(env NODE_ENV=test npm test)", "Bash(env -i)"], [])
	count(fs) == 0
}

test_env_denied_quiet if {
	count(agent_secret_reads_allowed.deny) == 0 with input as bash_agent(["Bash(env:*)"], ["Bash(env:*)"])
}

# An agent a container's command starts reads that container: its mounts
# and environment are the workload rules' to judge.
test_in_container_quiet if {
	a := {
		"tool": "claude-code", "scope": "project", "profile": "", "file": "run.sh", "line": 3,
		"approval_mode": {"value": "bypass", "file": "run.sh", "line": 3}, "allow": [], "ask": [], "deny": [],
	}
	count(agent_secret_reads_allowed.deny) == 1 with input as {"agents": [a]}
	count(agent_secret_reads_allowed.deny) == 0 with input as {"agents": [object.union(a, {"workload": "compose:c.yml:agent"})]}
}
