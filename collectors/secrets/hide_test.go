package secrets

import (
	"fmt"
	"github.com/sandbox-audit/sandbox-audit/model"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestHide: what Hide hides in the places configuration quotes commands,
// URLs and headers, and what it leaves.
func TestHide(t *testing.T) {
	f := newFaker(18)
	ghp, opaque, pw, hexTok, jwt := f.ghp(), f.s(alnum, 32), f.password(), f.hex(40), f.jwt(3600, true, 43)
	mk := func(kind, secret string) string {
		r := Detect(secret)
		fp := Fingerprint(secret)
		if r != nil {
			fp = r.Fingerprint
		}
		return "[REDACTED:" + kind + ":" + fp + "]"
	}
	type want struct {
		out   string
		kinds []string
	}
	for _, c := range []struct {
		name, in string
		want     want
	}{
		{"allow rule with a bearer token", `Bash(curl -H "Authorization: Bearer ` + ghp + `":*)`,
			want{`Bash(curl -H "Authorization: Bearer ` + mk("github-pat-classic", ghp) + `":*)`, []string{"github-pat-classic"}}},
		{"opaque token in a header", `curl -H "Authorization: token ` + opaque + `" https://api.corp.internal`,
			want{`curl -H "Authorization: token ` + mk("bearer-token", opaque) + `" https://api.corp.internal`, []string{"bearer-token"}}},
		{"flag with =", "deploy --token=" + hexTok + " --verbose",
			want{"deploy --token=" + mk("generic-secret", hexTok) + " --verbose", []string{"generic-secret"}}},
		{"flag then value", "gh auth --api-key " + hexTok,
			want{"gh auth --api-key " + mk("generic-secret", hexTok), []string{"generic-secret"}}},
		{"KEY=value", "Bash(DB_PASSWORD=" + pw + " psql:*)",
			want{"Bash(DB_PASSWORD=" + mk("generic-secret", pw) + " psql:*)", []string{"generic-secret"}}},
		{"url userinfo", "git push https://deploy:" + pw + "@git.corp.internal/r.git",
			want{"git push https://deploy:" + mk("url-password", pw) + "@git.corp.internal/r.git", []string{"url-password"}}},
		{"checkout token in a url", "https://x-access-token:" + opaque + "@github.com/o/r",
			want{"https://x-access-token:" + mk("github-checkout-token", opaque) + "@github.com/o/r", []string{"github-checkout-token"}}},
		{"token as url user", "https://" + ghp + "@github.com/o/r.git",
			want{"https://" + mk("github-pat-classic", ghp) + "@github.com/o/r.git", []string{"github-pat-classic"}}},
		{"query secret", "https://search.corp.internal/mcp?api_key=" + hexTok + "&q=1",
			want{"https://search.corp.internal/mcp?api_key=" + mk("generic-secret", hexTok) + "&q=1", []string{"generic-secret"}}},
		{"jwt in json", `{"token": "` + jwt + `"}`,
			want{`{"token": "` + mk("jwt", jwt) + `"}`, []string{"jwt"}}},
		{"references stay", `curl -H "Authorization: Bearer ${TOKEN}" https://u:$PASS@h.corp/x?key=${{ secrets.K }}`,
			want{`curl -H "Authorization: Bearer ${TOKEN}" https://u:$PASS@h.corp/x?key=${{ secrets.K }}`, nil}},
		{"words stay", "TOKEN_REFRESH_ENABLED=true PASSWORD=changeme API_KEY_FILE=/run/secrets/k npm test",
			want{"TOKEN_REFRESH_ENABLED=true PASSWORD=changeme API_KEY_FILE=/run/secrets/k npm test", nil}},
		{"placeholder password", "https://user:password@example.com/",
			want{"https://user:password@example.com/", nil}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, found := Hide(c.in)
			var kinds []string
			for _, fd := range found {
				kinds = append(kinds, fd.Kind)
			}
			if diff := cmp.Diff(c.want, want{out, kinds}, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("Hide(%q) (-want +got):\n%s", c.in, diff)
			}
		})
	}
}

func TestHideArgs(t *testing.T) {
	f := newFaker(19)
	ghp, hexTok, opaque := f.ghp(), f.hex(40), f.s(alnum, 32)
	args := []string{"run", "-e", "GITHUB_TOKEN=" + ghp, "--api-key", hexTok, "--header", "Authorization: " + opaque, "--note", "again " + hexTok, "https://u:" + opaque + "@h.corp"}
	out, found := HideArgs(args)
	joined := strings.Join(out, " ")
	for _, s := range []string{ghp, hexTok, opaque} {
		if w, ok := leaks(joined, s, 8); ok {
			t.Errorf("HideArgs leaks %q: %q", w, joined)
		}
	}
	var names []string
	for _, fd := range found {
		names = append(names, fd.Kind+" "+fd.Name)
	}
	want := []string{"github-pat-classic GITHUB_TOKEN", "generic-secret api-key", "bearer-token Authorization", "url-password password"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("found (-want +got):\n%s", diff)
	}
	if out[0] != "run" || out[1] != "-e" || !strings.HasPrefix(out[2], "GITHUB_TOKEN=[REDACTED:") {
		t.Errorf("args not kept: %q", out)
	}
}

// TestHideArgsMCP is the MCP collector's own case: every way a server's
// args carry a secret, and what stays.
func TestHideArgsMCP(t *testing.T) {
	f := newFaker(20)
	ghp, apiKey, openai, bearer, pw := f.ghp(), f.s(alnum, 18), f.openaiLegacy(), f.s(alnum, 24), f.password()
	slack := "xoxb-not-a-known-format-but-random-" + f.hex(6)
	m := func(name, v string) string { return marker(*DetectNamed(name, v), v) }
	in := []string{
		"--token", ghp, "--api-key=" + apiKey, "-e", "OPENAI_API_KEY=" + openai,
		"-e", "GITHUB_TOKEN", "--token", "${GITHUB_TOKEN}", "--header", "Authorization: Bearer " + bearer,
		"https://u:" + pw + "@h.example/x?key=1", "positional-" + ghp, "SLACK_TOKEN=" + slack,
		"--verbose", "plain",
	}
	want := []string{
		"--token", m("", ghp), "--api-key=" + m("api-key", apiKey), "-e", "OPENAI_API_KEY=" + m("", openai),
		"-e", "GITHUB_TOKEN", "--token", "${GITHUB_TOKEN}", "--header", "Authorization: Bearer " + marker(*Authorization("Bearer " + bearer), bearer),
		"https://u:" + marker(model.SecretRef{Kind: "url-password", Fingerprint: Fingerprint(pw)}, pw) + "@h.example/x?key=1", "positional-" + m("", ghp),
		"SLACK_TOKEN=" + m("SLACK_TOKEN", slack),
		"--verbose", "plain",
	}
	got, finds := HideArgs(in)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("hidden args (-want +got):\n%s", diff)
	}
	var what []string
	for _, fd := range finds {
		what = append(what, fd.Name)
	}
	if diff := cmp.Diff([]string{"token", "api-key", "OPENAI_API_KEY", "Authorization", "password", "", "SLACK_TOKEN"}, what); diff != "" {
		t.Errorf("found (-want +got):\n%s", diff)
	}
}

func TestDefault(t *testing.T) {
	for in, want := range map[string][2]string{
		"${DB_PASSWORD:-postgres}": {"postgres", "ok"}, "${X-abc}": {"abc", "ok"}, "${X:-}": {"", "ok"},
		"${X}": {"", ""}, "${X:?required}": {"", ""}, "${{ secrets.X }}": {"", ""}, "${input:tok}": {"", ""},
		"${A:-${B}}": {"", ""}, "prefix ${X:-y}": {"", ""}, " ${T:-v} ": {"v", "ok"},
	} {
		def, ok := Default(in)
		got := [2]string{def, ""}
		if ok {
			got[1] = "ok"
		}
		if got != want {
			t.Errorf("Default(%q) = %q, want %q", in, got, want)
		}
	}
	f := newFaker(21)
	if r := DetectNamed("API_KEY", "${API_KEY:-"+f.hex(40)+"}"); r == nil || r.Kind != "generic-secret" {
		t.Errorf("a random default is a literal secret: %+v", r)
	}
	if r := DetectNamed("POSTGRES_PASSWORD", "${POSTGRES_PASSWORD:-postgres}"); r != nil {
		t.Errorf("a placeholder default is not a secret: %+v", r)
	}
}

func TestSensitiveEnv(t *testing.T) {
	for _, c := range []struct {
		name, value string
		has, want   bool
	}{
		{"TOKEN_REFRESH_ENABLED", "true", true, false},
		{"AUTH_MODE", "oauth", true, false},
		{"API_VERSION", "2024-01-01", true, false},
		{"ALLOWED_USERS", "alice,bob", true, false},
		{"GITHUB_TOKEN_PATH", "/run/secrets/gh", true, false},
		{"DB_PASSWORD_FILE", "/run/secrets/db", true, false},
		{"MAX_TOKENS", "4096", true, false},
		{"USE_AUTH", "true", true, false},
		{"DB_PASSWORD", "", true, false},
		{"AUTH_SERVER", "https://login.corp.internal", true, false},
		{"GITHUB_TOKEN", "", false, true},                                    // ARG GITHUB_TOKEN: filled at build time
		{"GITHUB_TOKEN", "${GH_TOKEN}", true, true},                          // forwards a token
		{"DB_PASSWORD", "${DB_PASSWORD:-}", true, true},                      // forwards the host's
		{"REDIS_TLS_KEY", "${REDIS_TLS_KEY:-/certs/redis.key}", true, false}, // a path
		{"POSTGRES_PASSWORD", "123456", true, true},                          // a weak password, not a number
		{"DB_PASSWORD", "hunter2hunter2", true, true},                        // a literal
		{"API_KEY", "${API_KEY:-abc123xyz}", true, true},                     // a literal default
		{"NODE_ENV", "production", true, false},                              // not a credential name
	} {
		if got := SensitiveEnv(c.name, c.value, c.has); got != c.want {
			t.Errorf("SensitiveEnv(%s, %q, %v) = %v, want %v", c.name, c.value, c.has, got, c.want)
		}
	}
}

// TestRedactFacts: every string of a model value is redacted, raw
// documents included, and kinds, fingerprints and locations are kept.
func TestRedactFacts(t *testing.T) {
	ghp := newFaker(22).ghp()
	doc := &model.Document{
		Agents:      []model.Agent{{Tool: "claude-code", Allow: []model.Str{{Value: "Bash(gh --token " + ghp + ":*)", Loc: model.Loc{File: "f", Line: 3}}}}},
		Credentials: []model.Credential{{SecretRef: model.SecretRef{Kind: "github-pat-classic", Fingerprint: "abc"}, Context: "x " + ghp}},
		Raw:         []model.RawDoc{{File: "f", Content: map[string]any{"a": []any{"t=" + ghp, 3}, "b": ghp}}},
		Workflows:   []model.Workflow{{Jobs: []model.Job{{AgentSteps: []model.AgentStep{{Inputs: map[string]model.Str{"k": {Value: ghp}}}}}}}},
	}
	RedactFacts(doc)
	out := fmt.Sprintf("%+v", *doc)
	if w, ok := leaks(out, ghp, 8); ok {
		t.Fatalf("RedactFacts left %q in %s", w, out)
	}
	if doc.Credentials[0].Fingerprint != "abc" || doc.Agents[0].Allow[0].Line != 3 || !strings.HasPrefix(doc.Agents[0].Allow[0].Value, "Bash(gh --token [REDACTED:") {
		t.Errorf("RedactFacts changed what it must keep: %+v", doc)
	}
}

func TestWeakSecret(t *testing.T) {
	for _, c := range []struct {
		name, value string
		want        bool
	}{
		{"POSTGRES_PASSWORD", "postgres", true},
		{"POSTGRES_PASSWORD", "${POSTGRES_PASSWORD:-postgres}", true},
		{"POSTGRES_PASSWORD", "123456", true},
		{"MINIO_ROOT_PASSWORD", "minioadmin123", true},
		{"REDIS_AUTH_PASSWORD", "${REDIS_AUTH:-myredissecret}", true},
		{"NEXTAUTH_SECRET", "mysecret", true},
		{"SPRING_DATASOURCE_PASSWORD", "medvault_password", true},
		{"KHOJ_ADMIN_PASSWORD", "password", true},
		{"POSTGRES_PASSWORD", "${POSTGRES_PASSWORD}", false},   // operator input
		{"POSTGRES_PASSWORD", "${POSTGRES_PASSWORD:-}", false}, // no default
		{"DB_PASSWORD", "xK9#mQ2$vL7pR4wN", false},             // random: a secret, not weak
		{"HOST_PWD", "${HOST_PWD:-$(pwd)}", false},             // the host's working directory
		{"DB_PWD", "${DB_PWD:-$(cat /run/pw)}", false},         // a command's output, not a literal
		{"DB_PWD", "${DB_PWD:-dbpwd}", true},
		{"POSTGRES_PASSWORD_FILE", "/run/secrets/db", false}, // a file
		{"POSTGRES_USER", "postgres", false},                 // not a password
		{"API_KEY", "changeme", false},                       // a key's placeholder: not a password
		{"DB_PASSWORD", "********", false},                   // a mask
	} {
		if got := WeakSecret(c.name, c.value); got != c.want {
			t.Errorf("WeakSecret(%s, %q) = %v, want %v", c.name, c.value, got, c.want)
		}
	}
}
