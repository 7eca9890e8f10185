// Package corpus generates a deterministic tree of mixed sandbox
// configuration files for benchmarks: Dockerfiles, compose files, Kubernetes
// manifests, devcontainer.json, agent workflows, Claude Code, Codex and Gemini
// settings, MCP configs and git configs, insecure and hardened variants.
package corpus

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
)

type tmpl struct {
	path string
	body func(r *rand.Rand, i int) string
}

var templates = []tmpl{
	{"Dockerfile", func(r *rand.Rand, i int) string {
		if r.IntN(2) == 0 {
			return fmt.Sprintf("FROM node:%d\nRUN curl -fsSL https://example.com/install-%d.sh | bash\nENV API_TOKEN=\"\"\nRUN npm ci\nCMD [\"node\", \"server.js\"]\n", 18+r.IntN(4), i)
		}
		return fmt.Sprintf("FROM golang:1.26@sha256:%064x AS build\nWORKDIR /src\nCOPY . .\nRUN go build -o /app ./cmd/app%d\nFROM gcr.io/distroless/static@sha256:%064x\nUSER 65532:65532\nCOPY --from=build /app /app\nENTRYPOINT [\"/app\"]\n", i, i, i+1)
	}},
	{"docker-compose.yml", func(r *rand.Rand, i int) string {
		return fmt.Sprintf(`services:
  agent%d:
    image: ghcr.io/example/agent:%d
    privileged: %t
    network_mode: %s
    volumes:
      - /var/run/docker.sock:/var/run/docker.sock
      - agent-home:/home/agent
    environment:
      - GITHUB_TOKEN=${GITHUB_TOKEN}
      - LOG_LEVEL=debug
    cap_add: [NET_ADMIN]
    restart: always
  db:
    image: postgres:16
    ports: ["5432:5432"]
volumes:
  agent-home: {}
`, i, r.IntN(9), r.IntN(2) == 0, []string{"host", "bridge"}[r.IntN(2)])
	}},
	{"k8s/pod.yaml", func(r *rand.Rand, i int) string {
		return fmt.Sprintf(`apiVersion: v1
kind: Pod
metadata:
  name: agent-%d
  labels: {app: agent}
spec:
  hostNetwork: %t
  containers:
    - name: agent
      image: ghcr.io/example/agent:1.%d
      securityContext:
        privileged: %t
        capabilities:
          add: ["SYS_ADMIN"]
      volumeMounts:
        - {name: sock, mountPath: /var/run/docker.sock}
      env:
        - name: API_KEY
          valueFrom: {secretKeyRef: {name: agent, key: api-key}}
  volumes:
    - name: sock
      hostPath: {path: /var/run/docker.sock}
`, i, r.IntN(2) == 0, i, r.IntN(2) == 0)
	}},
	{"k8s/hardened.yaml", func(r *rand.Rand, i int) string {
		return fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: sandbox-%d, namespace: agents}
spec:
  template:
    metadata: {labels: {app: sandbox}}
    spec:
      runtimeClassName: gvisor
      automountServiceAccountToken: false
      securityContext: {runAsNonRoot: true, seccompProfile: {type: RuntimeDefault}}
      containers:
        - name: sandbox
          image: ghcr.io/example/sandbox@sha256:%064x
          securityContext:
            allowPrivilegeEscalation: false
            readOnlyRootFilesystem: true
            capabilities: {drop: ["ALL"]}
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: deny-egress-%d, namespace: agents}
spec:
  podSelector: {matchLabels: {app: sandbox}}
  policyTypes: [Egress]
  egress:
    - to: [{namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: kube-system}}}]
      ports: [{protocol: UDP, port: 53}]
`, i, i, i)
	}},
	{".devcontainer/devcontainer.json", func(r *rand.Rand, i int) string {
		return fmt.Sprintf(`// devcontainer %d
{
  "image": "mcr.microsoft.com/devcontainers/base:%d",
  "features": {"ghcr.io/devcontainers/features/docker-outside-of-docker:1": {}},
  "runArgs": ["--cap-add=SYS_PTRACE"],
  "containerEnv": {"GH_TOKEN": "${localEnv:GH_TOKEN}"},
  "initializeCommand": "echo setup",
  "forwardPorts": [8080],
}
`, i, r.IntN(4))
	}},
	{".github/workflows/agent.yml", func(r *rand.Rand, i int) string {
		return fmt.Sprintf(`name: agent-%d
on: [pull_request_target, issue_comment]
permissions: write-all
jobs:
  agent:
    runs-on: %s
    steps:
      - uses: actions/checkout@v4
      - uses: anthropics/claude-code-action@v1
        with:
          anthropic_api_key: ${{ secrets.ANTHROPIC_API_KEY }}
          allowed_bots: "*"
      - run: gh pr merge --auto --squash
`, i, []string{"ubuntu-latest", "self-hosted"}[r.IntN(2)])
	}},
	{".claude/settings.json", func(r *rand.Rand, i int) string {
		return fmt.Sprintf(`{
  "permissions": {"defaultMode": "%s", "allow": ["Bash(git push:*)", "Bash(npm test:*)"], "deny": ["Read(./.env)"]},
  "sandbox": {"enabled": %t, "network": {"allowedDomains": ["registry.npmjs.org"]}},
  "env": {"BUILD_ID": "%d"}
}
`, []string{"bypassPermissions", "default", "acceptEdits"}[r.IntN(3)], r.IntN(2) == 0, i)
	}},
	{".codex/config.toml", func(r *rand.Rand, i int) string {
		return fmt.Sprintf(`sandbox_mode = "%s"
approval_policy = "%s"

[shell_environment_policy]
inherit = "all"

[mcp_servers.fs%d]
command = "npx"
args = ["-y", "@modelcontextprotocol/server-filesystem"]
`, []string{"danger-full-access", "workspace-write", "read-only"}[r.IntN(3)], []string{"never", "on-request"}[r.IntN(2)], i)
	}},
	{".mcp.json", func(r *rand.Rand, i int) string {
		return fmt.Sprintf(`{"mcpServers": {
  "github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github@%d.0.0"], "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "${GITHUB_TOKEN}"}},
  "remote": {"type": "http", "url": "http://mcp.example.com/%d"}
}}
`, r.IntN(3), i)
	}},
	{".gemini/settings.json", func(r *rand.Rand, i int) string {
		return fmt.Sprintf(`{"tools": {"sandbox": %t}, "general": {"defaultApprovalMode": "%s"}}
`, r.IntN(2) == 0, []string{"yolo", "default"}[r.IntN(2)])
	}},
}

// Generate writes n files into dir, spread over repositories of one file of
// each kind, deterministically for a seed.
func Generate(dir string, n int, seed uint64) error {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	for i := 0; i < n; i++ {
		t := templates[i%len(templates)]
		repo := fmt.Sprintf("repo-%04d", i/len(templates))
		p := filepath.Join(dir, repo, filepath.FromSlash(t.path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("generate corpus: %w", err)
		}
		if err := os.WriteFile(p, []byte(t.body(r, i)), 0o644); err != nil {
			return fmt.Errorf("generate corpus: %w", err)
		}
		if i%len(templates) == 0 {
			if err := gitDir(filepath.Join(dir, repo), repo); err != nil {
				return fmt.Errorf("generate corpus: %w", err)
			}
		}
	}
	return nil
}

// gitDir gives a repository the .git directory a checkout has: its HEAD
// and a config naming the remote (nothing a rule reports), so a tree of
// repositories reads as a fleet checked out side by side.
func gitDir(repo, name string) error {
	g := filepath.Join(repo, ".git")
	if err := os.MkdirAll(g, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(g, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
		return err
	}
	cfg := "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n" +
		"[remote \"origin\"]\n\turl = https://github.com/example/" + name + ".git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n" +
		"[branch \"main\"]\n\tremote = origin\n\tmerge = refs/heads/main\n"
	return os.WriteFile(filepath.Join(g, "config"), []byte(cfg), 0o644)
}
