package rules.host_home_state_writable_test

import data.rules.host_home_state_writable

mount(src, ro) := {"type": "bind", "source": src, "target": "/home/node/x", "read_only": ro, "file": ".devcontainer/devcontainer.json", "line": 7}

dev(mounts) := {"workloads": [{"source": "devcontainer", "name": "dev", "mounts": mounts}]}

test_claude_dir_read_write_fires if {
	fs := host_home_state_writable.deny with input as dev([mount("${localEnv:HOME}/.claude", false)])
	count(fs) == 1
	some f in fs
	f.rule_id == "host-home-state-writable"
	f.severity == "high"
	f.line == 7
	contains(f.message, "mounts the host's ${localEnv:HOME}/.claude read-write at /home/node/x: the agent can change Claude Code settings and hooks, which run on the host")
}

test_each_form_fires if {
	fs := host_home_state_writable.deny with input as dev([
		mount("~/.gitconfig", false),
		mount("$HOME/.config", false),
		mount("/home/dev/.m2", false),
		mount("${localEnv:HOME}/projects", false),
		mount("${env:HOME}", false),
	])
	count(fs) == 5
	some f in fs
	contains(f.message, "$HOME/.config read-write")
	contains(f.message, "git configuration (core.fsmonitor, hooksPath, aliases)")
	some g in fs
	contains(g.message, "files the host's tools read later")
	some h in fs
	contains(h.message, "the whole home directory")
}

test_read_only_and_non_home_quiet if {
	fs := host_home_state_writable.deny with input as dev([
		mount("${localEnv:HOME}/.gitconfig", true),
		# project checkouts are workspaces
		mount("/home/dev/code/github/app", false),
		mount("~/projects/api", false),
		# a sandbox's own state folder, not the agent's
		mount("$HOME/.claudebox/claude-config", false),
		mount("~/.codex-sandbox/.codex", false),
		mount("${localWorkspaceFolder}", false),
		{"type": "volume", "source": "claude-config", "target": "/home/node/.claude"},
		mount("/var/cache/apt", false),
	])
	count(fs) == 0
}

# Other agents' home state: each is the host agent's configuration.
test_other_agents_state_fires if {
	fs := host_home_state_writable.deny with input as dev([
		mount("${HOME}/.vibe", false),
		mount("~/.qwen", false),
		mount("$HOME/.config/opencode", false),
		mount("${localEnv:HOME}/.config/goose", false),
	])
	count(fs) == 4
	some f in fs
	contains(f.message, "Mistral Vibe configuration, API key and MCP server commands")
}

# The dotfiles checkout is linked into the home: its shell files run there.
test_dotfiles_checkout_fires if {
	count(host_home_state_writable.deny) == 1 with input as dev([mount("/home/dev/code/dotfiles", false)])
}

# The agent's own folders stay reported, with any suffix after them.
test_agent_folder_not_sandbox_state if {
	count(host_home_state_writable.deny) == 2 with input as dev([mount("~/.claude/projects", false), mount("$HOME/.claude.json", false)])
}
