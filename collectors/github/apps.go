package github

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	gh "github.com/google/go-github/v89/github"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// agentApps are the GitHub Apps that run a coding agent, by slug: the
// vendors' own. Keep this list current: a missing app is an agent with
// write access the audit does not see.
var agentApps = map[string]string{
	"claude":                  "claude-code", // Anthropic's: claude-code-action's default token, Claude Code on the web
	"copilot-swe-agent":       "copilot",     // the Copilot coding agent
	"chatgpt-codex-connector": "codex",       // OpenAI's Codex cloud
	"cursor":                  "cursor",      // Cursor's background agents
	"devin-ai-integration":    "devin",
	"google-labs-jules":       "jules",
	"gemini-code-assist":      "gemini",
	"amazon-q-developer":      "amazon-q",
	"openhands-agent":         "openhands",
	"sweep-ai":                "sweep",
	"codegen-sh":              "codegen",
}

// ownBranchesOnly are the agent apps whose pushes GitHub itself keeps to
// the agent's own branches: the Copilot coding agent pushes only to
// copilot/ branches and cannot approve or merge (GitHub's documentation).
var ownBranchesOnly = map[string]bool{"copilot-swe-agent": true}

// appNameHints catch an organisation's own app for an agent action
// (acme-claude, codex-bot: the token claude-code-action or codex-action
// is given), as whole words of its slug; "cursor" alone names database
// cursors too.
var appNameHints = []struct{ hint, agent string }{
	{"claude", "claude-code"}, {"codex", "codex"}, {"gemini", "gemini"}, {"copilot", "copilot"},
	{"devin", "devin"}, {"jules", "jules"}, {"openhands", "openhands"}, {"opencode", "opencode"},
	{"aider", "aider"}, {"cursor-agent", "cursor"},
}

// agentOfApp is the agent an app runs, or "".
func agentOfApp(slug string) string {
	slug = strings.ToLower(slug)
	if a, ok := agentApps[slug]; ok {
		return a
	}
	ws := strings.FieldsFunc(slug, func(r rune) bool { return !('a' <= r && r <= 'z' || '0' <= r && r <= '9') })
	for _, h := range appNameHints {
		seq := strings.Split(h.hint, "-")
		for i := 0; i+len(seq) <= len(ws); i++ {
			if strings.Join(ws[i:i+len(seq)], "-") == h.hint {
				return h.agent
			}
		}
	}
	return ""
}

// Orgs keeps what one run reads once per organisation, for each of its
// repositories: its installed apps. One run shares one (nil: each
// repository reads them again).
type Orgs struct {
	mu   sync.Mutex
	apps map[string]*orgApps
}

type orgApps struct {
	once sync.Once
	list []*gh.Installation
	err  error
}

// NewOrgs is an empty Orgs.
func NewOrgs() *Orgs { return &Orgs{apps: map[string]*orgApps{}} }

// installations are the organisation's app installations (Administration:
// read on the organisation, an owner's), 100 a page.
func (o *Orgs) installations(ctx context.Context, c *gh.Client, org string) ([]*gh.Installation, error) {
	read := func() ([]*gh.Installation, error) {
		var out []*gh.Installation
		opts := &gh.ListOptions{PerPage: 100}
		for {
			page, resp, err := c.Organizations.ListInstallations(ctx, org, opts)
			if err == nil && page == nil {
				err = errNull
			}
			if err != nil {
				return nil, err
			}
			out = append(out, page.Installations...)
			if resp == nil || resp.NextPage == 0 {
				return out, nil
			}
			opts.Page = resp.NextPage
		}
	}
	if o == nil {
		return read()
	}
	o.mu.Lock()
	e := o.apps[strings.ToLower(org)]
	if e == nil {
		e = &orgApps{}
		o.apps[strings.ToLower(org)] = e
	}
	o.mu.Unlock()
	e.once.Do(func() { e.list, e.err = read() })
	return e.list, e.err
}

// personReviewed: the default branch requires a person's approving review
// that no bypass actor seen can skip and no workflow's token can give (the
// facts lib.github's reviewed_default judges; this is as strict). Then no
// app, whatever it may write, lands a change unreviewed, and which apps are
// installed changes no verdict.
func personReviewed(rv *model.BranchReview, a *model.ActionsSettings) bool {
	return rv != nil && rv.RequiresPullRequest && rv.Approvals >= 1 && rv.BypassKnown && len(rv.Bypass) == 0 &&
		a != nil && a.CanApprovePRs != nil && !*a.CanApprovePRs
}

// agentApps reads the agent apps installed on the repository's owner. What
// the token cannot tell is an errors[] entry when it could matter: when the
// default branch is not person-reviewed.
func (r *reader) agentApps(ctx context.Context, orgs *Orgs, ownerType string, matters bool) []model.AgentApp {
	unread := func(msg string) {
		if matters {
			r.errs = append(r.errs, model.Error{File: r.loc.File, Line: 1, Kind: KindReview, Message: "github: " + msg})
		}
	}
	if ownerType == "User" {
		unread("the GitHub Apps installed on the personal account " + r.owner + " not read (GitHub lists a personal account's installations to no personal token): whether an agent app can write here is unknown")
		return nil
	}
	list, err := orgs.installations(ctx, r.c, r.owner)
	if err != nil {
		unread(fmt.Sprintf("the GitHub Apps installed on organisation %s not read (%s): it needs an organisation owner's token with Administration: read on the organisation (admin:read for a classic token)", r.owner, why(err)))
		return nil
	}
	var out []model.AgentApp
	for _, in := range list {
		if in == nil {
			continue
		}
		agent := agentOfApp(in.GetAppSlug())
		if agent == "" {
			continue
		}
		a := model.AgentApp{Slug: in.GetAppSlug(), AppID: in.GetAppID(), Agent: agent, Repositories: in.GetRepositorySelection(),
			Permissions: permissions(in.GetPermissions()), Suspended: in.SuspendedAt != nil, OwnBranchesOnly: ownBranchesOnly[strings.ToLower(in.GetAppSlug())]}
		if a.Repositories != "all" && a.Permissions["contents"] == "write" && !a.Suspended && !a.OwnBranchesOnly {
			unread(fmt.Sprintf("whether the %s app (contents: write, installed on selected repositories of %s) reaches %s/%s not read (GitHub lists an installation's repositories to the app alone, with no permission a personal token can hold)", a.Slug, r.owner, r.owner, r.rep))
		}
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Slug < out[j].Slug })
	return out
}

// permissions are an installation's permissions that say what its agent
// can change, by name.
func permissions(p *gh.InstallationPermissions) map[string]string {
	out := map[string]string{}
	if p == nil {
		return out
	}
	for name, v := range map[string]*string{"contents": p.Contents, "pull_requests": p.PullRequests, "workflows": p.Workflows,
		"administration": p.Administration, "actions": p.Actions, "issues": p.Issues, "checks": p.Checks} {
		if v != nil && *v != "" {
			out[name] = *v
		}
	}
	return out
}
