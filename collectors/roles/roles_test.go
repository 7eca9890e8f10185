package roles

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/model"
)

func img(ref string) *model.Str { return &model.Str{Value: ref} }

// got is what a test checks of each workload after Assign.
type got struct {
	Role   string
	Judged bool
	Reason string
}

func assign(t *testing.T, doc *model.Document, sel []Selector) map[string]got {
	t.Helper()
	Assign(doc, sel, ".sandbox-audit.yaml")
	out := map[string]got{}
	for _, w := range doc.Workloads {
		out[w.ID] = got{w.Role, w.Judged, w.RoleReason}
	}
	return out
}

func TestAssign(t *testing.T) {
	compose := func(name, image string, cmds ...string) model.Workload {
		w := model.Workload{ID: "compose:c.yml:" + name, Source: "compose", Name: name, Loc: model.Loc{File: "c.yml"}, Networks: []string{"default"}}
		if image != "" {
			w.Image = img(image)
		}
		for _, c := range cmds {
			w.Commands = append(w.Commands, model.Command{Phase: "command", Text: c})
		}
		return w
	}
	k8s := func(kind, ns, name, ctr, image string) model.Workload {
		return model.Workload{ID: "k8s:" + kind + "/" + ns + "/" + name + "/" + ctr, Source: "kubernetes", Name: name + "/" + ctr, Namespace: ns, Image: img(image), Loc: model.Loc{File: "k.yaml"}}
	}
	// may is a Kubernetes workload whose service account holds grants.
	may := func(w model.Workload, sa string, grants ...model.Grant) model.Workload {
		w.ServiceAccount, w.ServiceAccountGrants = sa, grants
		return w
	}
	tests := []struct {
		name string
		doc  model.Document
		sel  []Selector
		want map[string]got
	}{
		{
			name: "an agent CLI command makes the agent's service; databases beside it are platform",
			doc: model.Document{Workloads: []model.Workload{
				compose("agent", "node:22", "npx -y @anthropic-ai/claude-code -p 'fix it'"),
				compose("db", "postgres:16"),
				compose("web", "myorg/web:1"),
				compose("tools", "myorg/tools:1"),
			}},
			want: map[string]got{
				"compose:c.yml:agent": {Agent, true, "it runs the claude-code agent (command)"},
				"compose:c.yml:db":    {Platform, false, "its image postgres is a database"},
				"compose:c.yml:web":   {Platform, false, "its name web says it is a platform service (web)"},
				"compose:c.yml:tools": {Unknown, false, "nothing marks it as the agent's, and agent is"},
			},
		},
		{
			name: "beside a container manager holding the runtime socket, unmarked services are the stack's, not the sandboxes",
			doc: model.Document{Workloads: []model.Workload{
				func() model.Workload {
					w := compose("container-manager", "")
					w.Mounts = []model.Mount{{Type: "bind", Source: "/var/run/docker.sock", Target: "/var/run/docker.sock"}}
					return w
				}(),
				compose("ai-service", ""),
				compose("db", "postgres:16"),
			}},
			want: map[string]got{
				"compose:c.yml:container-manager": {Platform, false, "its name container-manager says it is a platform service (manager)"},
				"compose:c.yml:ai-service":        {Unknown, false, "nothing marks it as the agent's, and container-manager starts containers through the host's runtime socket /var/run/docker.sock: the sandboxes are started at run time, not described here (name one in the policy file's sandboxes: to judge it)"},
				"compose:c.yml:db":                {Platform, false, "its image postgres is a database"},
			},
		},
		{
			name: "so does an operator holding the socket: a local test chain beside it is not the sandbox",
			doc: model.Document{Workloads: []model.Workload{
				func() model.Workload {
					w := compose("operator", "example/operator:1")
					w.Mounts = []model.Mount{{Type: "bind", Source: "/var/run/docker.sock", Target: "/var/run/docker.sock"}}
					return w
				}(),
				compose("chain", "example/devnet:latest"),
			}},
			want: map[string]got{
				"compose:c.yml:operator": {Platform, false, "its image example/operator is infrastructure (an operator)"},
				"compose:c.yml:chain":    {Unknown, false, "nothing marks it as the agent's, and operator starts containers through the host's runtime socket /var/run/docker.sock: the sandboxes are started at run time, not described here (name one in the policy file's sandboxes: to judge it)"},
			},
		},
		{
			name: "a reverse proxy reading the runtime socket starts no sandboxes: the unmarked app is still judged",
			doc: model.Document{Workloads: []model.Workload{
				func() model.Workload {
					w := compose("proxy", "traefik:v3")
					w.Mounts = []model.Mount{{Type: "bind", Source: "/var/run/docker.sock", Target: "/var/run/docker.sock", ReadOnly: true}}
					return w
				}(),
				compose("app", ""),
			}},
			want: map[string]got{
				"compose:c.yml:proxy": {Platform, false, "its image traefik is a proxy"},
				"compose:c.yml:app":   {Unknown, true, "no workload is known to be the agent's, so each is judged as if it were (name the sandbox in the policy file's sandboxes:)"},
			},
		},
		{
			name: "a service that names the image of the sandboxes it starts is a control plane",
			doc: model.Document{Workloads: []model.Workload{
				func() model.Workload {
					w := compose("app", "")
					w.Env = []model.EnvVar{{Name: "LOG_LEVEL"}, {Name: "SANDBOX_RUNTIME_CONTAINER_IMAGE"}}
					return w
				}(),
			}},
			want: map[string]got{
				"compose:c.yml:app": {Platform, false, "it starts the agent's sandboxes (SANDBOX_RUNTIME_CONTAINER_IMAGE): a control plane"},
			},
		},
		{
			name: "so is a code interpreter's service that names its executors' image, and its unmarked neighbours are not the sandboxes",
			doc: model.Document{Workloads: []model.Workload{
				func() model.Workload {
					w := compose("service", "")
					w.Env = []model.EnvVar{{Name: "APP_EXECUTOR_IMAGE"}}
					return w
				}(),
				compose("node", "example/app:1"),
			}},
			want: map[string]got{
				"compose:c.yml:service": {Platform, false, "it starts the agent's sandboxes (APP_EXECUTOR_IMAGE): a control plane"},
				"compose:c.yml:node":    {Unknown, false, "nothing marks it as the agent's, and service starts the sandboxes (it names their image in APP_EXECUTOR_IMAGE): the sandboxes are started at run time, not described here (name one in the policy file's sandboxes: to judge it)"},
			},
		},
		{
			name: "a service only a build profile starts is a build definition, even named sandbox; one behind another profile may run",
			doc: model.Document{Workloads: []model.Workload{
				func() model.Workload {
					w := compose("sandbox-image", "example/sandbox:1")
					w.Profiles = []model.Str{{Value: "build"}}
					return w
				}(),
				func() model.Workload {
					w := compose("agent-debug", "example/agent:1")
					w.Profiles = []model.Str{{Value: "build"}, {Value: "debug"}}
					return w
				}(),
			}},
			want: map[string]got{
				"compose:c.yml:sandbox-image": {Platform, false, "only the profile build starts it: a build definition (compose builds its image, the sandbox runs from it elsewhere)"},
				"compose:c.yml:agent-debug":   {Agent, true, "its name agent-debug says it is the agent's (agent)"},
			},
		},
		{
			name: "a container a script starts is the agent's when it runs an agent CLI or the script says sandbox; a linter's is a tool",
			doc: model.Document{Workloads: []model.Workload{
				{ID: "script:run.sh:3", Source: "script", Name: "example/box:1", Image: img("example/box:1"), Loc: model.Loc{File: "run.sh"},
					Commands: []model.Command{{Phase: "command", Text: "codex exec go"}}},
				{ID: "script:ci/lint.sh:2", Source: "script", Name: "hadolint/hadolint", Image: img("hadolint/hadolint"), Loc: model.Loc{File: "ci/lint.sh"}},
				{ID: "script:sandbox.sh:5", Source: "script", Name: "example/dev:1", Image: img("example/dev:1"), Loc: model.Loc{File: "sandbox.sh"}},
			}},
			want: map[string]got{
				"script:run.sh:3":     {Agent, true, "it runs the codex agent (command)"},
				"script:ci/lint.sh:2": {Platform, false, "a container a script starts that nothing marks as the agent's (no agent CLI, image or name): a tool the script runs"},
				"script:sandbox.sh:5": {Unknown, false, "nothing marks it as the agent's, and example/box:1 is"},
			},
		},
		{
			name: "an unmarked workload running the agent's own image is the agent's; one sharing an official base image is not",
			doc: model.Document{Workloads: []model.Workload{
				compose("agent", "ghcr.io/example/box:2", "claude -p go"),
				compose("local", "ghcr.io/example/box:2"),
				k8s("Deployment", "ai", "runner", "main", "ghcr.io/example/box:2"),
				compose("coder", "node:22", "codex exec x"),
				compose("worker", "node:22"),
			}},
			want: map[string]got{
				"compose:c.yml:agent":           {Agent, true, "it runs the claude-code agent (command)"},
				"compose:c.yml:local":           {Agent, true, "it runs ghcr.io/example/box:2, the image of the agent's agent"},
				"k8s:Deployment/ai/runner/main": {Agent, true, "it runs ghcr.io/example/box:2, the image of the agent's agent"},
				"compose:c.yml:coder":           {Agent, true, "it runs the codex agent (command)"},
				"compose:c.yml:worker":          {Unknown, false, "nothing marks it as the agent's, and agent is"},
			},
		},
		{
			name: "with no agent known, unknown workloads are judged and platform ones are not",
			doc: model.Document{Workloads: []model.Workload{
				compose("app", "myorg/app:1"),
				compose("cache", "docker.io/library/redis:7-alpine"),
			}},
			want: map[string]got{
				"compose:c.yml:app":   {Unknown, true, "no workload is known to be the agent's, so each is judged as if it were (name the sandbox in the policy file's sandboxes:)"},
				"compose:c.yml:cache": {Platform, false, "its image redis is a cache"},
			},
		},
		{
			name: "a claude --version healthcheck-like command does not run the agent",
			doc: model.Document{Workloads: []model.Workload{
				compose("tools", "node:22", "claude --version"),
				compose("other", "node:22"),
			}},
			want: map[string]got{
				"compose:c.yml:tools": {Unknown, true, "no workload is known to be the agent's, so each is judged as if it were (name the sandbox in the policy file's sandboxes:)"},
				"compose:c.yml:other": {Unknown, true, "no workload is known to be the agent's, so each is judged as if it were (name the sandbox in the policy file's sandboxes:)"},
			},
		},
		{
			name: "the policy file's sandboxes: decide, and what they do not name is platform",
			doc: model.Document{Workloads: []model.Workload{
				compose("worker", "myorg/worker:1"),
				compose("agent", "ghcr.io/x/claude-code:1"),
			}},
			sel: []Selector{{Name: "worker", Line: 4}},
			want: map[string]got{
				"compose:c.yml:worker": {Agent, true, "selected by the policy file (.sandbox-audit.yaml:4 sandboxes[0])"},
				"compose:c.yml:agent":  {Platform, false, "not one of the sandboxes the policy file names"},
			},
		},
		{
			name: "a platform-only selector leaves the other markers in force",
			doc: model.Document{Workloads: []model.Workload{
				compose("agent", "ghcr.io/x/claude-code:1"),
				compose("gateway", "myorg/llm-gw:1"),
			}},
			sel: []Selector{{File: "c.yml", Name: "gate*", Role: Platform}},
			want: map[string]got{
				"compose:c.yml:agent":   {Agent, true, "its image x/claude-code runs Claude Code"},
				"compose:c.yml:gateway": {Platform, false, "selected by the policy file (.sandbox-audit.yaml sandboxes[0])"},
			},
		},
		{
			name: "labels and annotations state the role",
			doc: model.Document{Workloads: []model.Workload{
				func() model.Workload {
					w := compose("runner", "myorg/runner:1")
					w.Labels = map[string]string{LabelKey: "agent"}
					return w
				}(),
				func() model.Workload {
					w := k8s("Deployment", "ai", "api", "main", "myorg/api:1")
					w.Annotations = map[string]string{LabelKey: "Platform"}
					return w
				}(),
			}},
			want: map[string]got{
				"compose:c.yml:runner":       {Agent, true, "labelled sandbox-audit/role=agent"},
				"k8s:Deployment/ai/api/main": {Platform, false, "labelled sandbox-audit/role=platform"},
			},
		},
		{
			name: "the compose service a devcontainer runs in is the agent's; its companions are not judged",
			doc: model.Document{Workloads: []model.Workload{
				{ID: "devcontainer:.devcontainer/devcontainer.json", Source: "devcontainer", Name: "app", Loc: model.Loc{File: ".devcontainer/devcontainer.json"},
					Compose: &model.ComposeRef{Files: []string{".devcontainer/compose.yml"}, Service: "app"}},
				{ID: "compose:.devcontainer/compose.yml:app", Source: "compose", Name: "app", Image: img("mcr.microsoft.com/devcontainers/base:ubuntu"), Loc: model.Loc{File: ".devcontainer/compose.yml"}},
				{ID: "compose:.devcontainer/compose.yml:side", Source: "compose", Name: "side", Image: img("myorg/side:1"), Loc: model.Loc{File: ".devcontainer/compose.yml"}},
				{ID: "compose:deploy/compose.yml:app", Source: "compose", Name: "app", Image: img("myorg/app:1"), Loc: model.Loc{File: "deploy/compose.yml"}},
			}},
			want: map[string]got{
				"devcontainer:.devcontainer/devcontainer.json": {Agent, true, "the devcontainer the agent works in"},
				"compose:.devcontainer/compose.yml:app":        {Agent, true, "the service .devcontainer/devcontainer.json runs in"},
				"compose:.devcontainer/compose.yml:side":       {Unknown, false, "nothing marks it as the agent's, and app is"},
				"compose:deploy/compose.yml:app":               {Unknown, false, "nothing marks it as the agent's, and app is"},
			},
		},
		{
			name: "a collector's role stands; the other containers of the agent's pod are the agent's; DaemonSets and kube-system are platform",
			doc: model.Document{Workloads: []model.Workload{
				func() model.Workload {
					w := k8s("Sandbox", "agents", "s1", "agent", "myorg/agent:1")
					w.Role, w.RoleReason = Agent, "agent-sandbox Sandbox CRD"
					return w
				}(),
				k8s("Sandbox", "agents", "s1", "proxy", "envoyproxy/envoy:v1.31"),
				k8s("DaemonSet", "infra", "tuner", "main", "myorg/tuner:1"),
				k8s("Deployment", "kube-system", "coredns", "coredns", "registry.k8s.io/coredns/coredns:v1.11"),
				k8s("Deployment", "sandbox-system", "ctl", "manager", "ghcr.io/x/agent-sandbox-controller:v0.1"),
			}},
			want: map[string]got{
				"k8s:Sandbox/agents/s1/agent":                {Agent, true, "agent-sandbox Sandbox CRD"},
				"k8s:Sandbox/agents/s1/proxy":                {Agent, true, "in the same pod as the agent's container s1/agent"},
				"k8s:DaemonSet/infra/tuner/main":             {Platform, false, "a DaemonSet runs node infrastructure, one pod per node"},
				"k8s:Deployment/kube-system/coredns/coredns": {Platform, false, "it runs in kube-system"},
				"k8s:Deployment/sandbox-system/ctl/manager":  {Platform, false, "its image x/agent-sandbox-controller is infrastructure (a controller)"},
			},
		},
		{
			name: "each repository of a multi-repository scan is judged on its own",
			doc: model.Document{
				Files: []model.File{{Path: "a/.git/config"}, {Path: "b/.git/config"}},
				Workloads: []model.Workload{
					{ID: "devcontainer:a/.devcontainer.json", Source: "devcontainer", Name: "a", Loc: model.Loc{File: "a/.devcontainer.json"}},
					{ID: "compose:a/c.yml:x", Source: "compose", Name: "x", Loc: model.Loc{File: "a/c.yml"}},
					{ID: "compose:b/c.yml:x", Source: "compose", Name: "x", Loc: model.Loc{File: "b/c.yml"}},
				},
			},
			want: map[string]got{
				"devcontainer:a/.devcontainer.json": {Agent, true, "the devcontainer the agent works in"},
				"compose:a/c.yml:x":                 {Unknown, false, "nothing marks it as the agent's, and a is"},
				"compose:b/c.yml:x":                 {Unknown, true, "no workload is known to be the agent's, so each is judged as if it were (name the sandbox in the policy file's sandboxes:)"},
			},
		},
		{
			name: "a Docker-in-Docker service on the agent's network is reachable; one on another network is not",
			doc: model.Document{Workloads: []model.Workload{
				compose("agent", "ghcr.io/x/codex-runner:1"),
				compose("dind", "docker:27-dind"),
				func() model.Workload {
					w := compose("builder", "docker:dind")
					w.Networks = []string{"build"}
					return w
				}(),
			}},
			want: map[string]got{
				"compose:c.yml:agent":   {Agent, true, "its image x/codex-runner runs Codex"},
				"compose:c.yml:dind":    {Platform, false, "it serves a container API that the agent's service agent reaches on network default"},
				"compose:c.yml:builder": {Unknown, false, "nothing marks it as the agent's, and agent is"},
			},
		},
		{
			name: "a pod whose service account may create pods is a control plane (exec alone is not); a Kubernetes node container is the platform's",
			doc: model.Document{Workloads: []model.Workload{
				may(k8s("Pod", "default", "interpreter", "svc", "localhost/interpreter:local"), "pods-sa", model.Grant{Verb: "get", Resource: "secrets", Role: "Role/r"}, model.Grant{Verb: "*", Resource: "pods", Role: "Role/pod-manager"}),
				// exec alone: an SRE agent looking after the cluster's pods
				may(k8s("Deployment", "ops", "sre", "main", "example/sre:1"), "", model.Grant{Verb: "create", Resource: "pods/exec", Role: "ClusterRole/sre"}),
				// a name that says agent outweighs the rights
				may(k8s("Deployment", "ops", "lucas-agent", "main", "example/lucas:1"), "", model.Grant{Verb: "create", Resource: "pods", Role: "ClusterRole/sre"}),
				// cluster-admin's wildcard says nothing of the kind
				may(k8s("Deployment", "default", "worker", "w", "example/worker:1"), "", model.Grant{Verb: "*", Resource: "*", Role: "ClusterRole/cluster-admin"}),
				// an agent's image wins over its rights: the agent holding them is its finding
				may(k8s("Pod", "default", "runner", "r", "example/claude-code:1"), "", model.Grant{Verb: "create", Resource: "pods", Role: "Role/spawn"}),
				// but OpenHands' name with those rights is its server, which starts the runtimes
				may(k8s("Deployment", "default", "remote", "api", "ghcr.io/example/openhands-remote:2"), "rt", model.Grant{Verb: "create", Resource: "pods", Role: "ClusterRole/runtimes"}),
				compose("k3s", "rancher/k3s:v1.29.7-k3s1"),
				// a platform name outweighs an image that only says sandbox
				compose("claude-sandbox-egress", "x/coding-agent-sandbox-mitm:1"),
				compose("key-manager", "x/coding-agent-sandbox-mitm:1"),
			}},
			want: map[string]got{
				"k8s:Pod/default/interpreter/svc":     {Platform, false, "its service account pods-sa may * pods (Role/pod-manager): it starts the sandboxes, a control plane"},
				"k8s:Deployment/default/worker/w":     {Unknown, false, "nothing marks it as the agent's, and lucas-agent/main is"},
				"k8s:Deployment/ops/sre/main":         {Unknown, false, "nothing marks it as the agent's, and lucas-agent/main is"},
				"k8s:Deployment/ops/lucas-agent/main": {Agent, true, "its name lucas-agent/main says it is the agent's (agent)"},
				"k8s:Pod/default/runner/r":            {Agent, true, "its image example/claude-code runs Claude Code"},
				"k8s:Deployment/default/remote/api":   {Platform, false, "its service account rt may create pods (ClusterRole/runtimes): it starts the sandboxes, a control plane"},
				"compose:c.yml:k3s":                   {Platform, false, "its image rancher/k3s is a Kubernetes node (k3s): the pods it runs are judged by their own specs"},
				"compose:c.yml:claude-sandbox-egress": {Platform, false, "its name claude-sandbox-egress says it is a platform service (egress)"},
				"compose:c.yml:key-manager":           {Platform, false, "its name key-manager says it is a platform service (manager)"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, assign(t, &tt.doc, tt.sel)); diff != "" {
				t.Errorf("roles (-want +got):\n%s", diff)
			}
		})
	}
}

func TestReachableBy(t *testing.T) {
	doc := model.Document{Workloads: []model.Workload{
		{ID: "a", Source: "compose", Name: "agent", Image: img("ghcr.io/x/claude-code:1"), Networks: []string{"default"}, Loc: model.Loc{File: "c.yml"}},
		{ID: "p", Source: "compose", Name: "proxy", Image: img("tecnativa/docker-socket-proxy:0.2"), Networks: []string{"default"}, Loc: model.Loc{File: "c.yml"}},
		{ID: "t", Source: "compose", Name: "traefik", Image: img("traefik:v3"), Networks: []string{"default"}, Loc: model.Loc{File: "c.yml"}},
	}}
	Assign(&doc, nil, "")
	got := map[string]string{}
	for _, w := range doc.Workloads {
		got[w.ID] = w.ReachableBy
	}
	// traefik holds a socket too, but serves no container API to the agent.
	if diff := cmp.Diff(map[string]string{"a": "", "p": "agent", "t": ""}, got); diff != "" {
		t.Errorf("reachable_by (-want +got):\n%s", diff)
	}
}

func TestRepository(t *testing.T) {
	for ref, want := range map[string]string{
		"postgres":                                  "postgres",
		"postgres:16-alpine":                        "postgres",
		"docker.io/library/redis:7@sha256:abcd":     "redis",
		"ghcr.io/all-hands-ai/runtime:0.9-nikolaik": "all-hands-ai/runtime",
		"localhost:5000/team/app":                   "team/app",
		"registry.example.com:5000/a/b/c:tag":       "a/b/c",
		"":                                          "",
	} {
		if got := repository(ref); got != want {
			t.Errorf("repository(%q) = %q, want %q", ref, got, want)
		}
	}
}

func TestImages(t *testing.T) {
	agents := []string{"ghcr.io/all-hands-ai/runtime:0.9", "paulgauthier/aider", "myorg/claude-code-sandbox:1", "e2bdev/code-interpreter", "myorg/gemini-cli:1", "someone/copilot-cli", "daytonaio/sandbox:0.4"}
	for _, ref := range agents {
		if agentImage(ref) == "" {
			t.Errorf("agentImage(%q) = \"\", want a reason", ref)
		}
	}
	notAgents := []string{"docker.all-hands.dev/all-hands-ai/openhands:0.9", "ghcr.io/x/agent-sandbox-controller:v1", "datadog/agent:7", "node:22", "myorg/gemini-exchange:1",
		// control planes, relays and tool servers of agent platforms
		"ghcr.io/x/claude-orchestrator:1", "x/claude-code-hub:latest", "x/enterprise-sandbox-mcp:1", "x/sandbox-control-plane:2", "x/codex-relay"}
	for _, ref := range notAgents {
		if why := agentImage(ref); why != "" {
			t.Errorf("agentImage(%q) = %q, want none", ref, why)
		}
	}
	if platformImage("docker.all-hands.dev/all-hands-ai/openhands:0.9") == "" {
		t.Error("OpenHands' app server is the platform's")
	}
	if why := platformImage("ghcr.io/x/claude-orchestrator:1"); why != "its image x/claude-orchestrator is infrastructure (an orchestrator)" {
		t.Errorf("platformImage(claude-orchestrator) = %q", why)
	}
	if why := platformImage("ubuntu:24.04"); why != "" {
		t.Errorf("platformImage(ubuntu) = %q, want none", why)
	}
}

func TestSelectorValidate(t *testing.T) {
	for _, tt := range []struct {
		s    Selector
		want string
	}{
		{Selector{}, "give at least one of file, name, image, labels"},
		{Selector{Name: "x", Role: "db"}, `role "db" must be agent or platform`},
		{Selector{File: "[", Role: Agent}, `"[" is not a valid glob`},
		{Selector{Labels: map[string]string{"app": "agent"}}, ""},
	} {
		err := tt.s.Validate()
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("Validate(%+v) = %q, want %q", tt.s, got, tt.want)
		}
	}
}

func TestByName(t *testing.T) {
	for name, want := range map[string]string{
		"db-migrator":           Platform,
		"k8sgpt-mcp-server/k8s": Platform,
		"agent-server":          Agent,
		"code-sandbox":          Agent,
		"agent-api":             Platform, // the platform's API for agents
		"datadog-agent":         Platform,
		"mcp-server":            Platform,
		"worker":                "",
		"controlplane":          Platform,
		"sandbox-control-plane": Platform,
		"claude-code-hub":       Platform,
		"app":                   "",
	} {
		if got, _ := byName(&model.Workload{Name: name}); got != want {
			t.Errorf("byName(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestDevcontainerService: a devcontainer and the compose service it runs in
// are one container. The service learns which devcontainer runs in it and
// takes the egress of the devcontainer's firewall script, unless its own
// control restricts it; a service another file names is left alone.
func TestDevcontainerService(t *testing.T) {
	script := &model.Egress{Restricted: true, ScriptUnverified: true, Allow: []string{"api.github.com"},
		Script: &model.EgressScript{Runs: "/usr/local/bin/init-firewall.sh", Phase: "postCreate"}}
	internal := &model.Egress{Restricted: true, By: "internal network sealed"}
	for _, tt := range []struct {
		name        string
		service     *model.Egress
		file        string
		want        *model.Egress
		wantDC      string
		wantResolve bool
	}{
		{"no control of its own: the script's", nil, ".devcontainer/compose.yml", script, ".devcontainer/devcontainer.json", true},
		{"its own control stays", internal, ".devcontainer/compose.yml", internal, ".devcontainer/devcontainer.json", true},
		{"another compose file", nil, "deploy/compose.yml", nil, "", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc := &model.Document{Workloads: []model.Workload{
				{ID: "devcontainer:.devcontainer/devcontainer.json", Source: "devcontainer", Name: "dev", Egress: script,
					Loc:     model.Loc{File: ".devcontainer/devcontainer.json"},
					Compose: &model.ComposeRef{Files: []string{".devcontainer/compose.yml"}, Service: "app"}},
				{ID: "compose:app", Source: "compose", Name: "app", Egress: tt.service, Loc: model.Loc{File: tt.file}},
			}}
			Assign(doc, nil, ".sandbox-audit.yaml")
			dc, svc := doc.Workloads[0], doc.Workloads[1]
			if svc.Devcontainer != tt.wantDC || dc.Compose.Resolved != tt.wantResolve {
				t.Errorf("devcontainer = %q, resolved = %v; want %q, %v", svc.Devcontainer, dc.Compose.Resolved, tt.wantDC, tt.wantResolve)
			}
			if diff := cmp.Diff(tt.want, svc.Egress); diff != "" {
				t.Errorf("service egress (-want +got):\n%s", diff)
			}
		})
	}
}

// TestInitContainers: an init container of the agent's pod has exited
// before the agent starts and is not judged; a sidecar is, and so is an init
// container the policy file names.
func TestInitContainers(t *testing.T) {
	pod := func() *model.Document {
		return &model.Document{Workloads: []model.Workload{
			{ID: "k8s:Pod/ns/p/agent", Source: "kubernetes", Name: "p/agent", Role: Agent, RoleReason: "agent-sandbox Sandbox CRD", ContainerType: "main", Loc: model.Loc{File: "s.yaml"}},
			{ID: "k8s:Pod/ns/p/seed", Source: "kubernetes", Name: "p/seed", Role: Agent, RoleReason: "agent-sandbox Sandbox CRD", ContainerType: "init", Loc: model.Loc{File: "s.yaml"}},
			{ID: "k8s:Pod/ns/p/proxy", Source: "kubernetes", Name: "p/proxy", Role: Agent, RoleReason: "agent-sandbox Sandbox CRD", ContainerType: "sidecar", Loc: model.Loc{File: "s.yaml"}},
		}}
	}
	roles := assign(t, pod(), nil)
	want := map[string]got{
		"k8s:Pod/ns/p/agent": {Agent, true, "agent-sandbox Sandbox CRD"},
		"k8s:Pod/ns/p/seed":  {Platform, false, "an init container of the agent's pod: it runs its own command and exits before p/agent starts"},
		"k8s:Pod/ns/p/proxy": {Agent, true, "agent-sandbox Sandbox CRD"},
	}
	if diff := cmp.Diff(want, roles); diff != "" {
		t.Errorf("roles (-want +got):\n%s", diff)
	}
	roles = assign(t, pod(), []Selector{{Role: Agent, Name: "p/seed"}})
	if g := roles["k8s:Pod/ns/p/seed"]; g.Role != Agent || !g.Judged {
		t.Errorf("seed chosen by the policy file = %+v, want agent, judged", g)
	}
}

// TestBesideUnnamedAgent: a workload left unjudged beside the agent's says
// which one that is, also when the agent's is a devcontainer without a name.
func TestBesideUnnamedAgent(t *testing.T) {
	doc := &model.Document{Workloads: []model.Workload{
		{ID: "devcontainer:.devcontainer/devcontainer.json", Source: "devcontainer", Loc: model.Loc{File: ".devcontainer/devcontainer.json"}},
		{ID: "compose:helper", Source: "compose", Name: "helper", Loc: model.Loc{File: "compose.yml"}},
	}}
	Assign(doc, nil, ".sandbox-audit.yaml")
	w := doc.Workloads[1]
	if w.Judged || w.RoleReason != "nothing marks it as the agent's, and the devcontainer of .devcontainer/devcontainer.json is" {
		t.Errorf("judged %v, reason %q", w.Judged, w.RoleReason)
	}
}

// A runner given /dev/kvm starts microVMs for the code it runs; a service
// that runs the agent CLI itself, or that a devcontainer runs in, is where
// the agent works, KVM or not.
func TestVMHosts(t *testing.T) {
	kvm := []model.Str{{Value: "/dev/kvm", Loc: model.Loc{File: "c.yml", Line: 7}}}
	doc := model.Document{Workloads: []model.Workload{
		{ID: "compose:c.yml:runner", Source: "compose", Name: "sandbox-runner", Loc: model.Loc{File: "c.yml"}, Devices: kvm},
		{ID: "compose:c.yml:agent", Source: "compose", Name: "agent", Loc: model.Loc{File: "c.yml"}, Devices: kvm,
			Commands: []model.Command{{Phase: "command", Text: "claude -p task"}}},
		{ID: "compose:c.yml:dev", Source: "compose", Name: "dev", Loc: model.Loc{File: "c.yml"}, Devices: kvm, Devcontainer: ".devcontainer/devcontainer.json"},
		{ID: "compose:c.yml:fuse", Source: "compose", Name: "fuse", Loc: model.Loc{File: "c.yml"}, Devices: []model.Str{{Value: "/dev/fuse"}}},
		{ID: "k8s:Deployment/d/vm/vm", Source: "kubernetes", Name: "vm/vm", Loc: model.Loc{File: "k.yaml"},
			Mounts: []model.Mount{{Type: "hostPath", Source: "/dev/kvm", Target: "/dev/kvm", Loc: model.Loc{File: "k.yaml", Line: 20}}}},
	}}
	Assign(&doc, nil, "")
	got := map[string]string{}
	for _, w := range doc.Workloads {
		if w.VMHost != nil {
			got[w.ID] = fmt.Sprintf("%s@%d", w.VMHost.Value, w.VMHost.Line)
		}
	}
	want := map[string]string{"compose:c.yml:runner": "device /dev/kvm@7", "k8s:Deployment/d/vm/vm": "hostPath /dev/kvm@20"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("vm hosts (-want +got):\n%s", diff)
	}
}

func TestLaunchesSandboxes(t *testing.T) {
	for name, want := range map[string]bool{
		"SANDBOX_RUNTIME_CONTAINER_IMAGE": true, "APP_EXECUTOR_IMAGE": true, "RUNNER_IMAGE": true,
		"RUNTIME_IMAGE": true, "default_runtime_image": true, "SIDECAR_IMAGE": true,
		"RUNTIME": false, "NODE_RUNTIME_VERSION": false, "IMAGE_RUNTIME": false, "IMAGE_TAG": false, "SANDBOX": false,
	} {
		if got := launchesSandboxes(name); got != want {
			t.Errorf("launchesSandboxes(%q) = %v, want %v", name, got, want)
		}
	}
}
