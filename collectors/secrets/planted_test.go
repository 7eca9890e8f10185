package secrets

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fixtures/planted-secrets is a sandbox configuration tree with FAKE
// credentials planted in every place a sandbox keeps them. Every value comes
// from the seeded faker (fakes_test.go): random characters after a real
// prefix, never issued by anyone. Regenerate with
//
//	go test ./collectors/secrets -run TestPlantedFixtures -update
//
// git cannot track a directory named .git, so the repository config lives
// in dot-git/config; tests copy the tree and rename it.
var update = flag.Bool("update", false, "rewrite fixtures/planted-secrets from the seeded generator")

const (
	plantedDir  = "../../fixtures/planted-secrets"
	plantedSeed = 20261129
)

// plant is one planted credential: the value as written in the file, the
// name it sits under (for DetectNamed, "" when it is free text) and the
// text a collector hands to Scan (the value itself, or the URL/command
// around it).
type plant struct {
	file, name, value, kind, probe string
	// apart: the name is not next to the value in the file (a Kubernetes
	// env entry), so only DetectNamed can judge a generic secret there.
	apart bool
	// hidden: only Hide finds it, from what surrounds it in probe (a flag,
	// a header, a URL part), not Scan.
	hidden bool
}

type planter struct {
	f      *faker
	file   string
	plants []plant
}

// put records value under name in the current file and returns it.
func (p *planter) put(name, kind, value string) string {
	p.plants = append(p.plants, plant{p.file, name, value, kind, value, false, false})
	return value
}

// inside records value as part of a larger text (a URL, a command).
func (p *planter) inside(kind, value, probe string) string {
	p.plants = append(p.plants, plant{p.file, "", value, kind, probe, false, false})
	return probe
}

// hidden records value as part of a larger text where only Hide finds it.
func (p *planter) hidden(kind, value, probe string) string {
	p.plants = append(p.plants, plant{p.file, "", value, kind, probe, false, true})
	return probe
}

func plantedTree() (map[string]string, []plant) {
	p := &planter{f: newFaker(plantedSeed)}
	f := p.f
	// g draws the values planted since the tree was first made, so the
	// older ones keep theirs.
	g := newFaker(plantedSeed + 1)
	files := map[string]string{}
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	flush := func() { files[p.file] = b.String(); b.Reset() }

	p.file = "Dockerfile"
	w("# Agent sandbox image.\nFROM node:20-bookworm\n")
	w("ARG NPM_TOKEN=%s\n", p.put("NPM_TOKEN", "npm-token", f.npm()))
	w("ENV GITHUB_TOKEN=%s \\\n", p.put("GITHUB_TOKEN", "github-pat-classic", f.ghp()))
	w("    OPENAI_API_KEY=%s \\\n", p.put("OPENAI_API_KEY", "openai-api-key", f.openaiLegacy()))
	w("    AWS_ACCESS_KEY_ID=%s\n", p.put("AWS_ACCESS_KEY_ID", "aws-access-key-id", f.akia()))
	pw := f.password()
	w("ENV DATABASE_URL=%s\n", p.inside("url-password", pw, "postgres://app:"+pw+"@db.internal:5432/app"))
	w("ENV SESSION_SECRET=%s\n", p.put("SESSION_SECRET", "generic-secret", f.hex(64)))
	pw = f.password()
	w("RUN pip install --index-url %s agent-tools\n", p.inside("url-password", pw, "https://ci:"+pw+"@pypi.corp.internal/simple"))
	opaque := g.s(alnum, 32)
	w("RUN %s\n", p.hidden("bearer-token", opaque, "curl -fsS -H \"Authorization: token "+opaque+"\" https://artifacts.corp.internal/agent.tgz -o /tmp/a.tgz"))
	dtok := g.hex(40)
	w("RUN %s\n", p.hidden("generic-secret", dtok, "agent-cli login --api-token="+dtok+" && agent-cli pull"))
	w("USER node\nWORKDIR /workspace\n")
	flush()

	p.file = "docker-compose.yml"
	w("services:\n  agent:\n    image: ghcr.io/acme/agent:1.4.2\n    environment:\n")
	w("      ANTHROPIC_API_KEY: %s\n", p.put("ANTHROPIC_API_KEY", "anthropic-api-key", f.anthropic("api03")))
	w("      GH_TOKEN: %s\n", p.put("GH_TOKEN", "github-oauth-token", f.gho()))
	w("      SLACK_BOT_TOKEN: %s\n", p.put("SLACK_BOT_TOKEN", "slack-bot-token", f.slack('b', false)))
	pw = f.password()
	w("      REDIS_URL: %s\n", p.inside("url-password", pw, "redis://default:"+pw+"@redis:6379/0"))
	w("      WEBHOOK_SECRET: %s\n", p.put("WEBHOOK_SECRET", "generic-secret", f.s(alnum, 43)))
	w("      NODE_ENV: production\n    volumes:\n      - ./:/workspace\n  worker:\n    image: ghcr.io/acme/worker:1.4.2\n    environment:\n")
	w("      - GITLAB_TOKEN=%s\n", p.put("GITLAB_TOKEN", "gitlab-pat", f.glpat()))
	w("      - PYPI_TOKEN=%s\n", p.put("PYPI_TOKEN", "pypi-token", f.pypi()))
	w("      - ENCRYPTION_KEY=%s\n", p.put("ENCRYPTION_KEY", "generic-secret", f.s(alnum, 44)))
	def := g.s(alnum, 28)
	w("      - SIGNING_KEY=${SIGNING_KEY:-%s}\n", p.put("SIGNING_KEY", "generic-secret", def))
	p.plants[len(p.plants)-1].probe = "${SIGNING_KEY:-" + def + "}"
	cpw := g.password()
	w("    command: [\"worker\", %q]\n", p.hidden("generic-secret", cpw, "--db-password="+cpw))
	flush()

	p.file = "k8s/agent-pod.yaml"
	w("apiVersion: v1\nkind: Pod\nmetadata:\n  name: agent\n  namespace: agents\nspec:\n  containers:\n  - name: agent\n    image: ghcr.io/acme/agent:1.4.2\n    env:\n")
	env := func(name, kind, value string) {
		w("    - name: %s\n      value: %q\n", name, p.put(name, kind, value))
		p.plants[len(p.plants)-1].apart = true
	}
	env("GITHUB_APP_TOKEN", "github-app-installation-token", f.ghs())
	env("KUBE_TOKEN", "jwt", f.jwt(3600, true, 342))
	env("SERVICE_JWT", "jwt", f.jwt(0, false, 43))
	env("SLACK_USER_TOKEN", "slack-user-token", f.slack('p', false))
	env("OPENAI_API_KEY", "openai-api-key", f.openaiProject())
	key := f.pem("EC", `\n`)
	w("    - name: TLS_PRIVATE_KEY\n      value: \"%s\"\n", p.put("TLS_PRIVATE_KEY", "private-key", key))
	env("DB_PASSWORD", "generic-secret", f.password())
	env("GITHUB_REFRESH_TOKEN", "github-refresh-token", f.ghr())
	kt := g.ghp()
	w("    args: [\"--repo\", \"acme/agent\", \"--github-token\", %q]\n", p.put("github-token", "github-pat-classic", kt))
	flush()

	p.file = ".devcontainer/devcontainer.json"
	rt := g.hex(40)
	w("{\n  \"name\": \"agent\",\n  \"image\": \"mcr.microsoft.com/devcontainers/base:bookworm\",\n")
	w("  \"runArgs\": [\"-e\", %q],\n", p.hidden("generic-secret", rt, "API_TOKEN="+rt))
	w("  \"containerEnv\": {\n")
	w("    \"GH_TOKEN\": %q,\n", p.put("GH_TOKEN", "github-app-user-token", f.ghu()))
	w("    \"NPM_TOKEN\": %q,\n", p.put("NPM_TOKEN", "npm-token", f.npm()))
	w("    \"SSH_PRIVATE_KEY\": \"%s\",\n", p.put("SSH_PRIVATE_KEY", "private-key", f.pem("OPENSSH", `\n`)))
	w("    \"SENTRY_AUTH_TOKEN\": %q,\n", p.put("SENTRY_AUTH_TOKEN", "sentry-access-token", f.hex(64)))
	w("    \"ANTHROPIC_API_KEY\": \"${localEnv:ANTHROPIC_API_KEY}\"\n  },\n  \"remoteEnv\": {\n")
	w("    \"AWS_ACCESS_KEY_ID\": %q,\n", p.put("AWS_ACCESS_KEY_ID", "aws-temporary-access-key", f.asia()))
	w("    \"OPENAI_API_KEY\": %q\n  },\n", p.put("OPENAI_API_KEY", "openai-api-key", f.openaiSvc()))
	tok := f.npm()
	w("  \"postCreateCommand\": %q\n}\n", p.inside("npm-token", tok, "npm config set //registry.npmjs.org/:_authToken "+tok+" && npm ci"))
	flush()

	p.file = ".mcp.json"
	pat1, pat2, gl := f.githubPAT(), f.githubPAT(), f.glpat()
	w("{\n  \"mcpServers\": {\n    \"github\": {\n      \"command\": \"docker\",\n")
	w("      \"args\": [\"run\", \"-i\", \"--rm\", \"-e\", %q, \"ghcr.io/github/github-mcp-server\"],\n",
		p.inside("github-pat-fine-grained", pat1, "GITHUB_PERSONAL_ACCESS_TOKEN="+pat1))
	w("      \"env\": {\"GITHUB_PERSONAL_ACCESS_TOKEN\": %q}\n    },\n", p.put("GITHUB_PERSONAL_ACCESS_TOKEN", "github-pat-fine-grained", pat2))
	w("    \"gitlab\": {\n      \"command\": \"npx\",\n      \"args\": [\"-y\", \"@modelcontextprotocol/server-gitlab\", \"--token\", %q]\n    },\n",
		p.put("", "gitlab-pat", gl))
	bearer := f.s(alnum, 40)
	w("    \"linear\": {\n      \"type\": \"http\",\n      \"url\": \"https://mcp.linear.app/mcp\",\n      \"headers\": {\"Authorization\": %q}\n    },\n",
		p.inside("bearer-token", bearer, "Bearer "+bearer))
	pw, apiKey := f.password(), f.s(alnum, 32)
	w("    \"internal\": {\n      \"type\": \"sse\",\n      \"url\": %q,\n",
		p.inside("url-password", pw, "https://bot:"+pw+"@mcp.corp.internal/sse"))
	w("      \"headers\": {\"X-API-Key\": %q}\n    },\n", p.put("X-API-Key", "generic-secret", apiKey))
	q := f.s(alnum, 32)
	w("    \"search\": {\n      \"type\": \"http\",\n      \"url\": %q\n    },\n",
		p.inside("generic-api-key", q, "https://search.corp.internal/mcp?api_key="+q))
	mk, mh := g.hex(40), g.s(alnum, 30)
	w("    \"tickets\": {\n      \"command\": \"npx\",\n      \"args\": [\"-y\", \"tickets-mcp@2.0.1\", \"--api-key\", %q, \"--header\", %q]\n    },\n",
		p.hidden("generic-secret", mk, "--api-key "+mk), p.hidden("bearer-token", mh, "Authorization: token "+mh))
	w("    \"slack\": {\n      \"command\": \"npx\",\n      \"args\": [\"-y\", \"slack-mcp-server@1.2.0\"],\n")
	w("      \"env\": {\"SLACK_BOT_TOKEN\": %q, ", p.put("SLACK_BOT_TOKEN", "slack-bot-token", f.slack('b', false)))
	w("\"SLACK_REFRESH_TOKEN\": %q}\n    }\n  }\n}\n", p.put("SLACK_REFRESH_TOKEN", "slack-refresh-token", f.slack('r', false)))
	flush()

	p.file = ".codex/config.toml"
	w("model = \"gpt-5-codex\"\nmodel_provider = \"corp\"\nsandbox_mode = \"workspace-write\"\napproval_policy = \"never\"\n\n")
	w("[model_providers.corp]\nname = \"Corp gateway\"\nbase_url = \"https://llm.corp.internal/v1\"\n")
	w("experimental_bearer_token = %q\n\n", p.put("experimental_bearer_token", "openai-api-key", f.openaiProject()))
	w("[mcp_servers.github]\ncommand = \"github-mcp-server\"\n")
	w("env = { GITHUB_TOKEN = %q, ", p.put("GITHUB_TOKEN", "github-pat-classic", f.ghp()))
	w("GITHUB_REFRESH_TOKEN = %q }\n\n", p.put("GITHUB_REFRESH_TOKEN", "github-refresh-token", f.ghr()))
	jwt30d := f.jwt(30*86400, true, 342)
	w("[mcp_servers.sentry]\nurl = \"https://mcp.sentry.dev/mcp\"\nhttp_headers = { Authorization = %q }\n\n",
		p.inside("jwt", jwt30d, "Bearer "+jwt30d))
	pw = f.password()
	w("[mcp_servers.db]\ncommand = \"db-mcp\"\nargs = [\"--dsn\", %q]\n",
		p.inside("url-password", pw, "postgresql://agent:"+pw+"@db.corp.internal:5432/prod"))
	flush()

	p.file = ".claude/settings.json"
	w("{\n  \"env\": {\n")
	w("    \"ANTHROPIC_API_KEY\": %q,\n", p.put("ANTHROPIC_API_KEY", "anthropic-api-key", f.anthropic("api03")))
	w("    \"AWS_ACCESS_KEY_ID\": %q,\n", p.put("AWS_ACCESS_KEY_ID", "aws-temporary-access-key", f.asia()))
	w("    \"AWS_SESSION_TOKEN\": %q,\n", p.put("AWS_SESSION_TOKEN", "generic-secret", f.s(alnum, 120)+f.s(b64, 180)))
	w("    \"CLAUDE_CODE_OAUTH_TOKEN\": %q,\n", p.put("CLAUDE_CODE_OAUTH_TOKEN", "anthropic-api-key", f.anthropic("oat01")))
	w("    \"DISABLE_TELEMETRY\": \"1\"\n  },\n")
	ak := f.anthropic("api03")
	w("  \"apiKeyHelper\": %q,\n", p.inside("anthropic-api-key", ak, "echo "+ak))
	allowTok, askPW, denyNPM, exHex := g.ghp(), g.password(), g.npm(), g.hex(40)
	w("  \"permissions\": {\n    \"allow\": [\"Bash(npm test:*)\", %q],\n",
		p.inside("github-pat-classic", allowTok, `Bash(curl -H "Authorization: Bearer `+allowTok+`":*)`))
	w("    \"ask\": [%q],\n", p.inside("url-password", askPW, "Bash(psql postgres://app:"+askPW+"@db.corp.internal/app:*)"))
	w("    \"deny\": [\"Read(~/.aws/**)\", %q]\n  },\n", p.inside("npm-token", denyNPM, "Bash(npm publish --//registry.npmjs.org/:_authToken="+denyNPM+":*)"))
	w("  \"sandbox\": {\n    \"enabled\": true,\n    \"excludedCommands\": [%q]\n  }\n}\n",
		p.hidden("generic-secret", exHex, "deploy --token="+exHex))
	flush()

	p.file = ".github/workflows/agent.yml"
	w("name: agent\non:\n  issue_comment:\n    types: [created]\npermissions:\n  contents: write\nenv:\n")
	w("  GH_TOKEN: %s\n", p.put("GH_TOKEN", "github-pat-classic", f.ghp()))
	w("jobs:\n  run:\n    runs-on: ubuntu-latest\n    env:\n")
	w("      NPM_TOKEN: %s\n", p.put("NPM_TOKEN", "npm-token", f.npm()))
	w("    steps:\n      - uses: actions/checkout@v4\n        with:\n")
	w("          token: %s\n", p.put("token", "github-pat-fine-grained", f.githubPAT()))
	w("      - uses: anthropics/claude-code-action@v1\n        with:\n")
	w("          anthropic_api_key: %s\n", p.put("anthropic_api_key", "anthropic-api-key", f.anthropic("api03")))
	w("          github_token: %s\n", p.put("github_token", "github-app-installation-token", f.ghsStateless()))
	argTok := g.ghp()
	w("          claude_args: |\n            %s\n", p.inside("github-pat-classic", argTok, `--allowedTools "Bash(gh api -H 'Authorization: token `+argTok+`')"`))
	inKey := g.hex(40)
	w("          extra_api_key: %s\n", p.put("extra_api_key", "generic-secret", inKey))
	w("      - uses: openai/codex-action@v1\n        with:\n")
	w("          openai_api_key: %s\n", p.put("openai_api_key", "openai-api-key", f.openaiProject()))
	jwt1h := f.jwt(3600, true, 43)
	w("      - run: '%s'\n", p.inside("jwt", jwt1h, "curl -fsS -H \"Authorization: Bearer "+jwt1h+"\" https://deploy.corp.internal/hook"))
	runPW, runTok := g.password(), g.hex(40)
	w("      - run: |\n          mysql --password=%s -h db.corp.internal < seed.sql\n", runPW)
	p.hidden("generic-secret", runPW, "mysql --password="+runPW+" -h db.corp.internal < seed.sql")
	w("          echo \"DEPLOY_TOKEN=%s\" >> \"$GITHUB_ENV\"\n", runTok)
	p.hidden("generic-secret", runTok, `echo "DEPLOY_TOKEN=`+runTok+`" >> "$GITHUB_ENV"`)
	flush()

	p.file = "dot-git/config"
	w("[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n")
	gl = f.glpat()
	w("[remote \"origin\"]\n\turl = %s\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n",
		p.inside("gitlab-pat", gl, "https://oauth2:"+gl+"@gitlab.com/acme/agent.git"))
	pw = f.password()
	w("[remote \"mirror\"]\n\turl = %s\n", p.inside("url-password", pw, "https://deploy:"+pw+"@git.corp.internal/acme/agent.git"))
	ghs := f.ghs()
	header := basic("x-access-token", ghs)
	w("[http \"https://github.com/\"]\n\textraheader = %s\n", p.inside("github-app-installation-token", header, "AUTHORIZATION: basic "+header))
	p.inside("github-app-installation-token", ghs, "AUTHORIZATION: basic "+header) // the token inside
	rw := g.password()
	w("[url %q]\n\tinsteadOf = https://git.corp.internal/\n", p.inside("url-password", rw, "https://dev:"+rw+"@git.corp.internal/"))
	flush()

	p.file = ".gemini/settings.json"
	gk, gq, gh := g.hex(40), g.s(alnum, 32), g.ghp()
	w("{\n  \"mcpServers\": {\n    \"tools\": {\n      \"command\": \"tools-mcp\",\n")
	w("      \"args\": [\"--token\", %q],\n", p.hidden("generic-secret", gk, "--token "+gk))
	w("      \"env\": {\"GITHUB_TOKEN\": %q}\n    },\n", p.put("GITHUB_TOKEN", "github-pat-classic", gh))
	w("    \"remote\": {\n      \"httpUrl\": %q\n    }\n  }\n}\n", p.inside("generic-api-key", gq, "https://tools.corp.internal/mcp?access_token="+gq))
	flush()

	var list []string
	seen := map[string]bool{}
	for _, pl := range p.plants {
		if !seen[pl.value] {
			seen[pl.value] = true
			list = append(list, pl.value)
		}
	}
	files["SECRETS.txt"] = strings.Join(list, "\n") + "\n"
	files["README.md"] = "# planted-secrets\n\nA sandbox configuration tree with FAKE credentials in every place a sandbox\n" +
		"keeps them. Every value is random characters after a real prefix, generated\nwith a fixed seed by " +
		"collectors/secrets/planted_test.go; none was ever issued.\nSECRETS.txt lists each planted value, one per line.\n\n" +
		"git cannot track a directory named `.git`: the repository config is\n`dot-git/config`. Copy the tree and rename it to `.git/config` to audit it.\n\n" +
		"Regenerate: `go test ./collectors/secrets -run TestPlantedFixtures -update`\n"
	return files, p.plants
}

func TestPlantedFixtures(t *testing.T) {
	files, plants := plantedTree()
	if *update {
		for name, content := range files {
			path := filepath.Join(plantedDir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	// The tree on disk is what the generator makes: no drift, no hand edits.
	var names []string
	for name, want := range files {
		names = append(names, name)
		got, err := os.ReadFile(filepath.Join(plantedDir, filepath.FromSlash(name)))
		if err != nil {
			t.Fatalf("read fixture (run with -update): %v", err)
		}
		if diff := cmp.Diff(want, string(got)); diff != "" {
			t.Errorf("%s is stale, run with -update (-want +got):\n%s", name, diff)
		}
	}
	sort.Strings(names)

	kinds := map[string]bool{}
	for _, pl := range plants {
		kinds[pl.kind] = true
	}
	if len(plants) < 50 || len(kinds) < 12 {
		t.Errorf("%d plants of %d kinds, want >= 50 of >= 12", len(plants), len(kinds))
	}

	// Each value, handed over as a collector would, is detected with its kind.
	for _, pl := range plants {
		var got string
		if pl.hidden {
			_, found := Hide(pl.probe)
			for _, fd := range found {
				if fd.Kind == pl.kind {
					got = fd.Kind
				}
			}
		} else if pl.name != "" {
			if r := DetectNamed(pl.name, pl.probe); r != nil {
				got = r.Kind
			}
		} else {
			// The match over the value, or (a token inside a Basic
			// credential) the one that fingerprints it.
			at := strings.Index(pl.probe, pl.value)
			for _, m := range Scan(pl.probe) {
				if at >= 0 && m.Start < at+len(pl.value) && at < m.End || m.Fingerprint == Fingerprint(pl.value) {
					got = m.Kind
				}
			}
		}
		if strings.Contains(pl.value, `\n`) {
			// As the YAML or JSON parser hands it over: real newlines.
			if r := DetectNamed(pl.name, strings.ReplaceAll(pl.value, `\n`, "\n")); r == nil || r.Kind != pl.kind {
				t.Errorf("%s: decoded %s detected as %+v, want %s", pl.file, pl.name, r, pl.kind)
			}
		}
		if got != pl.kind {
			t.Errorf("%s: %s=%.24s… detected as %q, want %q", pl.file, pl.name, pl.value, got, pl.kind)
		}
		if w, ok := leaks(Redact(pl.probe), pl.value, 8); ok && pl.name == "" {
			t.Errorf("%s: Redact(%.30s…) leaks %q", pl.file, pl.probe, w)
		}
	}

	// Whole files: Scan covers every planted value, Redact leaves none of it.
	for _, name := range names {
		text := files[name]
		if name == "SECRETS.txt" || name == "README.md" {
			continue
		}
		out := Redact(text)
		for _, pl := range plants {
			if pl.file != name || pl.apart && pl.kind == "generic-secret" {
				continue
			}
			if w, ok := leaks(out, pl.value, 8); ok {
				t.Errorf("%s: Redact leaves %q of %.24s… (%s)", name, w, pl.value, pl.kind)
			}
		}
	}
}
