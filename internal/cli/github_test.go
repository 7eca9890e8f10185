package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/internal/ghtest"
)

const ghToken = "ghp_Zq8Vt2Lm5Xc9Bn4Kd7Wf1Hs6Jp3Ry0Ua2Ge5T"

// agentWorkflow runs Claude with a token that can write contents.
const agentWorkflow = `name: claude
on:
  issue_comment:
    types: [created]
permissions:
  contents: read
jobs:
  claude:
    if: contains(github.event.comment.body, '@claude') && github.event.comment.author_association == 'MEMBER'
    runs-on: ubuntu-latest
    permissions:
      contents: write
      pull-requests: write
    steps:
      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2
        with:
          persist-credentials: false
      - uses: anthropics/claude-code-action@b3fce1a2d9e6f3c8e7a1b2c3d4e5f60718293a4b # v1
        with:
          anthropic_api_key: ${{ secrets.ANTHROPIC_API_KEY }}
`

type ghReport struct {
	Targets    []string `json:"targets"`
	Repository *struct {
		DefaultBranch string `json:"default_branch"`
	} `json:"repository"`
	Findings []struct {
		RuleID  string `json:"rule_id"`
		File    string `json:"file"`
		Message string `json:"message"`
	} `json:"findings"`
	Properties map[string]struct {
		Status string   `json:"status"`
		Unread []string `json:"unread"`
	} `json:"properties"`
	Errors []struct {
		Message string `json:"message"`
	} `json:"errors"`
}

func scanGitHub(t *testing.T, s *ghtest.Server, args ...string) (ghReport, int, string) {
	t.Helper()
	t.Setenv("GITHUB_TOKEN", ghToken)
	t.Setenv("GH_TOKEN", "")
	// The default GitHub cache is the user's: a test keeps its own.
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	var out, errOut bytes.Buffer
	code := Run(context.Background(), append([]string{"scan", "-f", "json", "--github-url", s.APIURL()}, args...), &out, &errOut)
	all := out.String() + errOut.String()
	if strings.Contains(all, ghToken) {
		t.Fatal("the token is printed")
	}
	var rep ghReport
	if code != 2 {
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Fatalf("exit %d, not JSON: %v\n%s", code, err, all)
		}
	}
	return rep, code, all
}

func rulesOf(r ghReport) map[string]string {
	m := map[string]string{}
	for _, f := range r.Findings {
		if strings.HasPrefix(f.RuleID, "github-") {
			m[f.RuleID] = f.Message
		}
	}
	return m
}

// TestScanGitHub: for a repository whose agent workflow has contents:
// write, "the agent can merge its own change" is said exactly when the
// repository's settings let it; "unknown, needs Administration: read" when
// the token cannot tell; the same without a checkout, from the files the
// API gives. The token is never printed, and no request goes without it.
func TestScanGitHub(t *testing.T) {
	files := map[string]string{".github/workflows/claude.yml": agentWorkflow, "README.md": "# x\n"}
	repo := func(r ghtest.Repo) *ghtest.Repo { r.Files = files; return &r }
	s := ghtest.New(t, ghToken, map[string]*ghtest.Repo{
		"o/open": repo(ghtest.Repo{
			WorkflowPermissions: `{"default_workflow_permissions": "write", "can_approve_pull_request_reviews": true}`,
			ActionsPermissions:  `{"enabled": true, "allowed_actions": "all"}`,
			CopilotVariables:    map[string]string{"COPILOT_AGENT_FIREWALL_ENABLED": "false"},
		}),
		"o/guarded": repo(ghtest.Repo{
			RulePages: []string{`[{"type": "pull_request", "ruleset_source_type": "Repository", "ruleset_source": "o/guarded", "ruleset_id": 1,
				"parameters": {"required_approving_review_count": 1, "dismiss_stale_reviews_on_push": true, "require_code_owner_review": true, "require_last_push_approval": false, "required_review_thread_resolution": false}}]`},
			Rulesets:            map[int64]string{1: `{"id": 1, "name": "main", "target": "branch", "enforcement": "active", "bypass_actors": []}`},
			WorkflowPermissions: `{"default_workflow_permissions": "read", "can_approve_pull_request_reviews": false}`,
			ActionsPermissions:  `{"enabled": true, "allowed_actions": "selected", "sha_pinning_required": true}`,
		}),
		"o/readonly": repo(ghtest.Repo{
			RulePages:        []string{`[]`},
			Protected:        true,
			ProtectionStatus: 403,
			SettingsStatus:   403,
		}),
	})
	dir := t.TempDir()
	for p, c := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644)
	}
	os.WriteFile(filepath.Join(dir, ".github", "CODEOWNERS"), []byte("/.github/ @o/platform\n"), 0o644)

	rep, _, all := scanGitHub(t, s, dir, "--github", "o/open")
	got := rulesOf(rep)
	for _, id := range []string{"github-agent-can-merge-own-change", "github-actions-can-approve", "github-default-token-write", "github-copilot-firewall-off", "github-unpinned-actions-allowed"} {
		if got[id] == "" {
			t.Errorf("open repository: no %s; github findings %v\n%s", id, got, all)
		}
	}
	if m := got["github-agent-can-merge-own-change"]; !strings.Contains(m, "it requires no pull request") {
		t.Errorf("message %q", m)
	}
	if _, ok := got["github-guardrails-not-codeowned"]; ok {
		t.Errorf("the local CODEOWNERS covers the workflow: %v", got)
	}
	if rep.Repository == nil || rep.Repository.DefaultBranch != "main" {
		t.Errorf("the report does not show what GitHub said: %+v", rep.Repository)
	}
	if rep.Properties["review"].Status != "fail" {
		t.Errorf("review %+v", rep.Properties["review"])
	}

	rep, _, all = scanGitHub(t, s, dir, "--github", "o/guarded")
	if got := rulesOf(rep); len(got) != 0 {
		t.Errorf("guarded repository: %v\n%s", got, all)
	}
	for _, f := range rep.Findings {
		if f.RuleID == "workflow-agent-contents-write" {
			t.Error("the default branch needs a person's review: contents write is not an unreviewed push")
		}
	}

	rep, _, all = scanGitHub(t, s, dir, "--github", "o/readonly")
	got = rulesOf(rep)
	if _, ok := got["github-agent-can-merge-own-change"]; ok {
		t.Errorf("a fact the token could not read made a finding: %v", got)
	}
	// The local workflow's contents write fails Review on its own; what
	// the token could not read is listed, with the permission it needs.
	if st := rep.Properties["review"]; !strings.Contains(strings.Join(st.Unread, " "), "github/o/readonly") {
		t.Errorf("readonly: review %+v\n%s", st, all)
	}
	needs := false
	for _, e := range rep.Errors {
		needs = needs || strings.Contains(e.Message, "branch protection of main not read (GitHub answered 403): it needs Administration: read")
	}
	if !needs {
		t.Errorf("readonly: errors %+v", rep.Errors)
	}

	// A large tree (more files than one rule evaluation sees) keeps the
	// repository's settings beside its workflows.
	big := t.TempDir()
	for p, c := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(big, p)), 0o755)
		os.WriteFile(filepath.Join(big, p), []byte(c), 0o644)
	}
	for i := range 300 {
		d := filepath.Join(big, fmt.Sprintf("svc%03d", i))
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, "cm.yaml"), []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: b\n"), 0o644)
	}
	rep, _, all = scanGitHub(t, s, big, "--github", "o/open")
	if rulesOf(rep)["github-agent-can-merge-own-change"] == "" {
		t.Errorf("a tree of 301 files lost the repository's settings: %v\n%s", rulesOf(rep), all[:min(len(all), 2000)])
	}

	// No checkout: the files come from the API; no CODEOWNERS there.
	rep, _, all = scanGitHub(t, s, "--github", "o/open")
	got = rulesOf(rep)
	if got["github-agent-can-merge-own-change"] == "" || got["github-guardrails-not-codeowned"] == "" || len(rep.Targets) != 1 || rep.Targets[0] != "github:o/open" {
		t.Errorf("without a checkout: targets %v, %v\n%s", rep.Targets, got, all)
	}
	for _, f := range rep.Findings {
		if f.RuleID == "github-agent-can-merge-own-change" && f.File != ".github/workflows/claude.yml" {
			t.Errorf("located at %q", f.File)
		}
	}

	if _, code, all := scanGitHub(t, s, "--github", "o/missing"); code != 2 || !strings.Contains(all, "not found, or not visible to the token") {
		t.Errorf("a missing repository: exit %d\n%s", code, all)
	}
	if s.BadAuth > 0 {
		t.Errorf("%d requests without the token", s.BadAuth)
	}
	t.Logf("requests per repository: %v", s.Requests)
}

// TestScanGitHubEnvironments: an agent on pull_request_target whose job
// deploys to an environment with required reviewers waits for a person's
// approval of each run: not reported. The same environment without
// reviewers, or one the token cannot read (an errors[] entry naming the
// permission), still is.
func TestScanGitHubEnvironments(t *testing.T) {
	const wf = `on: pull_request_target
permissions:
  contents: read
jobs:
  review:
    runs-on: ubuntu-latest
    environment: fork-review
    steps:
      - uses: anthropics/claude-code-action@v1
        with:
          anthropic_api_key: ${{ secrets.ANTHROPIC_API_KEY }}
`
	files := map[string]string{".github/workflows/review.yml": wf}
	env := func(body string) *ghtest.Repo {
		return &ghtest.Repo{Files: files, RulePages: []string{`[]`}, Environments: map[string]string{"fork-review": body}}
	}
	s := ghtest.New(t, ghToken, map[string]*ghtest.Repo{
		"o/gated": env(`{"id": 1, "name": "fork-review", "protection_rules": [
			{"id": 2, "type": "required_reviewers", "prevent_self_review": true, "reviewers": [{"type": "Team", "reviewer": {"id": 9, "slug": "maintainers"}}]}]}`),
		"o/open":   env(`{"id": 1, "name": "fork-review", "protection_rules": [{"id": 3, "type": "wait_timer", "wait_timer": 5}]}`),
		"o/unread": {Files: files, RulePages: []string{`[]`}, EnvironmentsStatus: 403},
		"o/absent": {Files: files, RulePages: []string{`[]`}, Environments: map[string]string{}},
	})
	has := func(rep ghReport, id string) bool {
		for _, f := range rep.Findings {
			if f.RuleID == id {
				return true
			}
		}
		return false
	}
	const prt = "workflow-agent-on-pull-request-target"
	for repo, want := range map[string]bool{"o/gated": false, "o/open": true, "o/unread": true, "o/absent": true} {
		rep, _, all := scanGitHub(t, s, "--github", repo)
		if has(rep, prt) != want {
			t.Errorf("%s: %s reported %v, want %v\n%s", repo, prt, has(rep, prt), want, all)
		}
		if repo == "o/unread" && !strings.Contains(all, `environment \"fork-review\" not read`) && !strings.Contains(all, `environment "fork-review" not read`) {
			t.Errorf("%s: no errors[] entry for the unread environment\n%s", repo, all)
		}
	}
}

// TestScanGitHubCopilotAllowlist: allowlist additions that name a public
// suffix of two labels (*.co.uk) or a domain handing out hosts to anyone
// (*.github.io) open the Copilot firewall as *.com does; one owner's
// domains under them do not.
func TestScanGitHubCopilotAllowlist(t *testing.T) {
	files := map[string]string{".github/workflows/claude.yml": agentWorkflow}
	repo := func(list string) *ghtest.Repo {
		return &ghtest.Repo{Files: files, RulePages: []string{`[]`}, CopilotVariables: map[string]string{"COPILOT_AGENT_FIREWALL_ALLOW_LIST_ADDITIONS": list}}
	}
	s := ghtest.New(t, ghToken, map[string]*ghtest.Repo{
		"o/broad":  repo("registry.npmjs.org, *.co.uk, *.github.io"),
		"o/narrow": repo("registry.npmjs.org, *.example.co.uk, octo.github.io"),
	})
	const id = "github-copilot-allowlist-broad"
	rep, _, all := scanGitHub(t, s, "--github", "o/broad")
	if m := rulesOf(rep)[id]; !strings.Contains(m, "reach *.co.uk, *.github.io:") {
		t.Errorf("broad: %s %q\n%s", id, m, all)
	}
	rep, _, all = scanGitHub(t, s, "--github", "o/narrow")
	if m, ok := rulesOf(rep)[id]; ok {
		t.Errorf("narrow: %s %q\n%s", id, m, all)
	}
}

// TestScanGitHubCache: a repeated scan --github asks with the ETags of the
// answers the first kept (--github-cache), gets 304 for each, fetches no
// file again, and reports the same; a setting changed meanwhile is used;
// --no-github-cache asks for every answer whole.
func TestScanGitHubCache(t *testing.T) {
	open := &ghtest.Repo{Files: map[string]string{".github/workflows/claude.yml": agentWorkflow},
		WorkflowPermissions: `{"default_workflow_permissions": "read", "can_approve_pull_request_reviews": false}`,
		ActionsPermissions:  `{"enabled": true, "allowed_actions": "selected", "sha_pinning_required": true}`}
	s := ghtest.New(t, ghToken, map[string]*ghtest.Repo{"o/r": open})
	cache := t.TempDir()
	var output string
	run := func(args ...string) (ghReport, int) {
		t.Helper()
		before := s.Total
		rep, code, all := scanGitHub(t, s, append([]string{"--github", "o/r"}, args...)...)
		if code == 2 {
			t.Fatalf("exit 2\n%s", all)
		}
		output = all
		return rep, s.Total - before
	}
	first, n1 := run("--github-cache", cache)
	firstOutput := output
	if rulesOf(first)["github-agent-can-merge-own-change"] == "" || s.NotModified != 0 {
		t.Fatalf("first: %v, %d not modified", rulesOf(first), s.NotModified)
	}
	second, n2 := run("--github-cache", cache)
	if d := cmp.Diff(first, second); d != "" || output != firstOutput {
		t.Errorf("the second scan differs (-first +second):\n%s\n%s", d, cmp.Diff(firstOutput, output))
	}
	// Every answer has an ETag (the environments are a listing, not a
	// 404 for a copilot environment the repository lacks): each a 304.
	if s.NotModified != n2 || n2 != n1-1 {
		t.Errorf("second scan: %d requests, %d answered 304 (first %d; want each a 304, and no blob asked for)", n2, s.NotModified, n1)
	}
	// A copilot environment created since is seen: the listing changed,
	// its ETag too. Its variables are asked for now that it exists.
	open.CopilotVariables = map[string]string{"COPILOT_AGENT_FIREWALL_ENABLED": "false"}
	created, n := run("--github-cache", cache)
	if rulesOf(created)["github-copilot-firewall-off"] == "" || n != n2+1 {
		t.Errorf("a copilot environment created since the cached run: %v, %d requests (want %d)", rulesOf(created), n, n2+1)
	}
	open.CopilotVariables = nil
	open.WorkflowPermissions = `{"default_workflow_permissions": "write", "can_approve_pull_request_reviews": true}`
	third, _ := run("--github-cache", cache)
	if rulesOf(third)["github-actions-can-approve"] == "" {
		t.Errorf("a changed setting was not used: %v", rulesOf(third))
	}
	nm := s.NotModified
	if _, n := run("--no-github-cache"); s.NotModified != nm || n != n1 {
		t.Errorf("--no-github-cache: %d requests, %d answered 304", n, s.NotModified-nm)
	}
	if _, code, all := scanGitHub(t, s, "--github", "o/r", "--github-cache", cache, "--no-github-cache"); code != 2 || !strings.Contains(all, "give one") {
		t.Errorf("both flags: exit %d\n%s", code, all)
	}
}

// TestScanGitHubHiddenBypass: a ruleset requires a review, but GitHub does
// not show the token who may bypass it (a token that cannot edit the
// ruleset): whether the agent can merge its own change is not known, so it
// is not said, Review is not a pass, and an errors[] entry names what the
// token needs; the same settings with the list shown pass.
func TestScanGitHubHiddenBypass(t *testing.T) {
	files := map[string]string{".github/workflows/claude.yml": agentWorkflow, ".github/CODEOWNERS": "* @o/platform\n"}
	repo := func(ruleset string) *ghtest.Repo {
		return &ghtest.Repo{Files: files,
			RulePages: []string{`[{"type": "pull_request", "ruleset_source_type": "Organization", "ruleset_source": "o", "ruleset_id": 3,
				"parameters": {"required_approving_review_count": 1, "dismiss_stale_reviews_on_push": true, "require_code_owner_review": true, "require_last_push_approval": true, "required_review_thread_resolution": false}}]`},
			Rulesets:            map[int64]string{3: ruleset},
			WorkflowPermissions: `{"default_workflow_permissions": "read", "can_approve_pull_request_reviews": false}`,
			ActionsPermissions:  `{"enabled": true, "allowed_actions": "selected", "sha_pinning_required": true}`}
	}
	s := ghtest.New(t, ghToken, map[string]*ghtest.Repo{
		"o/hidden": repo(`{"id": 3, "name": "org main", "target": "branch", "source_type": "Organization", "source": "o", "enforcement": "active"}`),
		"o/shown":  repo(`{"id": 3, "name": "org main", "target": "branch", "source_type": "Organization", "source": "o", "enforcement": "active", "bypass_actors": []}`),
	})
	s.Installations["o"] = `{"total_count": 0, "installations": []}`
	rep, _, all := scanGitHub(t, s, "--github", "o/hidden")
	if _, ok := rulesOf(rep)["github-agent-can-merge-own-change"]; ok || rep.Properties["review"].Status == "pass" ||
		!strings.Contains(fmt.Sprint(rep.Errors), "who may bypass the rules of branch main not read (ruleset 3: no bypass list in GitHub's answer") ||
		!strings.Contains(fmt.Sprint(rep.Errors), "it needs a token that may edit the ruleset") {
		t.Errorf("hidden: %v, review %+v, errors %v\n%s", rulesOf(rep), rep.Properties["review"], rep.Errors, all)
	}
	t.Logf("hidden: review %+v, findings %v", rep.Properties["review"], rulesOf(rep))
	rep, code, all := scanGitHub(t, s, "--github", "o/shown")
	if code != 0 || len(rulesOf(rep)) != 0 || rep.Properties["review"].Status != "pass" || len(rep.Errors) != 0 {
		t.Errorf("shown: exit %d, %v, review %+v, errors %v\n%s", code, rulesOf(rep), rep.Properties["review"], rep.Errors, all)
	}
}
