package roles

import (
	"strings"
)

// repository returns an image reference's repository path, lower case,
// without registry host, tag or digest: "ghcr.io/org/app:1@sha256:…" is
// "org/app"; Docker Hub's "library/" prefix is dropped.
func repository(ref string) string {
	r := strings.ToLower(strings.TrimSpace(ref))
	if at := strings.IndexByte(r, '@'); at >= 0 {
		r = r[:at]
	}
	if slash := strings.LastIndexByte(r, '/'); strings.LastIndexByte(r, ':') > slash {
		r = r[:strings.LastIndexByte(r, ':')]
	}
	if first, rest, ok := strings.Cut(r, "/"); ok && (strings.ContainsAny(first, ".:") || first == "localhost") {
		r = rest
	}
	return strings.TrimPrefix(r, "library/")
}

// words splits an image repository's last component into its words.
func words(repo string) []string {
	last := repo[strings.LastIndexByte(repo, '/')+1:]
	return strings.FieldsFunc(last, func(r rune) bool { return r == '-' || r == '_' || r == '.' })
}

func has(ws []string, w string) bool {
	for _, x := range ws {
		if x == w {
			return true
		}
	}
	return false
}

// agentImages are repositories (or a trailing part of one) of images that
// run a coding agent or execute its actions.
var agentImages = map[string]string{
	"all-hands-ai/runtime":    "OpenHands' runtime, where the agent's actions run",
	"openhands/runtime":       "OpenHands' runtime, where the agent's actions run",
	"sweagent/swe-agent":      "SWE-agent",
	"sweagent/swe-rex":        "SWE-ReX, SWE-agent's execution runtime",
	"e2bdev/code-interpreter": "E2B's code interpreter sandbox",
	"paulgauthier/aider":      "the aider agent",
	"paulgauthier/aider-full": "the aider agent",
}

// platformApps are agent platforms' own servers: control planes that start
// the agent's sandboxes rather than run in one.
var platformApps = map[string]string{
	"all-hands-ai/openhands": "OpenHands' app server, a control plane that starts the agent's runtime containers",
	"openhands/openhands":    "OpenHands' app server, a control plane that starts the agent's runtime containers",
	// A Kubernetes node in a container runs the pods that a manifest
	// describes; they are judged by their own specs.
	"rancher/k3s":  "a Kubernetes node (k3s): the pods it runs are judged by their own specs",
	"kindest/node": "a Kubernetes node (kind): the pods it runs are judged by their own specs",
}

// agentWords name an agent CLI in an image's last component.
var agentWords = map[string]string{
	"claude": "Claude Code", "codex": "Codex", "aider": "aider", "goose": "goose",
	"opencode": "opencode", "openhands": "OpenHands", "vibe": "Mistral Vibe",
}

// agentImage says why an image runs an agent, "" when it does not.
func agentImage(ref string) string {
	repo := repository(ref)
	if repo == "" {
		return ""
	}
	if _, ok := platformApps[repo]; ok {
		return ""
	}
	for suffix, what := range agentImages {
		if repo == suffix || strings.HasSuffix(repo, "/"+suffix) {
			return "its image " + repo + " is " + what
		}
	}
	ws := words(repo)
	if controlPlane(ws) != "" {
		return ""
	}
	for _, w := range ws {
		if what, ok := agentWords[w]; ok {
			return "its image " + repo + " runs " + what
		}
	}
	switch {
	case has(ws, "gemini") && has(ws, "cli"):
		return "its image " + repo + " runs Gemini CLI"
	case has(ws, "cursor") && has(ws, "agent"):
		return "its image " + repo + " runs Cursor's agent"
	case has(ws, "copilot") && has(ws, "cli"):
		return "its image " + repo + " runs GitHub's Copilot CLI"
	case has(ws, "sandbox"), has(ws, "devcontainer"):
		return sandboxWord + repo + " is a sandbox runner"
	}
	return ""
}

// sandboxWord starts agentImage's weakest reason: the image's name says
// sandbox or devcontainer, not which agent. A service name that says it
// is a platform service (claude-sandbox-egress, a key manager built from
// the same image) outweighs it.
const sandboxWord = "its image "

// weakAgentImage: why comes from the sandbox word alone.
func weakAgentImage(why string) bool {
	return strings.HasPrefix(why, sandboxWord) && strings.HasSuffix(why, " is a sandbox runner")
}

// controlPlane returns the word of a controller, operator, proxy or UI in
// an image's name: they manage or front sandboxes rather than run in one
// (agent-sandbox-controller); "" when none.
func controlPlane(ws []string) string {
	for _, w := range ws {
		switch w {
		// An orchestrator, control plane, hub or relay starts or fronts
		// the agent's sessions (claude-orchestrator, claude-code-hub, an
		// API relay); an MCP server serves the agent tools
		// (enterprise-sandbox-mcp, in front of the sandbox's VM).
		case "controller", "operator", "webhook", "manager", "exporter", "dashboard", "router", "gateway", "proxy",
			"orchestrator", "controlplane", "scheduler", "hub", "relay", "mcp":
			return w
		}
	}
	for i := 0; i+1 < len(ws); i++ {
		if ws[i] == "control" && ws[i+1] == "plane" {
			return "control plane"
		}
	}
	return ""
}

// article is "an" before a vowel, else "a".
func article(w string) string {
	if w != "" && strings.ContainsRune("aeiou", rune(w[0])) {
		return "an"
	}
	return "a"
}

// platformImages are well-known images of databases, caches, queues,
// object stores, proxies, registries, observability and admin UIs, by the
// last component of their repository.
var platformImages = map[string]string{
	"postgres": "a database", "postgis": "a database", "pgvector": "a database", "mysql": "a database",
	"mariadb": "a database", "percona-server": "a database", "mongo": "a database", "mongodb": "a database",
	"mongodb-community-server": "a database", "couchdb": "a database", "cassandra": "a database",
	"scylla": "a database", "cockroach": "a database", "clickhouse-server": "a database",
	"clickhouse": "a database", "neo4j": "a database", "surrealdb": "a database", "timescaledb": "a database",
	"influxdb": "a database", "mssql-server": "a database", "oracle-free": "a database",
	"redis": "a cache", "redis-stack": "a cache", "redis-stack-server": "a cache", "valkey": "a cache",
	"keydb": "a cache", "memcached": "a cache", "dragonfly": "a cache",
	"elasticsearch": "a search engine", "opensearch": "a search engine", "meilisearch": "a search engine",
	"typesense": "a search engine", "solr": "a search engine",
	"qdrant": "a vector database", "weaviate": "a vector database", "milvus": "a vector database",
	"chroma":   "a vector database",
	"rabbitmq": "a message broker", "kafka": "a message broker", "cp-kafka": "a message broker",
	"zookeeper": "a message broker", "cp-zookeeper": "a message broker", "nats": "a message broker",
	"redpanda": "a message broker", "pulsar": "a message broker", "activemq": "a message broker",
	"minio": "an object store", "localstack": "a cloud emulator", "azurite": "a cloud emulator",
	"fake-gcs-server": "a cloud emulator",
	"nginx":           "a proxy", "nginx-unprivileged": "a proxy", "traefik": "a proxy", "envoy": "a proxy",
	"haproxy": "a proxy", "caddy": "a proxy", "httpd": "a proxy", "squid": "a proxy", "kong": "a proxy",
	"registry": "a registry", "verdaccio": "a registry", "nexus3": "a registry",
	"vault": "a secret store", "consul": "a service registry", "etcd": "a key-value store",
	"keycloak": "an identity provider", "dex": "an identity provider",
	"grafana": "observability", "prometheus": "observability", "alertmanager": "observability",
	"node-exporter": "observability", "cadvisor": "observability", "loki": "observability",
	"promtail": "observability", "tempo": "observability", "all-in-one": "observability",
	"jaeger": "observability", "zipkin": "observability", "opentelemetry-collector": "observability",
	"opentelemetry-collector-contrib": "observability", "otel-collector": "observability",
	"fluentd": "observability", "fluent-bit": "observability", "vector": "observability",
	"kibana": "observability", "logstash": "observability", "langfuse": "observability",
	"opensearch-dashboards": "observability", "signoz": "observability",
	"mailhog": "a mail catcher", "mailpit": "a mail catcher",
	"adminer": "an admin UI", "pgadmin4": "an admin UI", "phpmyadmin": "an admin UI",
	"redis-commander": "an admin UI", "redisinsight": "an admin UI", "portainer": "an admin UI",
	"temporal": "a workflow server", "auto-setup": "a workflow server", "temporal-ui": "a workflow server",
	"ollama": "a model server", "vllm-openai": "a model server", "text-generation-inference": "a model server",
	"litellm": "a model proxy",
}

// platformImage says why an image is the platform's, "" when unknown.
func platformImage(ref string) string {
	repo := repository(ref)
	if repo == "" {
		return ""
	}
	if what, ok := platformApps[repo]; ok {
		return "its image " + repo + " is " + what
	}
	last := repo[strings.LastIndexByte(repo, '/')+1:]
	if what, ok := platformImages[last]; ok {
		return "its image " + repo + " is " + what
	}
	if w := controlPlane(words(repo)); w != "" {
		return "its image " + repo + " is infrastructure (" + article(w) + " " + w + ")"
	}
	return ""
}

// runtimeAPI reports images that serve a container runtime's API over the
// network: Docker-in-Docker and Docker socket proxies.
func runtimeAPI(ref string) bool {
	repo := repository(ref)
	tag := ""
	if r := strings.ToLower(ref); strings.LastIndexByte(r, ':') > strings.LastIndexByte(r, '/') {
		tag = r[strings.LastIndexByte(r, ':')+1:]
	}
	switch {
	case repo == "docker" && (tag == "dind" || strings.HasSuffix(tag, "-dind") || strings.Contains(tag, "dind-")):
		return true
	case strings.HasSuffix(repo, "docker-socket-proxy"), strings.HasSuffix(repo, "/socket-proxy"):
		return true
	}
	return false
}
