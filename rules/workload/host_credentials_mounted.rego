# METADATA
# title: Host credential store mounted into the sandbox
# description: |
#   Mounting the host user's ~/.ssh, ~/.aws, ~/.config/gh, ~/.kube, ~/.docker,
#   ~/.gnupg, ~/.azure, ~/.config/gcloud, ~/.netrc, ~/.git-credentials, ~/.npmrc,
#   ~/.pypirc (or an agent's own login file, or the SSH agent socket) gives the
#   agent the developer's long-lived, broadly scoped credentials: everything the
#   developer can push, deploy or read, the agent can too, and a prompt
#   injection can send them anywhere the network allows. A mount of a parent
#   (the whole home directory, ~/.config) counts, since it holds them.
#   Sources are recognised as ~/…, ${localEnv:HOME}/…, ${HOME}/…, $HOME/…,
#   /home/<user>/…, /root/… and /Users/<user>/…. A host path of another place
#   (the repository's ./secrets/.ssh) mounted where the container's tools
#   read credentials (/home/node/.ssh, /root/.config/gh) counts as well.
# related_resources:
#   - ref: https://containers.dev/implementors/json_reference/
#     description: Dev Container metadata reference — mounts and ${localEnv} variables
#   - ref: https://docs.docker.com/engine/storage/bind-mounts/
#     description: Docker — bind mounts expose host files to the container
#   - ref: https://cheatsheetseries.owasp.org/cheatsheets/Secrets_Management_Cheat_Sheet.html
#     description: OWASP Secrets Management Cheat Sheet — least privilege and short-lived credentials
#   - ref: https://docs.github.com/en/authentication/keeping-your-account-and-data-secure/managing-your-personal-access-tokens
#     description: GitHub — prefer fine-grained, expiring tokens scoped to one repository
# custom:
#   id: host-credentials-mounted
#   property: credentials
#   severity: high
#   remediation: Remove the mount. Give the sandbox its own narrowly scoped, short-lived credential (a fine-grained token for one repository, a GitHub App installation token, OIDC federation to the cloud) injected for the task, preferably through a proxy the agent cannot read.
package rules.host_credentials_mounted

import data.lib.sa
import data.lib.workload as wl

# stores: credential files and directories, relative to a home directory.
stores := {
	".ssh": "SSH keys",
	".aws": "AWS credentials",
	".azure": "Azure credentials",
	".config/gcloud": "Google Cloud credentials",
	".kube": "Kubernetes credentials",
	".docker": "registry credentials",
	".gnupg": "GPG keys",
	".config/gh": "GitHub CLI token",
	".config/hub": "hub GitHub token",
	".netrc": ".netrc passwords",
	".git-credentials": "git stored credentials",
	".npmrc": "npm token",
	".pypirc": "PyPI token",
	".cargo/credentials": "crates.io token",
	".cargo/credentials.toml": "crates.io token",
	".terraform.d/credentials.tfrc.json": "Terraform Cloud token",
	".codex/auth.json": "Codex login",
	".claude/.credentials.json": "Claude Code login",
	".claude.json": "Claude Code account file (its API key when logged in with one)",
	".gemini/oauth_creds.json": "Gemini CLI login",
	".local/share/opencode/auth.json": "opencode login",
	".config/github-copilot": "GitHub Copilot token",
}

home_rest(src) := wl.home_rest(src)

# held(rest) is the set of credential stores a mount of ~/rest exposes: the
# store itself, a file inside it, or a parent directory holding it.
held(rest) := {label |
	some path, label in stores
	covers(rest, path)
	not public(rest)
}

# public(rest): a file of ~/.ssh that holds no secret: the hosts it trusts,
# the keys it lets in, a public key.
public(rest) if {
	startswith(rest, ".ssh/")
	name := trim_prefix(rest, ".ssh/")
	not contains(name, "/")
	_public_name(name)
}

_public_name(name) if name in {"known_hosts", "known_hosts.old", "authorized_keys", "authorized_keys2"}

_public_name(name) if endswith(name, ".pub")

covers("", _) := true

covers(rest, path) if rest == path

covers(rest, path) if startswith(rest, concat("", [path, "/"]))

covers(rest, path) if {
	rest != ""
	startswith(path, concat("", [rest, "/"]))
}

describe("", _) := "the whole home directory: SSH keys, cloud, registry and git credentials"

describe(rest, labels) := concat(", ", sort(labels)) if rest != ""

host_mount(m) if wl.host_mount(m)

deny contains f if {
	some [i, j], rest in wl.home_mounts
	w := input.workloads[i]
	m := w.mounts[j]
	labels := held(rest)
	count(labels) > 0
	what := describe(rest, labels)
	f := sa.finding(
		rego.metadata.chain(), m,
		sprintf("%s mounts the host's %s (%s) at %s", [wl.label(w), m.source, what, object.get(m, "target", "?")]),
	)
}

deny contains f if {
	some w in wl.judged_workloads
	some m in w.mounts
	host_mount(m)
	trim_suffix(regex.replace(m.source, "/+", "/"), "/") in {"/home", "/Users"}
	f := sa.finding(
		rego.metadata.chain(), m,
		sprintf("%s mounts every user's home directory %s (SSH keys, cloud and registry credentials) at %s", [wl.label(w), m.source, object.get(m, "target", "?")]),
	)
}

# A forwarded SSH agent signs as the developer for as long as the task runs.
deny contains f if {
	some w in wl.judged_workloads
	some m in w.mounts
	host_mount(m)
	regex.match(`(?i)ssh[-_]auth[-_.]sock|/ssh-agent|agent\.[0-9]+$`, m.source)
	f := sa.finding(
		rego.metadata.chain(), m,
		sprintf("%s mounts the host's SSH agent socket %s at %s", [wl.label(w), m.source, object.get(m, "target", "?")]),
	)
}

# A host directory of another place (the repository's ./secrets/.ssh)
# mounted where a tool in the container reads its credentials
# (/home/node/.ssh, /root/.config/gh): the files it holds are credentials
# the agent reads.
deny contains f if {
	some i, w in input.workloads
	wl.judged(w)
	some j, m in w.mounts
	host_mount(m)
	not wl.home_mounts[[i, j]]
	rest := home_rest(object.get(m, "target", ""))
	rest != ""
	labels := held(rest) - own_state(m)
	count(labels) > 0
	f := sa.finding(
		rego.metadata.chain(), m,
		sprintf("%s mounts host path %s at %s, where the container's tools read %s: what the host keeps there is the agent's", [wl.label(w), m.source, m.target, describe(rest, labels)]),
	)
}

# agent_logins are the stores an agent CLI writes itself when it logs in.
agent_logins := {label | some path, label in stores; path in {
	".codex/auth.json", ".claude/.credentials.json", ".claude.json",
	".gemini/oauth_creds.json", ".local/share/opencode/auth.json",
}}

# own_state(m): a folder of the repository (./.agent-home/.claude) kept for
# the agent's state holds only the login the agent itself makes there, not
# one of the host's: its persistence is the finding, not a host credential.
own_state(m) := agent_logins if {
	src := object.get(m, "source", "")
	not startswith(src, "/")
	not startswith(src, "~")
	not startswith(src, "$")
	not contains(src, "..")
} else := set()
