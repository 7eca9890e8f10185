# METADATA
# title: Host home-directory state mounted read-write
# description: |
#   A read-write bind mount of a path in the host user's home directory
#   (~/…, ${localEnv:HOME}/…, $HOME/…, /home/<user>/…) lets the agent change
#   files that the developer's own tools read and run later, outside the
#   sandbox: Claude Code settings and hooks (~/.claude, ~/.claude.json), Codex and
#   Gemini configuration with their MCP server commands (~/.codex, ~/.gemini), git
#   configuration (core.fsmonitor, core.hooksPath and aliases run commands;
#   ~/.gitconfig, ~/.config/git), shell start-up files, ~/.config as a whole,
#   SSH config and authorized_keys, kubeconfig exec plugins, package-manager
#   configuration and caches (~/.npmrc, ~/.m2, ~/.gradle init scripts), editor
#   extensions and ~/.local/bin on the PATH. A planted line there runs on the host
#   with the developer's rights the next time the tool starts: a way out of the
#   sandbox that outlives the task. Read-only mounts are not reported here (the
#   credentials they expose are host-credentials-mounted's), nor is a project
#   checkout under the home directory (~/code/app, ~/projects/app): it is a
#   workspace, and workspace-hooks-writable speaks for it; nor a folder kept
#   for a sandbox's own state, named after the agent but not its folder
#   (~/.claudebox/claude-config): no tool of the host reads it.
# related_resources:
#   - ref: https://containers.dev/implementors/json_reference/
#     description: Dev Container metadata reference — mounts and ${localEnv:HOME}
#   - ref: https://docs.anthropic.com/en/docs/claude-code/hooks
#     description: Claude Code — hooks run shell commands from settings files
#   - ref: https://git-scm.com/docs/git-config#Documentation/git-config.txt-corefsmonitor
#     description: git-config — core.fsmonitor and other settings that run commands
#   - ref: https://docs.docker.com/engine/storage/bind-mounts/
#     description: Docker — bind mounts, read-only with readonly or :ro
# custom:
#   id: host-home-state-writable
#   property: disposable
#   severity: high
#   remediation: Mount the file read-only (readonly / :ro) or not at all; give the container its own copy (a named volume seeded from a template, COPY in the Dockerfile) so nothing the agent writes reaches the host's tools.
package rules.host_home_state_writable

import data.lib.sa
import data.lib.workload as wl

# states names what the host runs from each place in a home directory.
states := {
	".claude": "Claude Code settings and hooks",
	".claude.json": "Claude Code's MCP servers and project settings",
	".codex": "Codex configuration and its MCP server commands",
	".gemini": "Gemini CLI settings and its MCP server commands",
	".cursor": "Cursor settings and MCP servers",
	".vibe": "Mistral Vibe configuration, API key and MCP server commands",
	".qwen": "Qwen Code settings and its MCP server commands",
	".config/opencode": "opencode configuration and its MCP server commands",
	".config/goose": "goose configuration and its extensions' commands",
	".gitconfig": "git configuration (core.fsmonitor, hooksPath, aliases)",
	".config/git": "git configuration (core.fsmonitor, hooksPath, aliases)",
	".bashrc": "shell start-up files",
	".bash_profile": "shell start-up files",
	".profile": "shell start-up files",
	".zshrc": "shell start-up files",
	".zprofile": "shell start-up files",
	".zshenv": "shell start-up files",
	".config/fish": "shell start-up files",
	".ssh": "SSH config and authorized_keys",
	".kube": "kubeconfig exec plugins",
	".docker": "Docker client configuration and credential helpers",
	".npmrc": "npm configuration (script-shell, node-options)",
	".m2": "the Maven repository and settings",
	".gradle": "Gradle init scripts",
	".cargo": "Cargo configuration and installed programs",
	".vscode": "editor extensions and settings",
	".vscode-server": "editor extensions",
	".local/bin": "programs on the PATH",
	".config/autostart": "programs started at login",
	".config/systemd": "user services",
}

# held(rest) names the states a mount of ~/rest holds: the place itself, a
# file inside it, or a parent directory of it.
held(rest) := {label |
	some p, label in states
	_covers(rest, p)
}

_covers("", _) := true

_covers(rest, p) if rest == p

_covers(rest, p) if startswith(rest, concat("", [p, "/"]))

_covers(rest, p) if {
	rest != ""
	startswith(p, concat("", [rest, "/"]))
}

what(rest) := "the whole home directory: shell start-up files, git, SSH and agent configuration" if rest == ""

else := concat(", ", sort(held(rest))) if count(held(rest)) > 0

else := "files the host's tools read later"

# project_dirs are the folders of a home directory that hold checkouts:
# a project mounted from there is a workspace (workspace-hooks-writable's),
# not a tool's state, unless it is the dotfiles linked into the home.
project_dirs := {"code", "projects", "project", "src", "source", "work", "dev", "git", "github", "repos", "repositories", "workspace", "workspaces"}

_checkout(rest) if {
	parts := split(rest, "/")
	count(parts) > 1
	parts[0] in project_dirs
	not contains(rest, "dotfiles")
}

# _sandbox_state(rest): a folder of the home kept for a sandbox's own state
# (~/.claudebox/claude-config, ~/.codex-sandbox): named after the agent but
# not the agent's own folder, so no tool of the host reads it.
_sandbox_state(rest) if {
	first := split(rest, "/")[0]
	regex.match(`^\.[^/]*(claude|codex|gemini|qwen|agent|sandbox)`, first)
	count(held(first)) == 0
}

deny contains f if {
	some [i, j], rest in wl.home_mounts
	w := input.workloads[i]
	m := w.mounts[j]
	not m.read_only
	not _checkout(rest)
	not _sandbox_state(rest)
	f := sa.finding(
		rego.metadata.chain(), m,
		sprintf("%s mounts the host's %s read-write at %s: the agent can change %s, which run on the host outside the sandbox", [wl.label(w), m.source, object.get(m, "target", "?"), what(rest)]),
	)
}
