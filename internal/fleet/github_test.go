package fleet

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sandbox-audit/sandbox-audit/collectors/github"
	"github.com/sandbox-audit/sandbox-audit/internal/ghtest"
)

const ghToken = "ghp_Fl33tT0kenNeverStored0123456789abcdE"

const agentWorkflow = `name: claude
on: issue_comment
jobs:
  claude:
    if: github.event.comment.author_association == 'MEMBER'
    runs-on: ubuntu-latest
    permissions:
      contents: write
    steps:
      - uses: anthropics/claude-code-action@b3fce1a2d9e6f3c8e7a1b2c3d4e5f60718293a4b # v1
        with:
          anthropic_api_key: ${{ secrets.ANTHROPIC_API_KEY }}
`

// org builds an organisation of n repositories on the fake API, every
// third one protected; one fork and one archived repository more.
func org(t testing.TB, n int) *ghtest.Server {
	repos := map[string]*ghtest.Repo{}
	var names []string
	for i := range n {
		name := fmt.Sprintf("repo-%03d", i)
		r := &ghtest.Repo{
			Files:               map[string]string{".github/workflows/claude.yml": agentWorkflow},
			WorkflowPermissions: `{"default_workflow_permissions": "read", "can_approve_pull_request_reviews": false}`,
			ActionsPermissions:  `{"enabled": true, "allowed_actions": "selected"}`,
		}
		if i%3 == 0 {
			r.RulePages = []string{`[{"type": "pull_request", "ruleset_source_type": "Organization", "ruleset_source": "acme", "ruleset_id": 1,
				"parameters": {"required_approving_review_count": 1, "dismiss_stale_reviews_on_push": true, "require_code_owner_review": false, "require_last_push_approval": false, "required_review_thread_resolution": false}}]`}
			r.Rulesets = map[int64]string{1: `{"id": 1, "name": "org main", "target": "branch", "enforcement": "active", "bypass_actors": []}`}
		}
		repos["acme/"+name] = r
		names = append(names, name)
	}
	repos["acme/a-fork"] = &ghtest.Repo{Fork: true}
	repos["acme/old"] = &ghtest.Repo{Archived: true}
	s := ghtest.New(t, ghToken, repos)
	s.Orgs["acme"] = append(names, "a-fork", "old")
	return s
}

// TestGitHubOrgTargets: github: ORG lists the organisation over several
// pages (forks and archived repositories left out), audits each repository
// through the API with at most 8 requests in flight, and says "the agent
// can merge its own change" exactly for the unprotected ones.
func TestGitHubOrgTargets(t *testing.T) {
	s := org(t, 120)
	inv, err := ParseInventory("inv.yaml", []byte("version: 1\ntargets:\n  - github: acme\n"))
	if err != nil {
		t.Fatal(err)
	}
	ts, err := inv.Expand()
	if err != nil {
		t.Fatal(err)
	}
	st, err := OpenStore(context.Background(), filepath.Join(t.TempDir(), "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sum, err := Scan(context.Background(), ts, st, Options{Concurrency: 4, GitHub: github.Options{APIURL: s.APIURL(), Token: ghToken}})
	if err != nil || sum.Stored != 120 || sum.Failed != 0 {
		t.Fatalf("summary %+v, %v", sum, err)
	}
	res := stored(t, st, sum.Run)
	for i := range 120 {
		id := fmt.Sprintf("github:acme/repo-%03d", i)
		r := res[id]
		if r == nil {
			t.Fatalf("%s not stored", id)
		}
		if got, want := hasRule(r, "github-agent-can-merge-own-change"), i%3 != 0; got != want {
			t.Errorf("%s: can merge %v, want %v", id, got, want)
		}
		for _, f := range r.Findings {
			if strings.Contains(f.Message, ghToken) {
				t.Fatal("the token was stored")
			}
		}
	}
	if res["github:acme/a-fork"] != nil || res["github:acme/old"] != nil {
		t.Error("a fork or an archived repository was audited")
	}
	if s.MaxInFlight > 8 || s.BadAuth > 0 {
		t.Errorf("%d requests in flight at most (want <= 8), %d without the token", s.MaxInFlight, s.BadAuth)
	}
	t.Logf("%d requests for 120 repositories (%.1f each), %d in flight at most", s.Total, float64(s.Total)/120, s.MaxInFlight)
}

// TestGitHubOrgETags: a second fleet run with the GitHub cache asks with
// the first run's ETags: every answer that has one comes back 304, no file
// is fetched again, and every result is the same.
func TestGitHubOrgETags(t *testing.T) {
	s := org(t, 30)
	s.Installations["acme"] = `{"total_count": 0, "installations": []}`
	ts, _ := (&Inventory{Targets: []TargetDef{{GitHub: "acme"}}}).Expand()
	st, err := OpenStore(context.Background(), filepath.Join(t.TempDir(), "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cache, _ := github.OpenCache(t.TempDir(), 0)
	opt := Options{Concurrency: 4, GitHub: github.Options{APIURL: s.APIURL(), Token: ghToken, Cache: cache}}
	first, err := Scan(context.Background(), ts, st, opt)
	if err != nil || first.Stored != 30 {
		t.Fatalf("%+v, %v", first, err)
	}
	n1 := s.Total
	second, err := Scan(context.Background(), ts, st, opt)
	if err != nil || second.Stored != 30 {
		t.Fatalf("%+v, %v", second, err)
	}
	n2 := s.Total - n1
	// Every answer is a 304 (no blob is asked for again; the environments
	// are a listing with an ETag, not a 404); the organisation's
	// installations are read once a run.
	if n2 != n1-30 || s.NotModified != n2 || s.OrgRequests["orgs/acme/installations"] != 2 {
		t.Errorf("second run: %d requests (first %d), %d answered 304", n2, n1, s.NotModified)
	}
	sameResults(t, "second run", stored(t, st, second.Run), stored(t, st, first.Run))
}

// BenchmarkGitHubOrg audits an organisation of 500 repositories on the
// fake API, each answer delayed 2 ms as a near network would, twice with
// one GitHub cache: the second run asks with the first's ETags.
func BenchmarkGitHubOrg(b *testing.B) {
	for range b.N {
		s := org(b, 500)
		s.Latency = 2e6
		s.Installations["acme"] = `{"total_count": 0, "installations": []}`
		ts, _ := (&Inventory{Targets: []TargetDef{{GitHub: "acme"}}}).Expand()
		st, err := OpenStore(context.Background(), filepath.Join(b.TempDir(), "h.db"))
		if err != nil {
			b.Fatal(err)
		}
		cache, _ := github.OpenCache(b.TempDir(), 0)
		opt := Options{Concurrency: 8, GitHub: github.Options{APIURL: s.APIURL(), Token: ghToken, Cache: cache}}
		start := time.Now()
		sum, err := Scan(context.Background(), ts, st, opt)
		firstTime, n1 := time.Since(start), s.Total
		if err != nil || sum.Stored != 500 {
			b.Fatalf("%+v, %v", sum, err)
		}
		start = time.Now()
		sum, err = Scan(context.Background(), ts, st, opt)
		secondTime, n2 := time.Since(start), s.Total-n1
		st.Close()
		if err != nil || sum.Stored != 500 {
			b.Fatalf("%+v, %v", sum, err)
		}
		b.ReportMetric(firstTime.Seconds(), "s-first")
		b.ReportMetric(float64(n1)/500, "requests/repo")
		b.ReportMetric(secondTime.Seconds(), "s-second")
		b.ReportMetric(float64(n2)/500, "requests/repo-second")
		b.ReportMetric(float64(s.NotModified)/500, "304/repo-second")
		b.ReportMetric(float64(s.MaxInFlight), "max-in-flight")
	}
}

// TestShardsAdoptTheRunsListing: a repository created in the organisation
// between two shards' starts does not stop the later shard: it audits the
// run's list (the first shard's), and the run completes with every
// repository of that list; another inventory still cannot join.
func TestShardsAdoptTheRunsListing(t *testing.T) {
	eachStore(t, func(t *testing.T, url string) {
		ctx := context.Background()
		s := org(t, 12)
		ts, err := (&Inventory{Targets: []TargetDef{{GitHub: "acme"}}}).Expand()
		if err != nil {
			t.Fatal(err)
		}
		st, err := OpenStore(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		opt := func(shard int) Options {
			return Options{Concurrency: 2, GitHub: github.Options{APIURL: s.APIURL(), Token: ghToken}, Run: RunSpec{Name: "nightly", Shards: 2}, Shard: shard}
		}
		first, err := Scan(ctx, ts, st, opt(1))
		if err != nil || first.RunComplete {
			t.Fatalf("shard 1: %+v, %v", first, err)
		}
		// A repository appears before shard 2 lists the organisation.
		s.AddRepo("acme", "repo-new", &ghtest.Repo{Files: map[string]string{".github/workflows/claude.yml": agentWorkflow}})
		second, err := Scan(ctx, ts, st, opt(2))
		if err != nil || !second.RunComplete || second.Run != first.Run {
			t.Fatalf("shard 2: %+v, %v", second, err)
		}
		res := stored(t, st, first.Run)
		if len(res) != 12 || res["github:acme/repo-new"] != nil {
			t.Errorf("%d targets stored (want the run's 12), repo-new stored: %v", len(res), res["github:acme/repo-new"] != nil)
		}
		other := append([]Target{}, ts...)
		other = append(other, Target{ID: "extra", Path: t.TempDir()})
		if _, err := Scan(ctx, other, st, opt(2)); err == nil || !strings.Contains(err.Error(), "another inventory") {
			t.Errorf("a target outside the listing joined: %v", err)
		}
	})
}
