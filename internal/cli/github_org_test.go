package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sandbox-audit/sandbox-audit/internal/ghtest"
)

// orgJSONOut is the part of scan --github ORG's JSON the tests read.
type orgJSONOut struct {
	Tool         struct{ Name string }
	Organisation string `json:"organisation"`
	Summary      struct {
		Repositories, Boundary, Convenience, Unknown, Failed int
		GateFailed                                           int `json:"gate_failed"`
		ExitCode                                             int `json:"exit_code"`
	} `json:"summary"`
	Repositories []struct {
		Repository string   `json:"repository"`
		ExitCode   int      `json:"exit_code"`
		Report     ghReport `json:"report"`
		Error      string   `json:"error"`
	} `json:"repositories"`
}

// scanOrg runs scan --github ORG against s.
func scanOrg(t *testing.T, s *ghtest.Server, args ...string) (string, int, string) {
	t.Helper()
	t.Setenv("GITHUB_TOKEN", ghToken)
	t.Setenv("GH_TOKEN", "")
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	var out, errOut bytes.Buffer
	code := Run(context.Background(), append([]string{"scan", "--github-url", s.APIURL()}, args...), &out, &errOut)
	if strings.Contains(out.String()+errOut.String(), ghToken) {
		t.Fatal("the token is printed")
	}
	return out.String(), code, errOut.String()
}

// orgServer is an organisation acme whose repositories run an agent with
// contents: write: open (nothing protects its default branch), guarded
// (a reviewed default branch), readonly (the token cannot read the branch
// protection nor the Actions settings), a fork and an archived repository
// like open; and an organisation safe with guarded ones only.
func orgServer(t *testing.T) *ghtest.Server {
	files := map[string]string{".github/workflows/claude.yml": agentWorkflow, ".github/CODEOWNERS": "* @acme/platform\n"}
	open := func() *ghtest.Repo {
		return &ghtest.Repo{Files: files,
			WorkflowPermissions: `{"default_workflow_permissions": "read", "can_approve_pull_request_reviews": false}`,
			ActionsPermissions:  `{"enabled": true, "allowed_actions": "selected", "sha_pinning_required": true}`}
	}
	guarded := func() *ghtest.Repo {
		r := open()
		r.RulePages = []string{`[{"type": "pull_request", "ruleset_source_type": "Organization", "ruleset_source": "acme", "ruleset_id": 1,
			"parameters": {"required_approving_review_count": 1, "dismiss_stale_reviews_on_push": true, "require_code_owner_review": true, "require_last_push_approval": true, "required_review_thread_resolution": false}}]`}
		r.Rulesets = map[int64]string{1: `{"id": 1, "name": "org main", "target": "branch", "enforcement": "active", "bypass_actors": []}`}
		return r
	}
	fork, archived := open(), open()
	fork.Fork, archived.Archived = true, true
	s := ghtest.New(t, ghToken, map[string]*ghtest.Repo{
		"acme/open": open(), "acme/guarded": guarded(), "acme/a-fork": fork, "acme/old": archived,
		"acme/readonly": {Files: files, RulePages: []string{`[]`}, Protected: true, ProtectionStatus: 403, SettingsStatus: 403},
		"safe/one":      guarded(), "safe/two": guarded(),
	})
	s.Orgs["acme"] = []string{"open", "guarded", "readonly", "a-fork", "old"}
	s.Orgs["safe"] = []string{"one", "two"}
	s.Installations["acme"] = `{"total_count": 0, "installations": []}`
	return s
}

// TestScanGitHubOrg: scan --github ORG lists the organisation (forks and
// archived repositories only when asked), audits each repository as scan
// --github OWNER/REPO does, reports each (JSON: one object with a
// per-repository list), and exits with the worst: 1 when a repository's
// gate fails, 2 when one cannot be audited whole (--strict), 0 when every
// gate passes.
func TestScanGitHubOrg(t *testing.T) {
	s := orgServer(t)
	out, code, stderr := scanOrg(t, s, "--github", "acme", "-f", "json")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (open fails its gate)\n%s%s", code, out, stderr)
	}
	var doc orgJSONOut
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	var names []string
	byName := map[string]int{}
	for i, r := range doc.Repositories {
		names = append(names, r.Repository)
		byName[r.Repository] = i
	}
	if doc.Organisation != "acme" || strings.Join(names, " ") != "acme/guarded acme/open acme/readonly" || doc.Summary.Repositories != 3 || doc.Summary.ExitCode != 1 {
		t.Fatalf("organisation %q, repositories %v, summary %+v", doc.Organisation, names, doc.Summary)
	}
	openRep := doc.Repositories[byName["acme/open"]]
	if openRep.ExitCode != 1 || rulesOf(openRep.Report)["github-agent-can-merge-own-change"] == "" || openRep.Report.Targets[0] != "github:acme/open" {
		t.Errorf("open: exit %d, %v, targets %v", openRep.ExitCode, rulesOf(openRep.Report), openRep.Report.Targets)
	}
	guarded := doc.Repositories[byName["acme/guarded"]]
	if guarded.ExitCode != 0 || len(rulesOf(guarded.Report)) != 0 || guarded.Report.Properties["review"].Status != "pass" {
		t.Errorf("guarded: exit %d, %v, review %+v", guarded.ExitCode, rulesOf(guarded.Report), guarded.Report.Properties["review"])
	}
	ro := doc.Repositories[byName["acme/readonly"]]
	if _, ok := rulesOf(ro.Report)["github-agent-can-merge-own-change"]; ok || !strings.Contains(fmt.Sprint(ro.Report.Errors), "it needs Administration: read") {
		t.Errorf("readonly: %v, errors %v", rulesOf(ro.Report), ro.Report.Errors)
	}
	if s.MaxInFlight > 8 || s.BadAuth > 0 {
		t.Errorf("%d requests in flight at most (want <= 8), %d without the token", s.MaxInFlight, s.BadAuth)
	}

	// --strict: readonly could not be read whole: exit 2, the report
	// written all the same.
	out, code, stderr = scanOrg(t, s, "--github", "acme", "-f", "json", "--strict")
	doc = orgJSONOut{}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 2 || doc.Summary.Failed != 1 || !strings.Contains(stderr, "1 of 3 repositories could not be audited") {
		t.Errorf("strict: exit %d, %+v, %v\n%s", code, doc.Summary, err, stderr)
	}

	// Forks and archived repositories on request.
	out, _, _ = scanOrg(t, s, "--github", "acme", "-f", "json", "--forks", "--archived")
	doc = orgJSONOut{}
	json.Unmarshal([]byte(out), &doc)
	if doc.Summary.Repositories != 5 {
		t.Errorf("--forks --archived: %d repositories", doc.Summary.Repositories)
	}

	// Every gate passes: exit 0.
	if out, code, stderr := scanOrg(t, s, "--github", "safe"); code != 0 || !strings.Contains(out, "sandbox-audit") ||
		!strings.Contains(out, "organisation safe: 2 repositories: 0 boundary") || !strings.Contains(out, "exit 0") {
		t.Errorf("safe: exit %d\n%s%s", code, out, stderr)
	}
}

// TestScanGitHubOrgFormats: the table shows each repository's report and
// the overview; SARIF is one run per repository; -o writes the report and
// the overview goes to stderr.
func TestScanGitHubOrgFormats(t *testing.T) {
	s := orgServer(t)
	out, code, _ := scanOrg(t, s, "--github", "acme")
	for _, want := range []string{"— github:acme/guarded", "— github:acme/open", "— github:acme/readonly", "github-agent-can-merge-own-change",
		"organisation acme: 3 repositories", "exit 1"} {
		if !strings.Contains(out, want) || code != 1 {
			t.Errorf("table: exit %d, no %q\n%s", code, want, out)
		}
	}
	out, _, _ = scanOrg(t, s, "--github", "acme", "-f", "markdown")
	if !strings.Contains(out, "## sandbox-audit: organisation acme") || strings.Count(out, "## sandbox-audit: ") != 4 {
		t.Errorf("markdown:\n%s", out)
	}
	out, _, _ = scanOrg(t, s, "--github", "acme", "-f", "sarif")
	var log struct {
		Runs []struct {
			AutomationDetails struct{ ID string }
			Results           []struct{ RuleID string }
		}
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil || len(log.Runs) != 3 || log.Runs[1].AutomationDetails.ID != "sandbox-audit/github/acme/open/" || len(log.Runs[1].Results) == 0 {
		t.Errorf("sarif: %v, %+v", err, log.Runs)
	}
	file := t.TempDir() + "/org.json"
	out, code, stderr := scanOrg(t, s, "--github", "acme", "-f", "json", "-o", file)
	if code != 1 || out != "" || !strings.Contains(stderr, "acme/open") || !strings.Contains(stderr, "organisation acme: 3 repositories") {
		t.Errorf("-o: exit %d, stdout %q\n%s", code, out, stderr)
	}
}

// TestScanGitHubOrgRefused: what an organisation cannot be given, and an
// organisation the token cannot list, exit 2.
func TestScanGitHubOrgRefused(t *testing.T) {
	s := orgServer(t)
	for _, args := range [][]string{
		{"--github", "acme", "."}, {"--github", "acme", "--live"}, {"--github", "acme", "--baseline", "b.json"},
		{"--github", "acme/open", "--forks"}, {"--forks"}, {"--github", "ac me"},
	} {
		if _, code, stderr := scanOrg(t, s, args...); code != 2 || stderr == "" {
			t.Errorf("%v: exit %d\n%s", args, code, stderr)
		}
	}
	if _, code, stderr := scanOrg(t, s, "--github", "nobody"); code != 2 || !strings.Contains(stderr, "organisation nobody not found") {
		t.Errorf("unknown organisation: exit %d\n%s", code, stderr)
	}
}

// BenchmarkScanGitHubOrg: scan --github ORG of 500 repositories on the
// test API (2 ms per answer), twice with one GitHub cache: wall time and
// requests per repository of each run.
func BenchmarkScanGitHubOrg(b *testing.B) {
	files := map[string]string{".github/workflows/claude.yml": agentWorkflow}
	for range b.N {
		repos := map[string]*ghtest.Repo{}
		var names []string
		for i := range 500 {
			name := fmt.Sprintf("repo-%03d", i)
			r := &ghtest.Repo{Files: files,
				WorkflowPermissions: `{"default_workflow_permissions": "read", "can_approve_pull_request_reviews": false}`,
				ActionsPermissions:  `{"enabled": true, "allowed_actions": "selected"}`}
			if i%3 == 0 {
				r.RulePages = []string{`[{"type": "pull_request", "ruleset_source_type": "Organization", "ruleset_source": "acme", "ruleset_id": 1,
					"parameters": {"required_approving_review_count": 1, "dismiss_stale_reviews_on_push": true, "require_code_owner_review": false, "require_last_push_approval": false, "required_review_thread_resolution": false}}]`}
				r.Rulesets = map[int64]string{1: `{"id": 1, "name": "org main", "target": "branch", "enforcement": "active", "bypass_actors": []}`}
			}
			repos["acme/"+name] = r
			names = append(names, name)
		}
		s := ghtest.New(b, ghToken, repos)
		s.Orgs["acme"] = names
		s.Installations["acme"] = `{"total_count": 0, "installations": []}`
		s.Latency = 2 * time.Millisecond
		b.Setenv("GITHUB_TOKEN", ghToken)
		cache := b.TempDir()
		run := func() (time.Duration, int) {
			before := s.Total
			start := time.Now()
			var out, errOut bytes.Buffer
			code := Run(context.Background(), []string{"scan", "--github-url", s.APIURL(), "--github", "acme", "-f", "json", "--github-cache", cache}, &out, &errOut)
			if code != 1 || !strings.Contains(out.String(), `"repositories": 500`) {
				b.Fatalf("exit %d\n%s", code, errOut.String())
			}
			return time.Since(start), s.Total - before
		}
		t1, n1 := run()
		nm := s.NotModified
		t2, n2 := run()
		b.ReportMetric(t1.Seconds(), "s-first")
		b.ReportMetric(float64(n1)/500, "requests/repo")
		b.ReportMetric(t2.Seconds(), "s-second")
		b.ReportMetric(float64(n2)/500, "requests/repo-second")
		b.ReportMetric(float64(s.NotModified-nm)/500, "304/repo-second")
		b.ReportMetric(float64(s.MaxInFlight), "max-in-flight")
	}
}

// TestScanGitHubAgentApps: an agent's GitHub App installed on every
// repository with contents: write can merge its own change exactly where
// the default branch lets a change land unreviewed (no pull request rule,
// or the app a bypass actor); a reviewed branch is quiet. Installations
// the token cannot read leave Review unknown, naming the permission, where
// the same repository with the apps read passes.
func TestScanGitHubAgentApps(t *testing.T) {
	files := map[string]string{"README.md": "# x\n", ".github/CODEOWNERS": "* @acme/platform\n"}
	settings := func(r *ghtest.Repo) *ghtest.Repo {
		r.Files = files
		r.WorkflowPermissions = `{"default_workflow_permissions": "read", "can_approve_pull_request_reviews": false}`
		r.ActionsPermissions = `{"enabled": true, "allowed_actions": "selected", "sha_pinning_required": true}`
		return r
	}
	ruleset := func(bypass string) *ghtest.Repo {
		return settings(&ghtest.Repo{
			RulePages: []string{`[{"type": "pull_request", "ruleset_source_type": "Organization", "ruleset_source": "acme", "ruleset_id": 1,
				"parameters": {"required_approving_review_count": 1, "dismiss_stale_reviews_on_push": true, "require_code_owner_review": true, "require_last_push_approval": true, "required_review_thread_resolution": false}}]`},
			Rulesets: map[int64]string{1: `{"id": 1, "name": "org main", "target": "branch", "enforcement": "active", "bypass_actors": [` + bypass + `]}`}})
	}
	s := ghtest.New(t, ghToken, map[string]*ghtest.Repo{
		"acme/open":     settings(&ghtest.Repo{RulePages: []string{`[]`}}),
		"acme/reviewed": ruleset(""),
		"acme/bypassed": ruleset(`{"actor_id": 1236702, "actor_type": "Integration", "bypass_mode": "always"}`),
		"noadmin/open":  settings(&ghtest.Repo{RulePages: []string{`[]`}}),
		"none/open":     settings(&ghtest.Repo{RulePages: []string{`[]`}}),
	})
	s.Installations["acme"] = `{"total_count": 1, "installations": [{"id": 11, "app_id": 1236702, "app_slug": "claude", "target_type": "Organization",
		"repository_selection": "all", "permissions": {"contents": "write", "pull_requests": "write", "metadata": "read"}}]}`
	s.Installations["noadmin"] = ""
	s.Installations["none"] = `{"total_count": 0, "installations": []}`
	const id = "github-agent-can-merge-own-change"
	rep, code, all := scanGitHub(t, s, "--github", "acme/open")
	if m := rulesOf(rep)[id]; code != 1 || !strings.Contains(m, `the claude-code app "claude" (app 1236702) is installed on every repository of acme with contents: write`) || !strings.Contains(m, "it requires no pull request") {
		t.Errorf("open: exit %d, %s %q\n%s", code, id, m, all)
	}
	rep, code, all = scanGitHub(t, s, "--github", "acme/reviewed")
	if _, ok := rulesOf(rep)[id]; ok || code != 0 || rep.Properties["review"].Status != "pass" || len(rep.Errors) != 0 {
		t.Errorf("reviewed: exit %d, %v, review %+v, errors %v\n%s", code, rulesOf(rep), rep.Properties["review"], rep.Errors, all)
	}
	rep, _, all = scanGitHub(t, s, "--github", "acme/bypassed")
	if m := rulesOf(rep)[id]; !strings.Contains(m, "the app may bypass its rules") {
		t.Errorf("bypassed: %s %q\n%s", id, m, all)
	}

	rep, code, all = scanGitHub(t, s, "--github", "none/open")
	if code != 0 || rep.Properties["review"].Status != "pass" || len(rep.Errors) != 0 {
		t.Errorf("no agent app: exit %d, review %+v, errors %v\n%s", code, rep.Properties["review"], rep.Errors, all)
	}
	rep, _, all = scanGitHub(t, s, "--github", "noadmin/open")
	if st := rep.Properties["review"]; st.Status != "unknown" || len(rep.Errors) != 1 ||
		!strings.Contains(rep.Errors[0].Message, "GitHub Apps installed on organisation noadmin not read (GitHub answered 403): it needs an organisation owner's token with Administration: read") {
		t.Errorf("installations unreadable: review %+v, errors %v\n%s", st, rep.Errors, all)
	}

	// An app that can push but not open pull requests (contents: write,
	// pull_requests: read) merges its change where no pull request is
	// required, not through a pull request that needs no approval: there
	// the gap is github-review-not-required's.
	noApproval := settings(&ghtest.Repo{RulePages: []string{`[{"type": "pull_request", "ruleset_source_type": "Repository", "ruleset_source": "pushonly/noapproval", "ruleset_id": 2,
		"parameters": {"required_approving_review_count": 0, "dismiss_stale_reviews_on_push": false, "require_code_owner_review": false, "require_last_push_approval": false, "required_review_thread_resolution": false}}]`},
		Rulesets: map[int64]string{2: `{"id": 2, "name": "pr", "target": "branch", "enforcement": "active", "bypass_actors": []}`}})
	p := ghtest.New(t, ghToken, map[string]*ghtest.Repo{"pushonly/open": settings(&ghtest.Repo{RulePages: []string{`[]`}}), "pushonly/noapproval": noApproval})
	p.Installations["pushonly"] = `{"total_count": 1, "installations": [{"id": 21, "app_id": 4321, "app_slug": "cursor", "target_type": "Organization",
		"repository_selection": "all", "permissions": {"contents": "write", "pull_requests": "read", "metadata": "read"}}]}`
	rep, _, all = scanGitHub(t, p, "--github", "pushonly/open")
	if m := rulesOf(rep)[id]; !strings.Contains(m, `the cursor app "cursor" (app 4321) is installed on every repository of pushonly with contents: write, and`) {
		t.Errorf("push-only app, no pull request required: %s %q\n%s", id, m, all)
	}
	rep, _, all = scanGitHub(t, p, "--github", "pushonly/noapproval")
	if m, ok := rulesOf(rep)[id]; ok || !strings.Contains(rulesOf(rep)["github-review-not-required"], "a pull request needs no approving review") {
		t.Errorf("push-only app, a pull request needing no approval: %s %q, %v\n%s", id, m, rulesOf(rep), all)
	}

	// The organisation's installations are read once for all of it.
	s.Orgs["acme"] = []string{"open", "reviewed", "bypassed"}
	out, code, stderr := scanOrg(t, s, "--github", "acme", "-f", "json")
	var doc orgJSONOut
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 1 || doc.Summary.GateFailed != 2 {
		t.Fatalf("org: exit %d, %+v, %v\n%s", code, doc.Summary, err, stderr)
	}
	before := s.OrgRequests["orgs/acme/installations"]
	scanOrg(t, s, "--github", "acme", "-f", "json")
	if n := s.OrgRequests["orgs/acme/installations"] - before; n != 1 {
		t.Errorf("the installations were read %d times for 3 repositories", n)
	}
}

// TestScanGitHubOrgConcurrency: --concurrency N bounds the requests in
// flight to N (the test server counts them, each answer held 5 ms so that
// they overlap), 8 by default; it must be 1 or more, and only an
// organisation takes it.
func TestScanGitHubOrgConcurrency(t *testing.T) {
	s := orgServer(t)
	s.Latency = 5 * time.Millisecond
	for _, n := range []int{1, 3} {
		s.MaxInFlight = 0
		out, code, stderr := scanOrg(t, s, "--github", "acme", "-f", "json", "--concurrency", fmt.Sprint(n))
		var doc orgJSONOut
		if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 1 || doc.Summary.Repositories != 3 {
			t.Fatalf("--concurrency %d: exit %d, %+v, %v\n%s", n, code, doc.Summary, err, stderr)
		}
		if s.MaxInFlight > n || (n > 1 && s.MaxInFlight < 2) {
			t.Errorf("--concurrency %d: %d requests in flight at most", n, s.MaxInFlight)
		}
	}
	s.MaxInFlight = 0
	if _, code, stderr := scanOrg(t, s, "--github", "acme", "-f", "json"); code != 1 || s.MaxInFlight > 8 {
		t.Errorf("default: exit %d, %d in flight at most (want <= 8)\n%s", code, s.MaxInFlight, stderr)
	}
	for _, args := range [][]string{{"--github", "acme", "--concurrency", "0"}, {"--github", "acme", "--concurrency", "-2"}} {
		if _, code, stderr := scanOrg(t, s, args...); code != 2 || !strings.Contains(stderr, "give 1 or more") {
			t.Errorf("%v: exit %d\n%s", args, code, stderr)
		}
	}
	for _, args := range [][]string{{"--github", "acme/open", "--concurrency", "4"}, {".", "--concurrency", "4"}} {
		if _, code, stderr := scanOrg(t, s, args...); code != 2 || !strings.Contains(stderr, "--concurrency needs --github ORG") {
			t.Errorf("%v: exit %d\n%s", args, code, stderr)
		}
	}
}
