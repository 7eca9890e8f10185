package github

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sandbox-audit/sandbox-audit/internal/ghtest"
	"github.com/sandbox-audit/sandbox-audit/model"
)

const token = "ghp_T3stT0kenNeverPrinted0123456789abcd"

// Repositories of the fake API, after GitHub's REST documentation.
var (
	insecure = &ghtest.Repo{
		RulePages:           []string{`[]`},
		WorkflowPermissions: `{"default_workflow_permissions": "write", "can_approve_pull_request_reviews": true}`,
		ActionsPermissions:  `{"enabled": true, "allowed_actions": "all"}`,
		CopilotVariables:    map[string]string{"COPILOT_AGENT_FIREWALL_ENABLED": "false"},
	}
	hardened = &ghtest.Repo{
		RulePages: []string{
			`[{"type": "deletion", "ruleset_source_type": "Repository", "ruleset_source": "o/hardened", "ruleset_id": 5}]`,
			`[{"type": "pull_request", "ruleset_source_type": "Repository", "ruleset_source": "o/hardened", "ruleset_id": 5,
			   "parameters": {"required_approving_review_count": 2, "dismiss_stale_reviews_on_push": true, "require_code_owner_review": true,
			                  "require_last_push_approval": true, "required_review_thread_resolution": false}}]`,
		},
		Rulesets:            map[int64]string{5: `{"id": 5, "name": "protect main", "target": "branch", "source_type": "Repository", "source": "o/hardened", "enforcement": "active", "bypass_actors": []}`},
		WorkflowPermissions: `{"default_workflow_permissions": "read", "can_approve_pull_request_reviews": false}`,
		ActionsPermissions:  `{"enabled": true, "allowed_actions": "selected", "sha_pinning_required": true}`,
	}
	bypassed = &ghtest.Repo{
		RulePages: []string{`[{"type": "pull_request", "ruleset_source_type": "Repository", "ruleset_source": "o/bypassed", "ruleset_id": 9,
			"parameters": {"required_approving_review_count": 1, "dismiss_stale_reviews_on_push": true, "require_code_owner_review": false, "require_last_push_approval": false, "required_review_thread_resolution": false}}]`},
		Rulesets:            map[int64]string{9: `{"id": 9, "name": "main", "target": "branch", "enforcement": "active", "bypass_actors": [{"actor_id": 15368, "actor_type": "Integration", "bypass_mode": "always"}]}`},
		CopilotVariables:    map[string]string{"COPILOT_AGENT_FIREWALL_ALLOW_LIST_ADDITIONS": "registry.npmjs.org, *.com"},
		WorkflowPermissions: `{"default_workflow_permissions": "read", "can_approve_pull_request_reviews": false}`,
		ActionsPermissions:  `{"enabled": true, "allowed_actions": "all"}`,
	}
	// noAdmin: a token with read access only: the branch is protected, and
	// its protection, the ruleset's bypass list and the Actions settings
	// are not readable.
	noAdmin = &ghtest.Repo{
		RulePages:        []string{`[{"type": "pull_request", "ruleset_source_type": "Repository", "ruleset_source": "o/noadmin", "ruleset_id": 3, "parameters": {"required_approving_review_count": 1, "dismiss_stale_reviews_on_push": false, "require_code_owner_review": false, "require_last_push_approval": false, "required_review_thread_resolution": false}}]`},
		Rulesets:         map[int64]string{3: `{"id": 3, "name": "main", "target": "branch", "enforcement": "active"}`},
		Protected:        true,
		ProtectionStatus: 403,
		SettingsStatus:   403,
	}
	// rulesOnly: the branch is protected by rulesets alone (no classic
	// protection: 404 Branch not protected).
	rulesOnly = &ghtest.Repo{
		Protected:           true,
		RulePages:           []string{`[{"type": "pull_request", "ruleset_source_type": "Repository", "ruleset_source": "o/rulesonly", "ruleset_id": 4, "parameters": {"required_approving_review_count": 0, "dismiss_stale_reviews_on_push": false, "require_code_owner_review": false, "require_last_push_approval": false, "required_review_thread_resolution": false}}]`},
		Rulesets:            map[int64]string{4: `{"id": 4, "name": "pr", "target": "branch", "enforcement": "active", "bypass_actors": []}`},
		WorkflowPermissions: `{"default_workflow_permissions": "read", "can_approve_pull_request_reviews": false}`,
		ActionsPermissions:  `{"enabled": true, "allowed_actions": "all"}`,
	}
	// noEnforce: classic protection without an enforce_admins object.
	noEnforce = &ghtest.Repo{
		Protected:           true,
		Protection:          `{"required_pull_request_reviews": {"required_approving_review_count": 1, "dismiss_stale_reviews": true}}`,
		WorkflowPermissions: `{"default_workflow_permissions": "read", "can_approve_pull_request_reviews": false}`,
		ActionsPermissions:  `{"enabled": true, "allowed_actions": "all"}`,
	}
	classic = &ghtest.Repo{
		Protected: true,
		Protection: `{"required_pull_request_reviews": {"dismiss_stale_reviews": false, "require_code_owner_reviews": false, "required_approving_review_count": 1,
			"require_last_push_approval": false, "bypass_pull_request_allowances": {"users": [], "teams": [], "apps": [{"slug": "release-bot"}]}},
			"enforce_admins": {"enabled": false}}`,
		WorkflowPermissions: `{"default_workflow_permissions": "read", "can_approve_pull_request_reviews": false}`,
		ActionsPermissions:  `{"enabled": true, "allowed_actions": "local_only"}`,
	}
)

func server(t *testing.T) *ghtest.Server {
	s := ghtest.New(t, token, map[string]*ghtest.Repo{
		"o/insecure": insecure, "o/hardened": hardened, "o/bypassed": bypassed, "o/noadmin": noAdmin, "o/classic": classic,
		"o/rulesonly": rulesOnly, "o/noenforce": noEnforce,
	})
	s.Installations["o"] = `{"total_count": 0, "installations": []}`
	return s
}

func collect(t *testing.T, s *ghtest.Server, repo string, client *http.Client) (*model.Repository, []model.Error, error) {
	t.Helper()
	return Collect(context.Background(), Options{Owner: "o", Repo: repo, APIURL: s.APIURL(), Token: token, Client: client})
}

func TestCollect(t *testing.T) {
	s := server(t)
	r, errs, err := collect(t, s, "insecure", nil)
	if err != nil || len(errs) > 0 {
		t.Fatalf("insecure: %v, %v", err, errs)
	}
	if r.DefaultBranch != "main" || r.Review == nil || r.Review.RequiresPullRequest || r.Actions.DefaultPermissions != "write" || !*r.Actions.CanApprovePRs ||
		r.Actions.AllowedActions != "all" || r.Copilot == nil || r.Copilot.FirewallEnabled {
		t.Errorf("insecure: %+v %+v %+v %+v", r, r.Review, r.Actions, r.Copilot)
	}

	r, errs, err = collect(t, s, "hardened", nil)
	if err != nil || len(errs) > 0 {
		t.Fatalf("hardened: %v, %v", err, errs)
	}
	rv := r.Review
	if !rv.RequiresPullRequest || rv.Approvals != 2 || !rv.DismissStale || !rv.CodeOwnerReview || !rv.LastPushApproval || !rv.BypassKnown || len(rv.Bypass) != 0 {
		t.Errorf("hardened review (the pull request rule is on the second page): %+v", rv)
	}
	if r.Actions.DefaultPermissions != "read" || *r.Actions.CanApprovePRs || !*r.Actions.SHAPinningRequired || r.Copilot != nil {
		t.Errorf("hardened: %+v %+v", r.Actions, r.Copilot)
	}

	r, _, _ = collect(t, s, "bypassed", nil)
	if len(r.Review.Bypass) != 1 || r.Review.Bypass[0] != "Integration 15368" {
		t.Errorf("bypass actors %v", r.Review.Bypass)
	}
	if r.Copilot == nil || !r.Copilot.FirewallEnabled || strings.Join(r.Copilot.AllowList, " ") != "registry.npmjs.org *.com" {
		t.Errorf("copilot environment %+v", r.Copilot)
	}

	r, _, _ = collect(t, s, "classic", nil)
	if !r.Review.RequiresPullRequest || r.Review.Approvals != 1 || strings.Join(r.Review.Bypass, ",") != "App release-bot,RepositoryRole admin (branch protection not enforced for admins)" {
		t.Errorf("classic protection: %+v", r.Review)
	}
	r, errs, err = collect(t, s, "rulesonly", nil)
	if err != nil || len(errs) > 0 || r.Review == nil || !r.Review.RequiresPullRequest || r.Review.Approvals != 0 {
		t.Errorf("protected by rulesets only: %+v, %v, %v", r.Review, errs, err)
	}
	r, errs, err = collect(t, s, "noenforce", nil)
	if err != nil || len(errs) > 0 || r.Review == nil || r.Review.Approvals != 1 || !strings.Contains(strings.Join(r.Review.Bypass, ","), "not enforced for admins") {
		t.Errorf("classic protection without enforce_admins: %+v, %v, %v", r.Review, errs, err)
	}
	if s.BadAuth > 0 {
		t.Errorf("%d requests without the token", s.BadAuth)
	}
}

// TestCollectWithoutAdmin: what a read-only token cannot see stays unknown
// (nil), and each errors[] entry names the permission it needs — never a
// pass.
func TestCollectWithoutAdmin(t *testing.T) {
	s := server(t)
	r, errs, err := collect(t, s, "noadmin", nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Review != nil || r.Actions != nil {
		t.Errorf("unreadable facts were given values: review %+v, actions %+v", r.Review, r.Actions)
	}
	kinds := map[string]string{}
	for _, e := range errs {
		kinds[e.Kind] += e.Message + "\n"
		if strings.Contains(e.Message, token) {
			t.Error("the token is in an error")
		}
	}
	if !strings.Contains(kinds[KindReview], "branch protection of main not read (GitHub answered 403): it needs Administration: read") {
		t.Errorf("review errors: %q", kinds[KindReview])
	}
	if !strings.Contains(kinds[KindCredentials], "default GITHUB_TOKEN permissions") {
		t.Errorf("credentials errors: %q", kinds[KindCredentials])
	}
}

func TestCollectMissingRepository(t *testing.T) {
	s := server(t)
	_, _, err := collect(t, s, "private", nil)
	if !errors.Is(err, ErrRepository) || !strings.Contains(err.Error(), "not found, or not visible to the token (GitHub answered 404") {
		t.Errorf("a private repository the token cannot see: %v", err)
	}
}

// TestSecondaryRateLimit: a 403 with Retry-After is waited out (the wait
// it asked for) and the request sent again.
func TestSecondaryRateLimit(t *testing.T) {
	s := server(t)
	s.LimitOnce = true
	var waits []time.Duration
	client := &http.Client{Transport: &transport{base: http.DefaultTransport, sleep: func(_ *http.Request, d time.Duration) bool {
		waits = append(waits, d)
		return true
	}}}
	r, errs, err := collect(t, s, "hardened", client)
	if err != nil || len(errs) > 0 || r.Review == nil || r.Review.Approvals != 2 {
		t.Fatalf("%+v, %v, %v", r, errs, err)
	}
	if len(waits) == 0 {
		t.Fatal("no wait")
	}
	for _, d := range waits {
		if d != time.Second {
			t.Errorf("waited %s, Retry-After said 1s", d)
		}
	}
}

func TestParseRepo(t *testing.T) {
	for in, ok := range map[string]bool{"o/r": true, "my-org/my.repo": true, "o/r.git": true, "o": false, "o/r/x": false, "../r": false, "o/r?x=1": false, "/r": false} {
		if _, _, err := ParseRepo(in); (err == nil) != ok {
			t.Errorf("%q: %v", in, err)
		}
	}
}

func TestCodeOwnersMatch(t *testing.T) {
	for _, tt := range []struct {
		pattern, path string
		want          bool
	}{
		{"*", ".github/workflows/a.yml", true},
		{"/.github/", ".github/workflows/a.yml", true},
		{".github/workflows/", ".github/workflows/a.yml", true},
		{"/.github/workflows/*.yml", ".github/workflows/a.yml", true},
		{"/.github/workflows/*.yml", ".github/workflows/sub/a.yml", false},
		{"docs/**", ".github/workflows/a.yml", false},
		{"**/settings.json", ".claude/settings.json", true},
		{".claude", ".claude/settings.json", true},
		{"settings.json", ".claude/settings.json", true},
		{"/src/", "src", false},
		{"*.md", "AGENTS.md", true},
		{"/.github/*", ".github/workflows/ci.yml", false},
		{"/.github/*", ".github/CODEOWNERS", true},
		{"/.devcontainer/*", ".devcontainer/gpu/devcontainer.json", false},
		{"/.devcontainer/", ".devcontainer/gpu/devcontainer.json", true},
	} {
		if got := ownerMatch(tt.pattern, tt.path); got != tt.want {
			t.Errorf("ownerMatch(%q, %q) = %v, want %v", tt.pattern, tt.path, got, tt.want)
		}
	}
}

// TestCodeOwners: the first CODEOWNERS GitHub would use, the last matching
// rule winning, a rule without an owner taking ownership away; no file
// leaves every guardrail unowned.
func TestCodeOwners(t *testing.T) {
	root := t.TempDir()
	guard := []string{".claude/settings.json", ".github/workflows/claude.yml", ".mcp.json"}
	if co := CodeOwners(context.Background(), root, guard); co.Found || len(co.Unowned) != 3 {
		t.Errorf("no CODEOWNERS: %+v", co)
	}
	write := func(p, s string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("CODEOWNERS", "* @org/everyone\n")
	write(".github/CODEOWNERS", "# guardrails\n/.github/workflows/ @org/platform\n.claude/ @org/platform\n* @org/devs\n/.mcp.json # no owner: anyone may change it\n")
	co := CodeOwners(context.Background(), root, guard)
	if !co.Found || co.File != ".github/CODEOWNERS" || strings.Join(co.Unowned, ",") != ".mcp.json" {
		t.Errorf("CODEOWNERS: %+v", co)
	}
}

func FuzzCodeOwnersMatch(f *testing.F) {
	f.Add("/.github/**/x", ".github/a/b/x")
	f.Add("**", "a")
	f.Add("[", "a/b")
	f.Add(strings.Repeat("**/", 30000)+"zz", "a/b/c/d/e/f/g/h") // a miss: exponential when matched naively
	f.Add("a/**/**/b/**/", "a/b/c")
	f.Fuzz(func(t *testing.T, pattern, p string) {
		if len(pattern) > 1<<17 || len(p) > 4096 {
			return
		}
		start := time.Now()
		_ = ownerMatch(pattern, p)
		if d := time.Since(start); d > time.Second {
			t.Fatalf("ownerMatch(%.40q…, %.40q…) took %s", pattern, p, d)
		}
		// Where the naive matching ends quickly, both agree.
		if strings.Count(pattern, "**") > 4 || len(pattern) > 200 || len(p) > 200 {
			return
		}
		pats, dir := strings.TrimPrefix(pattern, "/"), strings.HasSuffix(pattern, "/")
		pats = strings.TrimSuffix(pats, "/")
		if got, want := matchSegs(strings.Split(pats, "/"), strings.Split(p, "/"), dir), naiveMatchSegs(strings.Split(pats, "/"), strings.Split(p, "/"), dir); got != want {
			t.Errorf("matchSegs(%q, %q) = %v, the naive matching %v", pattern, p, got, want)
		}
	})
}

// naiveMatchSegs is the matching as first written (exponential in **), the
// reference of FuzzCodeOwnersMatch.
func naiveMatchSegs(pats, segs []string, dir bool) bool {
	if len(pats) == 0 {
		return len(segs) > 0 || !dir
	}
	if len(pats) == 1 && pats[0] != "**" && strings.ContainsAny(pats[0], "*?[") && len(segs) > 1 {
		return false
	}
	if pats[0] == "**" {
		for i := 0; i <= len(segs); i++ {
			if naiveMatchSegs(pats[1:], segs[i:], dir) {
				return true
			}
		}
		return false
	}
	if len(segs) == 0 {
		return false
	}
	if ok, _ := path.Match(pats[0], segs[0]); !ok {
		return false
	}
	if len(pats) == 1 && len(segs) == 1 {
		return !dir
	}
	return naiveMatchSegs(pats[1:], segs[1:], dir)
}

// TestInFlightSlotsFreed: every answer frees its slot, errors included
// (go-github reads an error's body to the end and never closes it).
func TestInFlightSlotsFreed(t *testing.T) {
	s := server(t)
	c := NewClient(2)
	for _, repo := range []string{"insecure", "hardened", "noadmin", "classic", "missing"} {
		_, _, _ = collect(t, s, repo, c)
	}
	if held := len(c.Transport.(*transport).sem); held != 0 {
		t.Errorf("%d slots still held after every request ended", held)
	}
}

// TestEnvironmentsListed: the environments are one listing (paged), not a
// request per name: the copilot environment is found on a later page,
// whatever its case, and its variables are asked for only when it exists;
// the agent jobs' environments come from the same listing, one the listing
// lacks having no rules; a listing the token cannot read leaves each
// unknown, naming the permission.
func TestEnvironmentsListed(t *testing.T) {
	settings := func(r *ghtest.Repo) *ghtest.Repo {
		r.RulePages = []string{`[]`}
		r.WorkflowPermissions = `{"default_workflow_permissions": "read", "can_approve_pull_request_reviews": false}`
		r.ActionsPermissions = `{"enabled": true, "allowed_actions": "all"}`
		return r
	}
	gated := `{"id": 3, "name": "fork-review", "protection_rules": [{"id": 4, "type": "required_reviewers", "prevent_self_review": true, "reviewers": [{"type": "User", "reviewer": {"id": 1, "login": "maint"}}]}]}`
	s := ghtest.New(t, token, map[string]*ghtest.Repo{
		"o/paged": settings(&ghtest.Repo{EnvironmentsPerPage: 1, Environments: map[string]string{
			"a-staging":   `{"id": 1, "name": "a-staging", "protection_rules": []}`,
			"b-prod":      `{"id": 2, "name": "b-prod", "protection_rules": [{"id": 5, "type": "wait_timer", "wait_timer": 30}]}`,
			"fork-review": gated,
			"z":           `{"id": 8, "name": "Copilot", "protection_rules": []}`,
		}}),
		"o/none":     settings(&ghtest.Repo{}),
		"o/noaccess": settings(&ghtest.Repo{EnvironmentsStatus: 403}),
	})
	s.Installations["o"] = `{"total_count": 0, "installations": []}`
	r, errs, err := collect(t, s, "paged", nil)
	if err != nil || len(errs) > 0 || r.Copilot == nil || !r.Copilot.FirewallEnabled {
		t.Fatalf("paged: %v, %v, copilot %+v", err, errs, r.Copilot)
	}
	before := s.Total
	envs, errs := Environments(context.Background(), Options{Owner: "o", Repo: "paged", APIURL: s.APIURL(), Token: token}, []string{"fork-review", "b-prod", "new-one"})
	if len(errs) > 0 || envs["fork-review"].RequiredReviewers != 1 || !envs["fork-review"].PreventSelfReview || envs["b-prod"].WaitTimer != 30 ||
		envs["new-one"] != (model.EnvironmentRules{}) || len(envs) != 3 {
		t.Errorf("agent environments: %+v, %v", envs, errs)
	}
	if n := s.Total - before; n != 4 {
		t.Errorf("%d requests for 3 environments (want the 4 pages of the listing)", n)
	}

	s.Total = 0
	r, errs, _ = collect(t, s, "none", nil)
	if r.Copilot != nil || len(errs) > 0 || s.Requests["o/none"] != 6 {
		t.Errorf("none: copilot %+v, %v, %d requests (want 6: no variables asked for)", r.Copilot, errs, s.Requests["o/none"])
	}
	r, errs, _ = collect(t, s, "noaccess", nil)
	if r.Copilot != nil || len(errs) != 1 || errs[0].Kind != KindNetwork || !strings.Contains(errs[0].Message, "not read (GitHub answered 403): it needs Actions: read") {
		t.Errorf("noaccess: copilot %+v, %v", r.Copilot, errs)
	}
	envs, errs = Environments(context.Background(), Options{Owner: "o", Repo: "noaccess", APIURL: s.APIURL(), Token: token}, []string{"fork-review"})
	if len(envs) != 0 || len(errs) != 1 || errs[0].Kind != KindReview || !strings.Contains(errs[0].Message, `environment "fork-review" not read (GitHub answered 403): it needs Actions: read`) {
		t.Errorf("noaccess environments: %+v, %v", envs, errs)
	}
}
