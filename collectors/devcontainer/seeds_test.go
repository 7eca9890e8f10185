package devcontainer

// fuzzSeeds are devcontainer.json files shaped like real ones: an image or
// a Dockerfile build, a compose service, features, mounts in both forms,
// lifecycle commands as strings, arrays and objects, and JSONC.
var fuzzSeeds = []string{
	`// Agent sandbox for this repository.
{
  "name": "agent-sandbox",
  "build": {"dockerfile": "Dockerfile", "context": "..", "args": {"NODE_VERSION": "22"}},
  "runArgs": ["--cap-drop=ALL", "--security-opt=no-new-privileges", "--network=agent-net", "--read-only", "--tmpfs", "/tmp:rw,noexec"],
  "containerUser": "node",
  "remoteUser": "node",
  "mounts": [
    "source=claude-config-${devcontainerId},target=/home/node/.claude,type=volume",
    {"source": "${localWorkspaceFolder}/.git", "target": "/workspace/.git", "type": "bind", "readonly": true}
  ],
  "containerEnv": {"CLAUDE_CONFIG_DIR": "/home/node/.claude", "NODE_OPTIONS": "--max-old-space-size=4096"},
  "remoteEnv": {"GITHUB_TOKEN": "${localEnv:GITHUB_TOKEN}"},
  "features": {"ghcr.io/devcontainers/features/git:1": {"version": "latest"}},
  "postCreateCommand": "npm ci",
  "postStartCommand": {"firewall": ["sudo", "/usr/local/bin/init-firewall.sh"], "hooks": "git config core.hooksPath .githooks"},
  "customizations": {"vscode": {"extensions": ["anthropic.claude-code"]}},
}
`,
	`{
  "name": "dind",
  "image": "mcr.microsoft.com/devcontainers/base:ubuntu",
  "privileged": true,
  "capAdd": ["SYS_PTRACE", "NET_ADMIN"],
  "securityOpt": ["seccomp=unconfined"],
  "features": {"ghcr.io/devcontainers/features/docker-in-docker:2": {}, "ghcr.io/devcontainers/features/sshd:1": {}},
  "mounts": ["source=/var/run/docker.sock,target=/var/run/docker.sock,type=bind", "source=${localEnv:HOME}/.ssh,target=/home/vscode/.ssh,type=bind"],
  "initializeCommand": "docker network create agent-net || true",
  "forwardPorts": [3000, "db:5432"],
  "hostRequirements": {"cpus": 4}
}
`,
	`{"dockerComposeFile": ["../compose.yaml", "compose.override.yml"], "service": "agent", "runServices": ["agent", "proxy"], "workspaceFolder": "/workspace", "shutdownAction": "stopCompose", "overrideCommand": true}`,
	`{"image": 1, "runArgs": "--privileged", "mounts": [null, 2, {"type": []}], "containerEnv": [], "postCreateCommand": {"a": {"b": 1}}}`,
}
