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

// agentApps are the GitHub Apps that run a coding agent on the
// repository, by slug (the app's page is github.com/apps/SLUG): the
// vendors' own, each checked against the source named beside it. Keep
// this list current: a missing app is an agent with write access the
// audit does not see.
//
// An app is listed here for running a model over the repository, not for
// being able to write: what it can change is its installation's
// permissions, which GitHub enforces whatever the vendor says the app is
// for. A reviewer (Gemini Code Assist, CodeRabbit) installed with
// contents: read pushes nothing and is not judged a writer; one installed
// with contents: write can push, and a model reading pull requests
// strangers write is the one to be talked into it, so it is judged as any
// agent app (lib.github's app_writers, app_gaps).
var agentApps = map[string]string{
	// Anthropic's Claude app: "Install the Claude GitHub app …
	// https://github.com/apps/claude" (claude-code-action's setup,
	// https://docs.anthropic.com/en/docs/claude-code/github-actions); it
	// asks for contents, issues and pull requests read and write.
	"claude": "claude-code",
	// The Copilot coding agent: https://github.com/apps/copilot-swe-agent
	// is the html_url of the API's user Copilot (copilot-swe-agent[bot]),
	// the author of its commits; GitHub keeps its pushes to copilot/
	// branches (ownBranchesOnly).
	"copilot-swe-agent": "copilot",
	// OpenAI's ChatGPT Codex Connector, the app Codex cloud opens pull
	// requests and reviews as: https://github.com/apps/chatgpt-codex-connector
	// (owner openai).
	"chatgpt-codex-connector": "codex",
	// "The Cursor GitHub app connects your repositories so you can use
	// features like Cloud Agents and Bugbot" (https://cursor.com/docs/integrations/github);
	// its page is https://github.com/apps/cursor.
	"cursor": "cursor",
	// Cognition's "Devin.ai Integration" (https://github.com/apps/devin-ai-integration),
	// the app https://docs.devin.ai/integrations/gh connects.
	"devin-ai-integration": "devin",
	// "Google Labs Jules" (https://github.com/apps/google-labs-jules), the
	// app jules.google.com connects ("Connect to GitHub account",
	// https://jules.google/docs/).
	"google-labs-jules": "jules",
	// Gemini Code Assist on GitHub, a reviewer (gemini-code-assist[bot]):
	// https://github.com/apps/gemini-code-assist, the app
	// https://developers.google.com/gemini-code-assist/docs/set-up-code-assist-github installs.
	"gemini-code-assist": "gemini",
	// Amazon Q Developer: "install and configure the Amazon Q Developer app
	// from GitHub (https://github.com/apps/amazon-q-developer)",
	// https://docs.aws.amazon.com/amazonq/latest/qdeveloper-ug/amazon-q-for-github.html.
	"amazon-q-developer": "amazon-q",
	// OpenHands Cloud's "OpenHands AI" app (openhands-ai[bot]; its
	// installation link https://github.com/apps/openhands-ai/installations/new
	// in OpenHands' web app; https://docs.all-hands.dev/usage/cloud/github-installation
	// lists contents, pull requests and workflows read and write).
	// openhands-agent, listed before, named no vendor's app.
	"openhands-ai": "openhands",
	// Sweep: "install at https://github.com/apps/sweep-ai" (sweepai/sweep's
	// CLI and README; its bot is sweep-ai[bot]).
	"sweep-ai": "sweep",
	// CodeRabbit, a reviewer that also commits (docstrings, tests, fixes):
	// "Authorize coderabbitai" (https://docs.coderabbit.ai/platforms/github-com);
	// its app asks for contents and pull requests read and write
	// (coderabbitai/coderabbit-docs, the GitHub Enterprise Server setup).
	"coderabbitai": "coderabbit",
	// Factory's Droid: "Install the Droid GitHub app to your repository:
	// https://github.com/apps/factory-droid"
	// (https://github.com/Factory-AI/droid-action/blob/main/docs/setup.md).
	"factory-droid": "factory",
	// Codegen: not confirmed by the vendor's documentation (none found);
	// codegen-sh[bot] authors its pull requests and
	// https://github.com/apps/codegen-sh is the app setup guides install.
	// Kept, since a missing app is a writer unseen, and judged by its
	// installation's permissions as every other.
	"codegen-sh": "codegen",
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
