package github

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sandbox-audit/sandbox-audit/internal/ghtest"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// Tests of answers a hostile or broken API (a --github-url, a proxy) may
// give: redirects elsewhere, secrets in error bodies, null, slow and
// endless bodies.

// full reaches every endpoint the collector calls.
func full() *ghtest.Repo {
	return &ghtest.Repo{
		RulePages: []string{`[{"type": "pull_request", "ruleset_source_type": "Repository", "ruleset_source": "o/full", "ruleset_id": 5,
			"parameters": {"required_approving_review_count": 1, "dismiss_stale_reviews_on_push": false, "require_code_owner_review": false, "require_last_push_approval": false, "required_review_thread_resolution": false}}]`},
		Rulesets:            map[int64]string{5: `{"id": 5, "name": "main", "target": "branch", "enforcement": "active", "bypass_actors": []}`},
		Protected:           true,
		Protection:          `{"required_pull_request_reviews": {"required_approving_review_count": 1}, "enforce_admins": {"enabled": true}}`,
		WorkflowPermissions: `{"default_workflow_permissions": "read", "can_approve_pull_request_reviews": false}`,
		ActionsPermissions:  `{"enabled": true, "allowed_actions": "selected", "sha_pinning_required": true}`,
		CopilotVariables:    map[string]string{"COPILOT_AGENT_FIREWALL_ENABLED": "true"},
		Files:               map[string]string{".github/CODEOWNERS": "* @o/admins\n", ".github/workflows/ci.yml": "on: push\n"},
	}
}

// endpoints are the paths (below repos/o/full) the collector asks for;
// one ending in / is a prefix. "orgs" is ListRepos' organisation listing,
// "installations" the organisation's app installations.
var endpoints = []string{"", "rules/branches/main", "rulesets/5", "branches/main", "branches/main/protection",
	"actions/permissions/workflow", "actions/permissions", "environments", "environments/copilot/variables",
	"git/trees/main", "git/blobs/", "orgs", "installations"}

// is says whether p (a path below /api/v3/) is endpoint ep.
func is(p, ep string) bool {
	switch {
	case ep == "orgs":
		return p == "orgs/o/repos"
	case ep == "installations":
		return p == "orgs/o/installations"
	case ep == "":
		return p == "repos/o/full"
	case strings.HasSuffix(ep, "/"):
		return strings.HasPrefix(p, "repos/o/full/"+ep)
	}
	return p == "repos/o/full/"+ep
}

func fullServer(t *testing.T) *ghtest.Server {
	s := ghtest.New(t, token, map[string]*ghtest.Repo{"o/full": full()})
	s.Orgs["o"] = []string{"full"}
	s.Installations["o"] = `{"total_count": 0, "installations": []}`
	return s
}

// run reads o/full (its files included), or lists organisation o when ep
// is "orgs", and returns every message it gave: the error's and errors[]'.
func run(t *testing.T, s *ghtest.Server, ep string, client *http.Client) (*model.Repository, []model.Error, error, string) {
	t.Helper()
	opt := Options{Owner: "o", Repo: "full", APIURL: s.APIURL(), Token: token, Client: client, Files: t.TempDir(), Match: func(string) bool { return true }}
	if ep == "orgs" {
		_, err := ListRepos(context.Background(), opt, false, false)
		if err != nil {
			return nil, nil, err, err.Error()
		}
		return nil, nil, nil, ""
	}
	r, errs, err := Collect(context.Background(), opt)
	var all []string
	if err != nil {
		all = append(all, err.Error())
	}
	for _, e := range errs {
		all = append(all, e.File+": "+e.Message)
	}
	return r, errs, err, strings.Join(all, "\n")
}

// TestRedirectKeepsToken: an API answering with a redirect to another
// host (or port, or scheme) never gets the token sent there — the request
// is refused — whichever endpoint redirects and however (go-github
// follows some 301s itself); a redirect on the API's own host is followed.
func TestRedirectKeepsToken(t *testing.T) {
	var mu sync.Mutex
	var reached, withAuth int
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		reached++
		if r.Header.Get("Authorization") != "" {
			withAuth++
		}
		w.WriteHeader(200)
		fmt.Fprint(w, `{}`)
	}))
	defer other.Close()
	s := fullServer(t)
	for _, ep := range endpoints {
		for _, code := range []int{301, 302, 307} {
			hit := false
			s.Intercept = func(w http.ResponseWriter, r *http.Request, p string) bool {
				if !is(p, ep) {
					return false
				}
				hit = true
				w.Header().Set("Location", other.URL+r.URL.RequestURI())
				w.WriteHeader(code)
				return true
			}
			_, _, err, msgs := run(t, s, ep, nil)
			if !hit {
				t.Errorf("%q %d: never asked for", ep, code)
			}
			if (ep == "" || ep == "orgs") && (err == nil || !strings.Contains(err.Error(), "refused")) {
				t.Errorf("%q %d: the redirect elsewhere was not refused: %v", ep, code, err)
			}
			if strings.Contains(msgs, token) {
				t.Errorf("%q %d: the token is in a message", ep, code)
			}
		}
	}
	if withAuth > 0 || reached > 0 {
		t.Errorf("the other host got %d requests, %d of them with the Authorization header", reached, withAuth)
	}

	// A redirect within the API (a renamed repository) is followed.
	s.Intercept = func(w http.ResponseWriter, r *http.Request, p string) bool {
		if p != "repos/o/old" {
			return false
		}
		w.Header().Set("Location", s.APIURL()+"repos/o/full")
		w.WriteHeader(301)
		return true
	}
	r, _, err := Collect(context.Background(), Options{Owner: "o", Repo: "old", APIURL: s.APIURL(), Token: token})
	if err != nil || r.DefaultBranch != "main" {
		t.Errorf("a redirect on the API's host: %+v, %v", r, err)
	}
}

// planted is what a hostile answer says: none of it may be printed.
var planted = []string{"Hunter2", "ghp_" + "Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LzXcVb", "AKIA" + "Z7QW3RTY5UIO2PLK"}

// TestErrorsRedacted: whatever an error answer holds (its JSON message,
// its errors, its documentation URL, the status line's reason phrase, a
// value the decoder chokes on), the messages name the fact and the status
// only, on every endpoint.
func TestErrorsRedacted(t *testing.T) {
	secret := "password=" + strings.Join(planted, " ")
	answers := map[string]func(w http.ResponseWriter){
		"500 with a message": func(w http.ResponseWriter) {
			w.WriteHeader(500)
			fmt.Fprintf(w, `{"message": %q, "errors": [{"resource": %q, "code": "custom", "message": %q}], "documentation_url": "https://docs.github.com/%s"}`, secret, secret, secret, secret)
		},
		"secondary rate limit": func(w http.ResponseWriter) {
			w.WriteHeader(403)
			fmt.Fprintf(w, `{"message": %q, "documentation_url": "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"}`, secret)
		},
		"primary rate limit far off": func(w http.ResponseWriter) {
			w.Header().Set("X-RateLimit-Remaining", "0")
			w.Header().Set("X-RateLimit-Reset", fmt.Sprint(time.Now().Add(time.Hour).Unix()))
			w.WriteHeader(403)
			fmt.Fprintf(w, `{"message": %q}`, secret)
		},
		"reason phrase": func(w http.ResponseWriter) {
			c, buf, err := http.NewResponseController(w).Hijack()
			if err != nil {
				panic(err)
			}
			defer c.Close()
			fmt.Fprintf(buf, "HTTP/1.1 500 %s\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", secret)
			buf.Flush()
		},
		"undecodable value": func(w http.ResponseWriter) {
			w.WriteHeader(200)
			fmt.Fprintf(w, `{"name": "full", "created_at": %q, "updated_at": %q, "total_count": %q}`, secret, secret, secret)
		},
	}
	s := fullServer(t)
	for name, answer := range answers {
		for _, ep := range endpoints {
			hit := false
			s.Intercept = func(w http.ResponseWriter, r *http.Request, p string) bool {
				if !is(p, ep) {
					return false
				}
				hit = true
				answer(w)
				return true
			}
			_, _, err, msgs := run(t, s, ep, nil)
			if !hit {
				t.Errorf("%s, %q: never asked for", name, ep)
			}
			for _, p := range planted {
				if strings.Contains(msgs, p) {
					t.Errorf("%s, %q: %q printed in\n%s", name, ep, p, msgs)
				}
			}
			if name == "500 with a message" && ep == "" && (err == nil || !strings.Contains(err.Error(), "repository o/full: GitHub answered 500")) {
				t.Errorf("the repository's error does not say the status: %v", err)
			}
		}
	}
}

// TestNullAnswers: an answer of null (or an array of nulls) where an
// object is expected leaves its fact unknown with an errors[] entry, as a
// 403 does — no panic, no value made up.
func TestNullAnswers(t *testing.T) {
	for _, tt := range []struct {
		ep, body string
		// unknown checks that the fact is unknown; msg is the errors[]
		// entry or error expected ("" none).
		unknown func(*model.Repository) bool
		msg     string
	}{
		{"", `null`, nil, "repository o/full: GitHub answered null"},
		{"rules/branches/main", `null`, func(r *model.Repository) bool { return r.Review == nil }, "the rules of branch main not read (GitHub answered null)"},
		{"rules/branches/main", `[null]`, func(r *model.Repository) bool { return r.Review == nil }, "the rules of branch main not read (GitHub's answer is not the JSON expected)"},
		// o/full's ruleset requires a review: who may bypass it decides.
		{"rulesets/5", `null`, func(r *model.Repository) bool { return r.Review != nil && !r.Review.BypassKnown },
			"who may bypass the rules of branch main not read (ruleset 5: its answer not read: GitHub answered null): it needs a token that may edit the ruleset"},
		{"rulesets/5", `{"id": 5, "name": "main", "rules": [null], "bypass_actors": []}`, func(r *model.Repository) bool { return r.Review != nil && !r.Review.BypassKnown },
			"who may bypass the rules of branch main not read (ruleset 5: its answer not read: GitHub's answer is not the JSON expected)"},
		{"rulesets/5", `{"id": 5, "name": "main", "bypass_actors": [null]}`, func(r *model.Repository) bool { return r.Review != nil && !r.Review.BypassKnown },
			`who may bypass the rules of branch main not read (ruleset "main" (5): a bypass actor GitHub's answer does not name)`},
		{"branches/main", `null`, func(r *model.Repository) bool { return r.Review == nil }, "branch main not read (GitHub answered null)"},
		{"branches/main/protection", `null`, func(r *model.Repository) bool { return r.Review == nil }, "the branch protection of main not read (GitHub answered null)"},
		{"actions/permissions/workflow", `null`, func(r *model.Repository) bool {
			return r.Actions != nil && r.Actions.DefaultPermissions == "" && r.Actions.CanApprovePRs == nil
		}, "the default GITHUB_TOKEN permissions not read (GitHub answered null)"},
		{"actions/permissions", `null`, func(r *model.Repository) bool {
			return r.Actions != nil && r.Actions.AllowedActions == "" && r.Actions.SHAPinningRequired == nil
		}, "the allowed actions not read (GitHub answered null)"},
		{"environments", `null`, func(r *model.Repository) bool { return r.Copilot == nil }, "the copilot environment (the repository's environments) not read (GitHub answered null)"},
		{"environments", `{"total_count": 2, "environments": [null, {"id": 7}]}`, func(r *model.Repository) bool { return r.Copilot == nil }, ""},
		{"environments/copilot/variables", `null`, func(r *model.Repository) bool { return r.Copilot == nil }, "the copilot environment's variables not read (GitHub answered null)"},
		{"environments/copilot/variables", `{"total_count": 1, "variables": [null]}`, func(r *model.Repository) bool { return r.Copilot != nil && r.Copilot.FirewallEnabled }, ""},
		{"git/trees/main", `null`, nil, "the repository's files were not read: GitHub answered null"},
		{"git/trees/main", `{"sha": "t", "tree": [null], "truncated": false}`, nil, ""},
		{"git/blobs/", `null`, nil, ""},
		// o/full's default branch is person-reviewed: unread apps change
		// nothing and are no errors[] entry (TestAgentApps has those).
		{"installations", `null`, func(r *model.Repository) bool { return r.AgentApps == nil }, ""},
		{"installations", `{"total_count": 2, "installations": [null, {"app_slug": "claude", "permissions": null}]}`, func(r *model.Repository) bool {
			return len(r.AgentApps) == 1 && len(r.AgentApps[0].Permissions) == 0
		}, ""},
		{"orgs", `null`, nil, "organisation o: GitHub answered null"},
		{"orgs", `[null]`, nil, ""},
	} {
		s := fullServer(t)
		s.Intercept = func(w http.ResponseWriter, r *http.Request, p string) bool {
			if !is(p, tt.ep) {
				return false
			}
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, tt.body)
			return true
		}
		r, _, err, msgs := run(t, s, tt.ep, nil)
		if tt.msg != "" && !strings.Contains(msgs, tt.msg) {
			t.Errorf("%q answering %s: no %q in\n%s", tt.ep, tt.body, tt.msg, msgs)
		}
		if tt.msg == "" && msgs != "" {
			t.Errorf("%q answering %s: %s", tt.ep, tt.body, msgs)
		}
		if tt.unknown != nil && (err != nil || !tt.unknown(r)) {
			t.Errorf("%q answering %s: the fact was given a value: %+v %v", tt.ep, tt.body, r, err)
		}
	}
}

// shrink sets *v to x for the test.
func shrink[T any](t *testing.T, v *T, x T) {
	old := *v
	*v = x
	t.Cleanup(func() { *v = old })
}

// TestSlowBody: a body that stalls ends at bodyIdle, one that trickles at
// bodyTimeout; either is an unread fact, and frees its slot — an error's
// too, which go-github reads a MiB of and never closes.
func TestSlowBody(t *testing.T) {
	shrink(t, &bodyIdle, 200*time.Millisecond)
	shrink(t, &bodyTimeout, 600*time.Millisecond)
	s := fullServer(t)
	s.Intercept = func(w http.ResponseWriter, r *http.Request, p string) bool {
		rc := http.NewResponseController(w)
		stop := time.After(5 * time.Second) // what a test without the deadlines takes
		switch p {
		case "repos/o/full/actions/permissions/workflow": // a byte every 20 ms
			w.WriteHeader(200)
			for {
				if _, err := fmt.Fprint(w, " "); err != nil || rc.Flush() != nil {
					return true
				}
				select {
				case <-time.After(20 * time.Millisecond):
				case <-stop:
					return true
				}
			}
		case "repos/o/full/actions/permissions": // stalled
			w.WriteHeader(200)
			fmt.Fprint(w, "{")
			rc.Flush()
			select {
			case <-r.Context().Done():
			case <-stop:
			}
			return true
		case "repos/o/full/environments": // an error of 2 MiB, then stalled
			w.WriteHeader(500)
			fmt.Fprint(w, `{"message": "`+strings.Repeat("x", 2<<20))
			rc.Flush()
			select {
			case <-r.Context().Done():
			case <-stop:
			}
			return true
		}
		return false
	}
	c := NewClient(1)
	start := time.Now()
	msgs := runWithin(t, s, c, 20*time.Second)
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("the slow answers took %s", d)
	}
	for _, want := range []string{"the default GITHUB_TOKEN permissions not read (the answer did not come in time",
		"the allowed actions not read (the answer did not come in time", "the copilot environment (the repository's environments) not read (GitHub answered 500)"} {
		if !strings.Contains(msgs, want) {
			t.Errorf("no %q in\n%s", want, msgs)
		}
	}
	if held := len(c.Transport.(*transport).sem); held != 0 {
		t.Errorf("%d slots still held", held)
	}
}

// TestEndlessBody: an endless answer is an error at the cap — maxBody for
// JSON, the file size cap for a blob, go-github's first MiB for an error
// (whose body it never closes) — read into bounded memory.
func TestEndlessBody(t *testing.T) {
	shrink(t, &maxBody, 256<<10)
	shrink(t, &maxFileSize, 64<<10)
	shrink(t, &bodyIdle, 500*time.Millisecond)
	endless := func(w http.ResponseWriter, status int, head, chunk string) {
		rc := http.NewResponseController(w)
		rc.SetWriteDeadline(time.Now().Add(10 * time.Second))
		w.WriteHeader(status)
		fmt.Fprint(w, head)
		b := []byte(strings.Repeat(chunk, 4096/len(chunk)))
		for n := 0; n < 64<<20; n += len(b) {
			if _, err := w.Write(b); err != nil {
				return
			}
		}
	}
	s := fullServer(t)
	s.Intercept = func(w http.ResponseWriter, r *http.Request, p string) bool {
		switch {
		case p == "repos/o/full/environments":
			endless(w, 500, `{"message": "`, "x")
		case p == "repos/o/full/rules/branches/main":
			endless(w, 200, `[`, `{"type": "deletion", "ruleset_id": 1},`)
		case strings.HasPrefix(p, "repos/o/full/git/blobs/"):
			endless(w, 200, "", "a")
		default:
			return false
		}
		return true
	}
	c := NewClient(1)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	msgs := runWithin(t, s, c, 30*time.Second)
	runtime.ReadMemStats(&after)
	if grown := after.TotalAlloc - before.TotalAlloc; grown > 32<<20 {
		t.Errorf("%d MiB allocated reading the answers", grown>>20)
	}
	for _, want := range []string{"the rules of branch main not read (the answer is larger than 262144 bytes",
		"the copilot environment (the repository's environments) not read (GitHub answered 500)",
		"the repository's files were not read: the answer is larger than 65536 bytes"} {
		if !strings.Contains(msgs, want) {
			t.Errorf("no %q in\n%s", want, msgs)
		}
	}
	if held := len(c.Transport.(*transport).sem); held != 0 {
		t.Errorf("%d slots still held", held)
	}
}

// TestCodeOwnersAdversarial: patterns that the naive matching takes
// forever on are matched at once, and a file past the bounds is judged
// quickly (nothing owned).
func TestCodeOwnersAdversarial(t *testing.T) {
	deep := "a/b/c/d/e/f/g/h/i/j/zz"
	for _, tt := range []struct {
		pattern, path string
		want          bool
	}{
		{strings.Repeat("**/", 30000) + "zz", deep, true},
		{strings.Repeat("**/", 30000) + "zz", "a/b/c/d/e/f/g/h/i/j/k", false},
		{strings.Repeat("**/x/", 15000) + "zz", deep, false},
		{"/" + strings.Repeat("*/**/", 10) + "zz", deep, true},
		{"/" + strings.Repeat("*/**/", 11) + "zz", deep, false},
	} {
		start := time.Now()
		if got := ownerMatch(tt.pattern, tt.path); got != tt.want {
			t.Errorf("ownerMatch(%.20q…, %q) = %v", tt.pattern, tt.path, got)
		}
		if d := time.Since(start); d > 100*time.Millisecond {
			t.Errorf("ownerMatch(%.20q…) took %s", tt.pattern, d)
		}
	}

	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".github"), 0o755); err != nil {
		t.Fatal(err)
	}
	guard := []string{".github/workflows/zz", ".mcp.json"}
	for _, tt := range []struct {
		file    string
		unowned int
	}{
		{strings.Repeat("**/", 30000) + "zz @o\n", 2}, // past maxRuleLine: not judged
		{strings.Repeat("* @o\n", 30000), 2},          // past maxRules
		// Within the bounds, the most matching may cost.
		{strings.Repeat("/.github/x/y\n", 5000) + "/.mcp.json @o\n" + strings.Repeat(strings.Repeat("**/a/", 800)+"zz\n", 200), 1},
		{strings.Repeat(strings.Repeat("**/", 1300)+"zz @o\n", 250), 1},
	} {
		if err := os.WriteFile(filepath.Join(root, ".github/CODEOWNERS"), []byte(tt.file), 0o644); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		co := CodeOwners(context.Background(), root, guard)
		if d := time.Since(start); d > time.Second {
			t.Errorf("CodeOwners took %s", d)
		}
		if !co.Found || len(co.Unowned) != tt.unowned {
			t.Errorf("CODEOWNERS of %d bytes: %+v, want %d unowned", len(tt.file), co, tt.unowned)
		}
	}
}

// runWithin runs the collector against s and fails the test when it has
// not ended within limit; it returns the errors' messages.
func runWithin(t *testing.T, s *ghtest.Server, c *http.Client, limit time.Duration) string {
	t.Helper()
	done := make(chan string, 1)
	go func() {
		_, _, _, msgs := run(t, s, "", c)
		done <- msgs
	}()
	select {
	case msgs := <-done:
		return msgs
	case <-time.After(limit):
		t.Fatalf("no end within %s", limit)
	}
	return ""
}

// TestBodyReadAfterLimit: a read after the size error returns no bytes and
// the error again (a negative count breaks io.Reader's contract).
func TestBodyReadAfterLimit(t *testing.T) {
	b := &body{rc: io.NopCloser(strings.NewReader(strings.Repeat("x", 100))), ctx: context.Background(), cancel: func(error) {}, limit: 10, deadline: time.Now().Add(time.Minute)}
	b.timer = time.AfterFunc(time.Minute, func() {})
	buf := make([]byte, 64)
	for i := 0; i < 3; i++ {
		n, err := b.Read(buf)
		if n < 0 || n > 10 || (i > 0 && n != 0) || err == nil || !strings.Contains(err.Error(), "larger than 10 bytes") {
			t.Fatalf("read %d: n %d, err %v", i, n, err)
		}
	}
}
