package secrets

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// tcase is one detection case. With key set it goes through DetectNamed,
// otherwise through Detect. With secret set, Scan(value) must also find
// exactly that span, and Redact(value) must drop all of it.
type tcase struct {
	name           string
	key, value     string
	kind, lifetime string // kind "" expects no secret
	secret         string
}

func positives(f *faker) []tcase {
	var cs []tcase
	add := func(name, key, value, kind, lifetime, secret string) {
		cs = append(cs, tcase{name, key, value, kind, lifetime, secret})
	}
	tok := func(name, kind, lifetime, token, before, after string) {
		add(name, "", before+token+after, kind, lifetime, token)
	}
	tok("ghp alone", "github-pat-classic", "long", f.ghp(), "", "")
	tok("ghp in sentence", "github-pat-classic", "long", f.ghp(), "use token ", " for pushes")
	tok("fine-grained pat", "github-pat-fine-grained", "long", f.githubPAT(), "", "")
	tok("gho", "github-oauth-token", "long", f.gho(), "GH_TOKEN=", "")
	tok("ghu", "github-app-user-token", "short", f.ghu(), "", "")
	tok("ghs classic", "github-app-installation-token", "short", f.ghs(), "", "")
	tok("ghs stateless", "github-app-installation-token", "short", f.ghsStateless(), "token: ", "\n")
	tok("ghs stateless end of sentence", "github-app-installation-token", "short", f.ghsStateless(), "it was ", ".")
	tok("ghr", "github-refresh-token", "long", f.ghr(), "", "")
	tok("akia", "aws-access-key-id", "long", f.akia(), "AWS_ACCESS_KEY_ID=", "")
	tok("akia quoted", "aws-access-key-id", "long", f.akia(), `"`, `"`)
	tok("asia", "aws-temporary-access-key", "short", f.asia(), "", "")
	tok("openai legacy", "openai-api-key", "long", f.openaiLegacy(), "", "")
	tok("openai project", "openai-api-key", "long", f.openaiProject(), "OPENAI_API_KEY=", "")
	tok("openai service account", "openai-api-key", "long", f.openaiSvc(), "", "")
	tok("anthropic api03", "anthropic-api-key", "long", f.anthropic("api03"), "", "")
	tok("anthropic oauth", "anthropic-api-key", "long", f.anthropic("oat01"), "echo ", "")
	tok("slack bot", "slack-bot-token", "long", f.slack('b', true), "", "")
	tok("slack bot short shape", "slack-bot-token", "long", f.slack('b', false), "", "")
	tok("slack user", "slack-user-token", "long", f.slack('p', true), "", "")
	tok("slack workspace", "slack-workspace-token", "long", f.slack('a', false), "", "")
	tok("slack refresh", "slack-refresh-token", "long", f.slack('r', false), "", "")
	tok("slack session", "slack-session-token", "session", f.slack('s', false), "", "")
	tok("gitlab pat", "gitlab-pat", "long", f.glpat(), "", "")
	tok("gitlab pat classic", "gitlab-pat", "long", "glpat-"+f.s(alnum, 20), "", "")
	tok("npm", "npm-token", "long", f.npm(), "//registry.npmjs.org/:_authToken=", "")
	tok("pypi", "pypi-token", "long", f.pypi(), "password = ", "")
	tok("pypi macaroon", "pypi-token", "long", "pypi-AgEIcHlwaS5vcmc"+f.s(b64url, 70), "", "")
	tok("google api key", "google-api-key", "long", f.aiza(), "key=", "&q=1")
	tok("rsa private key", "private-key", "long", f.pem("RSA", "\n"), "", "\n")
	tok("openssh key json escaped", "private-key", "long", f.pem("OPENSSH", `\n`), `{"k":"`, `"}`)
	tok("private key truncated", "private-key", "long", "-----BEGIN PRIVATE KEY-----\n"+f.s(b64, 120), "", "")
	tok("jwt 1h", "jwt", "short", f.jwt(3600, true, 43), "", "")
	tok("jwt 24h is short", "jwt", "short", f.jwt(86400, true, 342), "", "")
	tok("jwt 30d", "jwt", "long", f.jwt(30*86400, true, 43), "", "")
	tok("jwt without exp", "jwt", "long", f.jwt(0, false, 43), "", "")
	tok("jwt without iat", "jwt", "unknown", f.jwtNoIat(), "", "")
	tok("bearer jwt", "jwt", "short", f.jwt(3600, true, 43), "Authorization: Bearer ", "")
	tok("bearer opaque", "bearer-token", "unknown", f.s(alnum, 40), "Authorization: Bearer ", "")
	tok("bearer ghp", "github-pat-classic", "long", f.ghp(), "Bearer ", "")
	pw := f.password()
	tok("url password", "url-password", "unknown", pw, "https://deploy:", "@git.corp.internal/acme/agent.git")
	tok("db url password", "url-password", "unknown", f.password(), "postgres://app:", "@db:5432/app")
	ghs := f.ghs()
	tok("url x-access-token", "github-app-installation-token", "short", ghs, "https://x-access-token:", "@github.com/o/r.git")
	tok("extraheader", "github-app-installation-token", "short", basic("x-access-token", f.ghs()), "AUTHORIZATION: basic ", "")
	tok("basic unknown password", "basic-auth", "unknown", basic("ci", f.password()), "Authorization: Basic ", "")
	tok("docker auth", "basic-auth", "unknown", basic("robot", f.password()), `{"auths":{"ghcr.io":{"auth":"`, `"}}}`)
	tok("stripe via gitleaks", "stripe-access-token", "long", "sk_"+"live_"+f.s(alnum, 24), "", "")
	tok("huggingface via gitleaks", "huggingface-access-token", "long", "hf_"+f.s(upper+lowerS, 34), "HF_TOKEN=", "")
	tok("sendgrid via gitleaks", "sendgrid-api-token", "long", "SG."+f.s(b64url, 22)+"."+f.s(b64url, 43), "", "")
	tok("generic api key via gitleaks", "generic-api-key", "unknown", f.hex(32), "api_key = '", "'")
	tok("mcp arg", "github-oauth-token", "long", f.gho(), `["--token", "`, `"]`)
	tok("ghp before underscore word", "github-pat-classic", "long", f.ghp(), "x=", "")

	// Names give gitleaks' vendor rules their context and generic secrets
	// their meaning.
	add("adafruit needs the name", "ADAFRUIT_KEY", f.s(lowerS+digits, 32), "adafruit-api-key", "unknown", "")
	add("password under name", "DB_PASSWORD", f.password(), "generic-secret", "unknown", "")
	add("short password under name", "DB_PASS", "hunter22x", "generic-secret", "unknown", "")
	add("hex token under name", "API_TOKEN", f.hex(40), "generic-secret", "unknown", "")
	add("uuid client secret", "clientSecret", f.uuid(), "generic-secret", "unknown", "")
	add("x-api-key header", "X-API-Key", f.s(b64url, 32), "generic-secret", "unknown", "")
	add("aws secret key", "AWS_SECRET_ACCESS_KEY", f.s(b64, 40), "generic-secret", "unknown", "")
	add("session secret hex", "SESSION_SECRET", f.hex(64), "generic-secret", "unknown", "")
	add("user:password credentials", "REGISTRY_CREDENTIALS", "robot:"+f.s(alnum, 20), "generic-secret", "unknown", "")
	add("default of a reference", "GH_TOKEN", "${GH_TOKEN:-"+f.ghp()+"}", "github-pat-classic", "long", "")
	add("known token under any name", "FOO", f.ghu(), "github-app-user-token", "short", "")
	return cs
}

func negatives(f *faker) []tcase {
	var cs []tcase
	lone := []string{
		"true", "false", "production", "development", "1", "8080", "1h", "us-east-1",
		"https://example.com", "https://api.github.com/repos/acme/agent", "ghcr.io/acme/agent:1.4.2",
		"node:20-bookworm", "/usr/local/bin/node", "~/.config/gh/hosts.yml", "${GITHUB_TOKEN}",
		"${{ secrets.GH_PAT }}", "$OPENAI_API_KEY", "${input:github_token}", "${localEnv:GITHUB_TOKEN}",
		"changeme", "xxx", "<your-token>", "your-api-key-here", "dummy", "example-token-123",
		"aaaaaaaaaaaaaaaaaaaaaaaa", "ghp_" + strings.Repeat("x", 36), "AKIAIOSFODNN7EXAMPLE",
		"sk-your-openai-key-goes-here-and-is-long-enough", "-----BEGIN PRIVATE KEY-----",
		"https://user:password@example.com", "https://git:${TOKEN}@github.com/o/r", "Bearer ${TOKEN}",
		"Bearer <token>", "task-runner-for-the-new-build-system-abcdefg", "risk-assessment-" + f.s(lowerS, 30),
		"api.openai.com", "user@example.com", "1.2.3", "npx -y @modelcontextprotocol/server-github",
		"docker run -i --rm -e GITHUB_PERSONAL_ACCESS_TOKEN ghcr.io/github/github-mcp-server",
		"Authorization: Basic dXNlcjpwYXNz", "application/json", "eyJub3QiOiJhIGp3dCJ9",
		"sk-ant-" + strings.Repeat("a", 40), "xoxb-" + strings.Repeat("1", 20),
	}
	for i, v := range lone {
		cs = append(cs, tcase{name: fmt.Sprintf("lone %d %.20s", i, v), value: v})
	}
	named := [][2]string{
		{"NODE_ENV", "production"}, {"DEBUG", "true"}, {"GITHUB_TOKEN_PATH", "/run/secrets/gh"},
		{"TOKEN_URL", "https://auth.corp.internal/oauth/token"}, {"apiKeyHelper", "~/bin/get-key.sh"},
		{"PWD", "/home/agent/work"}, {"DB_PASSWORD", "postgres"}, {"API_KEY", "your_api_key"},
		{"SECRET_KEY_BASE", "${SECRET_KEY_BASE}"}, {"env_key", "OPENAI_API_KEY"},
		{"PASSWORD", "********"}, {"AUTH_TYPE", "oauth2"}, {"GH_TOKEN", "${localEnv:GH_TOKEN}"},
		{"ANTHROPIC_API_KEY", "${{ secrets.ANTHROPIC_API_KEY }}"}, {"TOKEN", "changeme123"},
		{"IMAGE", "ghcr.io/acme/agent@sha256:" + f.hex(64)}, {"API_KEY", "1234567890abcdef"},
		{"bearer_token_env_var", "GITHUB_TOKEN"}, {"SECRET_NAME", "prod/db/password"},
		{"AUTH_SERVER", "https://login.corp.internal"}, {"PASSWORD_FILE", "/run/secrets/db"},
		{"CREDENTIALS", "/var/run/secrets/gcp/key.json"}, {"TOKEN", "vault:secret/data/ci#token"},
		{"PRIVATE_KEY", "op://ci/deploy-key/private key"}, {"API_TOKEN", "Bearer ${API_TOKEN}"},
		{"SECRET", "my secret phrase with spaces"}, {"ACCESS_TOKEN", "access_token_placeholder"},
		{"CLIENT_SECRET", "client.secret.value"}, {"TOKEN", "abcdefghijklmnop"},
	}
	for _, kv := range named {
		cs = append(cs, tcase{name: "named " + kv[0] + "=" + kv[1], key: kv[0], value: kv[1]})
	}
	return cs
}

func detect(c tcase) (kind, lifetime string) {
	var r = Detect(c.value)
	if c.key != "" {
		r = DetectNamed(c.key, c.value)
	}
	if r == nil {
		return "", ""
	}
	return r.Kind, r.Lifetime
}

func TestDetect(t *testing.T) {
	f := newFaker(1)
	cases := append(positives(f), negatives(f)...)
	if n := len(cases); n < 60 {
		t.Fatalf("only %d cases", n)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			kind, lifetime := detect(c)
			if diff := cmp.Diff([2]string{c.kind, c.lifetime}, [2]string{kind, lifetime}); diff != "" {
				t.Errorf("detect(%q, %q) kind/lifetime (-want +got):\n%s", c.key, c.value, diff)
			}
			if c.secret == "" {
				return
			}
			ms := Scan(c.value)
			if len(ms) != 1 {
				t.Fatalf("Scan found %d matches, want 1: %+v", len(ms), ms)
			}
			if diff := cmp.Diff(c.secret, c.value[ms[0].Start:ms[0].End]); diff != "" {
				t.Errorf("Scan span (-want +got):\n%s", diff)
			}
		})
	}
}

func TestScanOrderedNonOverlapping(t *testing.T) {
	f := newFaker(2)
	a, b, c := f.ghp(), f.akia(), f.slack('b', true)
	text := fmt.Sprintf("export B=%s\nexport A=%s # and %s\nurl=https://u:%s@h.corp/x", b, a, c, f.password())
	got := []string{}
	for _, m := range Scan(text) {
		got = append(got, m.Kind)
	}
	want := []string{"aws-access-key-id", "github-pat-classic", "slack-bot-token", "url-password"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("kinds (-want +got):\n%s", diff)
	}
	checkMatches(t, text, Scan(text))
}

// checkMatches asserts Scan's contract: in bounds, sorted, disjoint.
func checkMatches(t testing.TB, text string, ms []Match) {
	t.Helper()
	last := 0
	for _, m := range ms {
		if m.Start < last || m.End <= m.Start || m.End > len(text) {
			t.Fatalf("bad match %+v after %d in %q", m, last, text)
		}
		if m.Kind == "" || m.Lifetime == "" || len(m.Fingerprint) != 12 {
			t.Fatalf("incomplete match %+v", m)
		}
		last = m.End
	}
}

func TestFingerprint(t *testing.T) {
	got := []string{Fingerprint("ghp_example"), Fingerprint("ghp_example"), Fingerprint("ghp_examplf")}
	want := []string{"cb8e6b3626ae", "cb8e6b3626ae"}
	if diff := cmp.Diff(want, got[:2]); diff != "" {
		t.Errorf("Fingerprint not stable (-want +got):\n%s", diff)
	}
	if got[2] == got[0] {
		t.Errorf("different secrets share fingerprint %s", got[0])
	}
	// The same token keeps its fingerprint wherever it is written.
	f := newFaker(3)
	tok := f.ghs()
	fps := map[string]bool{}
	for _, text := range []string{tok, "GITHUB_TOKEN=" + tok, "AUTHORIZATION: basic " + basic("x-access-token", tok), "https://x-access-token:" + tok + "@github.com/o/r"} {
		ms := Scan(text)
		if len(ms) != 1 {
			t.Fatalf("Scan(%q) = %+v", text, ms)
		}
		fps[ms[0].Fingerprint] = true
	}
	if diff := cmp.Diff(map[string]bool{Fingerprint(tok): true}, fps); diff != "" {
		t.Errorf("fingerprints across contexts (-want +got):\n%s", diff)
	}
	key := f.pem("EC", "\n")
	if a, b := Detect(key), Detect(strings.ReplaceAll(key, "\n", `\n`)); a == nil || b == nil || a.Fingerprint != b.Fingerprint {
		t.Errorf("private key fingerprint differs with escaped newlines: %+v %+v", a, b)
	}
}

func TestSensitiveName(t *testing.T) {
	cases := map[string]bool{
		"GITHUB_TOKEN": true, "GH_PAT": true, "DB_PASSWORD": true, "DB_PASS": true, "apiKey": true,
		"X-API-Key": true, "OPENAI_API_KEY": true, "clientSecret": true, "Authorization": true,
		"AWS_SECRET_ACCESS_KEY": true, "SSH_PRIVATE_KEY": true, "experimental_bearer_token": true,
		"GITHUBTOKEN": true, "SECRET_KEY_BASE": true, "COOKIE": true, "LICENSE_KEY": true,
		"AUTH": true, "REGISTRY_CREDENTIALS": true, "AWS_ACCESS_KEY_ID": true, "TAILSCALE_AUTHKEY": true, "TS_AUTHKEY": true,
		"SESSION_TTL": false,
		"NODE_ENV":    false, "PATH": false, "PWD": false, "AUTHOR": false, "TOKENIZER_PATH": false,
		"GITHUB_TOKEN_PATH": false, "TOKEN_URL": false, "apiKeyHelper": false, "PASSWORD_FILE": false,
		"bearer_token_env_var": false, "env_key": false, "PRIMARY_KEY": false,
		"KEYBOARD_LAYOUT": false, "AUTH_TYPE": false, "SECRET_NAME": false, "": false,
		"JWT_PUBLIC_KEY": false, "SSH_PUBKEY": false, "AUTH_PUBLIC_KEY_PEM": false, "jwtPublicKey": false,
		"PUBLIC_KEY_PASSPHRASE": true, "SECRET_PUBLIC_KEY": true, "JWT_PRIVATE_KEY": true,
	}
	for name, want := range cases {
		if got := SensitiveName(name); got != want {
			t.Errorf("SensitiveName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestIsReference(t *testing.T) {
	for v, want := range map[string]bool{
		"${GITHUB_TOKEN}": true, "${{ secrets.PAT }}": true, "$TOKEN": true, "${input:token}": true,
		"$(cat /run/secrets/t)": true, " ${localEnv:GH_TOKEN} ": true,
		"ghp_abc": false, "prefix-${X}": false, "": false,
	} {
		if got := IsReference(v); got != want {
			t.Errorf("IsReference(%q) = %v, want %v", v, got, want)
		}
	}
}

func TestRulesLoaded(t *testing.T) {
	e := getEngine()
	if e.err != nil {
		t.Fatalf("rules failed to load: %v", e.err)
	}
	if len(e.rules) < 200 {
		t.Errorf("only %d rules loaded", len(e.rules))
	}
	for _, r := range e.rules {
		if r.re == nil || r.id == "" || r.lifetime == "" {
			t.Errorf("incomplete rule %+v", r)
		}
	}
}

// Scan runs from every collector's worker goroutine at once.
func TestScanConcurrent(t *testing.T) {
	f := newFaker(13)
	texts := []string{f.ghp(), "https://u:" + f.password() + "@h.corp/x", "api_key = '" + f.s(alnum, 32) + "'", cleanText}
	want := make([][]Match, len(texts))
	for i, s := range texts {
		want[i] = Scan(s)
	}
	done := make(chan error)
	for g := 0; g < 4; g++ {
		go func() {
			for i, s := range texts {
				if diff := cmp.Diff(want[i], Scan(s)); diff != "" {
					done <- fmt.Errorf("Scan(%q) differs under concurrency (-want +got):\n%s", s, diff)
					return
				}
			}
			done <- nil
		}()
	}
	for g := 0; g < 4; g++ {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
