package github

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/internal/ghtest"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// installations is "list app installations for an organization" as
// GitHub's REST documentation describes it: the Claude app on every
// repository with contents write, Codex on selected ones, the Copilot
// coding agent, an organisation's own app for claude-code-action, a
// suspended Devin, and an app that runs no agent.
const installations = `{"total_count": 6, "installations": [
  {"id": 11, "app_id": 1236702, "app_slug": "claude", "target_type": "Organization", "repository_selection": "all",
   "permissions": {"contents": "write", "pull_requests": "write", "issues": "write", "metadata": "read"}, "events": []},
  {"id": 12, "app_id": 1144995, "app_slug": "chatgpt-codex-connector", "target_type": "Organization", "repository_selection": "selected",
   "permissions": {"contents": "write", "pull_requests": "write"}},
  {"id": 13, "app_id": 1143301, "app_slug": "copilot-swe-agent", "target_type": "Organization", "repository_selection": "all",
   "permissions": {"contents": "write", "pull_requests": "write", "workflows": "write"}},
  {"id": 14, "app_id": 900001, "app_slug": "acme-claude-bot", "target_type": "Organization", "repository_selection": "all",
   "permissions": {"contents": "read", "pull_requests": "write"}},
  {"id": 15, "app_id": 811, "app_slug": "devin-ai-integration", "target_type": "Organization", "repository_selection": "all",
   "permissions": {"contents": "write"}, "suspended_at": "2026-10-01T10:00:00Z"},
  {"id": 16, "app_id": 42, "app_slug": "renovate", "target_type": "Organization", "repository_selection": "all",
   "permissions": {"contents": "write", "pull_requests": "write"}}
]}`

func TestAgentOfApp(t *testing.T) {
	for slug, want := range map[string]string{
		"claude": "claude-code", "Claude": "claude-code", "copilot-swe-agent": "copilot", "chatgpt-codex-connector": "codex",
		"google-labs-jules": "jules", "acme-claude-bot": "claude-code", "codex-runner": "codex", "cursor": "cursor",
		"db-cursor-sync": "", "renovate": "", "dependabot": "", "claudette": "", "acme-cursor-agent": "cursor",
		"openhands-ai": "openhands", "coderabbitai": "coderabbit", "factory-droid": "factory", "sweep-ai": "sweep", "codegen-sh": "codegen",
		"devin-ai-integration": "devin", "gemini-code-assist": "gemini", "amazon-q-developer": "amazon-q",
	} {
		if got := agentOfApp(slug); got != want {
			t.Errorf("agentOfApp(%q) = %q, want %q", slug, got, want)
		}
	}
}

func appsServer(t *testing.T, body string, repos map[string]*ghtest.Repo) *ghtest.Server {
	s := ghtest.New(t, token, repos)
	s.Installations["acme"] = body
	return s
}

// TestAgentApps: the organisation's agent apps are in the model with their
// permissions and reach; one on selected repositories that can write, or
// installations the token cannot read, is an errors[] entry (naming the
// permission it needs) unless the default branch needs a person's review
// nothing can bypass; a personal account's cannot be read at all. One run
// reads an organisation's installations once.
func TestAgentApps(t *testing.T) {
	open := *insecure
	open.WorkflowPermissions = `{"default_workflow_permissions": "read", "can_approve_pull_request_reviews": false}`
	reviewed := *hardened
	s := appsServer(t, installations, map[string]*ghtest.Repo{"acme/open": &open, "acme/reviewed": &reviewed, "someone/r": &open})
	orgs := NewOrgs()
	get := func(owner, repo string) (*model.Repository, []model.Error) {
		t.Helper()
		r, errs, err := Collect(context.Background(), Options{Owner: owner, Repo: repo, APIURL: s.APIURL(), Token: token, Orgs: orgs})
		if err != nil {
			t.Fatal(err)
		}
		return r, errs
	}
	r, errs := get("acme", "open")
	want := []model.AgentApp{
		{Slug: "acme-claude-bot", AppID: 900001, Agent: "claude-code", Repositories: "all", Permissions: map[string]string{"contents": "read", "pull_requests": "write"}},
		{Slug: "chatgpt-codex-connector", AppID: 1144995, Agent: "codex", Repositories: "selected", Permissions: map[string]string{"contents": "write", "pull_requests": "write"}},
		{Slug: "claude", AppID: 1236702, Agent: "claude-code", Repositories: "all", Permissions: map[string]string{"contents": "write", "pull_requests": "write", "issues": "write"}},
		{Slug: "copilot-swe-agent", AppID: 1143301, Agent: "copilot", Repositories: "all", Permissions: map[string]string{"contents": "write", "pull_requests": "write", "workflows": "write"}, OwnBranchesOnly: true},
		{Slug: "devin-ai-integration", AppID: 811, Agent: "devin", Repositories: "all", Permissions: map[string]string{"contents": "write"}, Suspended: true},
	}
	if d := cmp.Diff(want, r.AgentApps); d != "" {
		t.Errorf("agent apps (-want +got):\n%s", d)
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Message, "whether the chatgpt-codex-connector app (contents: write, installed on selected repositories of acme) reaches acme/open not read") || errs[0].Kind != KindReview {
		t.Errorf("open: errors %v", errs)
	}
	// A reviewed default branch: whatever the apps, nothing is unknown.
	if r, errs := get("acme", "reviewed"); len(errs) != 0 || len(r.AgentApps) != 5 {
		t.Errorf("reviewed: %d apps, errors %v", len(r.AgentApps), errs)
	}
	if n := s.OrgRequests["orgs/acme/installations"]; n != 1 {
		t.Errorf("the installations were asked for %d times in one run", n)
	}
	// A personal account's installations: not readable with a token.
	if r, errs := get("someone", "r"); r.AgentApps != nil || len(errs) != 1 || !strings.Contains(errs[0].Message, "personal account someone not read") {
		t.Errorf("personal account: %v, errors %v", r.AgentApps, errs)
	}

	// A token that is no owner's: 403, unknown, the permission named.
	s403 := appsServer(t, "", map[string]*ghtest.Repo{"acme/open": &open, "acme/reviewed": &reviewed})
	for repo, n := range map[string]int{"open": 1, "reviewed": 0} {
		r, errs, err := Collect(context.Background(), Options{Owner: "acme", Repo: repo, APIURL: s403.APIURL(), Token: token})
		if err != nil || r.AgentApps != nil || len(errs) != n {
			t.Fatalf("%s: %v %v %v", repo, r.AgentApps, errs, err)
		}
		if n == 1 && errs[0].Message != "github: the GitHub Apps installed on organisation acme not read (GitHub answered 403): it needs an organisation owner's token with Administration: read on the organisation (admin:read for a classic token)" {
			t.Errorf("message %q", errs[0].Message)
		}
	}
}

// TestOrgsConcurrent: repositories audited at once share one reading.
func TestOrgsConcurrent(t *testing.T) {
	open := *insecure
	repos := map[string]*ghtest.Repo{}
	for _, n := range []string{"a", "b", "c", "d", "e", "f"} {
		repos["acme/"+n] = &open
	}
	s := appsServer(t, installations, repos)
	orgs := NewOrgs()
	var wg sync.WaitGroup
	for name := range repos {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, repo, _ := strings.Cut(name, "/")
			Collect(context.Background(), Options{Owner: "acme", Repo: repo, APIURL: s.APIURL(), Token: token, Orgs: orgs})
		}()
	}
	wg.Wait()
	if n := s.OrgRequests["orgs/acme/installations"]; n != 1 {
		t.Errorf("asked %d times", n)
	}
}
