// Package github reads, through GitHub's REST API, what a repository's
// settings say about the agent's output: the rules a change needs to reach
// the default branch (rulesets and branch protection), the Actions settings
// (default GITHUB_TOKEN permissions, whether Actions may approve pull
// requests, allowed actions), CODEOWNERS and the Copilot coding agent's
// firewall variables. It asks for each fact with the least privilege that
// gives it; a fact the token cannot read stays unknown and an errors[]
// entry names the permission it needs.
//
// The token comes from the environment (GITHUB_TOKEN, GH_TOKEN) and is
// only ever sent in the Authorization header to the API host given.
package github

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	gh "github.com/google/go-github/v89/github"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// Options say which repository to read and how.
type Options struct {
	Owner, Repo string
	// APIURL is the REST API's base: "" for api.github.com, else GitHub
	// Enterprise Server's (https://HOST/api/v3/).
	APIURL string
	Token  string
	// Client carries the requests ("" : a client with a 30 s timeout that
	// waits out rate limits, see transport).
	Client *http.Client
	// Files, when set, fetches the repository's configuration files (the
	// ones a collector reads) into that directory, to audit them as a
	// checkout: scan --github without a local checkout.
	Files string
	// Match says which repository paths to fetch.
	Match func(path string) bool
	// Known, when set, is the repository as an organisation's listing
	// gave it: its default branch is not asked for again.
	Known *RepoInfo
	// Cache, when set, keeps answers between runs and asks again with
	// their ETags (nil: every answer is asked for whole).
	Cache *Cache
	// Orgs, when set, is shared by the repositories of one run: what is
	// read once per organisation (its installed apps).
	Orgs *Orgs
}

// RepoInfo is one repository of an organisation's listing.
type RepoInfo struct {
	Owner, Name, DefaultBranch string
	Private, Archived, Fork    bool
}

// newClient is the API client of opt.
func newClient(opt Options) (*gh.Client, error) {
	hc := opt.Client
	if hc == nil {
		hc = NewClient(0)
	}
	api, _ := url.Parse("https://api.github.com/")
	if opt.APIURL != "" {
		u, err := url.Parse(strings.TrimSuffix(opt.APIURL, "/") + "/")
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return nil, fmt.Errorf("%w: --github-url %q is not an API URL (https://HOST/api/v3/)", ErrRepository, opt.APIURL)
		}
		api = u
	}
	// Whoever made the client, its requests go through bounded: only to
	// the API's host (go-github puts the token on every request, redirects
	// included) and with bounded answers.
	bc := *hc
	bc.Transport = &bounded{base: hc.Transport, origin: origin(api)}
	if opt.Cache != nil {
		// Above bounded: what the cache keeps was read within its bounds.
		bc.Transport = &cached{base: bc.Transport, cache: opt.Cache}
	}
	// The transport waits out rate limits; the client's own check would
	// refuse requests the transport would wait for.
	copts := []gh.ClientOptionsFunc{gh.WithHTTPClient(&bc), gh.WithDisableRateLimitCheck(), gh.WithUserAgent("sandbox-audit")}
	if opt.Token != "" {
		copts = append(copts, gh.WithAuthToken(opt.Token))
	}
	if opt.APIURL != "" {
		base := api.String()
		copts = append(copts, gh.WithURLs(&base, &base))
	}
	c, err := gh.NewClient(copts...)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrRepository, err)
	}
	return c, nil
}

// ListRepos lists an organisation's repositories (100 a page), without
// forks and archived ones unless asked.
func ListRepos(ctx context.Context, opt Options, forks, archived bool) ([]RepoInfo, error) {
	c, err := newClient(opt)
	if err != nil {
		return nil, err
	}
	var out []RepoInfo
	lo := &gh.RepositoryListByOrgOptions{Type: "all", Sort: "full_name", ListOptions: gh.ListOptions{PerPage: 100}}
	for {
		rs, resp, err := c.Repositories.ListByOrg(ctx, opt.Owner, lo)
		if err != nil {
			if s := status(err); s == 404 || s == 403 || s == 401 {
				return nil, fmt.Errorf("%w: organisation %s not found, or its repositories not visible to the token (GitHub answered %d)", ErrRepository, opt.Owner, s)
			}
			return nil, fmt.Errorf("%w: organisation %s: %s", ErrRepository, opt.Owner, why(err))
		}
		if rs == nil {
			return nil, fmt.Errorf("%w: organisation %s: %s", ErrRepository, opt.Owner, why(errNull))
		}
		for _, r := range rs {
			info := RepoInfo{Owner: opt.Owner, Name: r.GetName(), DefaultBranch: r.GetDefaultBranch(), Private: r.GetPrivate(), Archived: r.GetArchived(), Fork: r.GetFork()}
			if (info.Fork && !forks) || (info.Archived && !archived) || info.Name == "" || !validName(info.Name) {
				continue
			}
			out = append(out, info)
		}
		if resp == nil || resp.NextPage == 0 {
			break
		}
		lo.Page = resp.NextPage
	}
	return out, nil
}

// ErrRepository marks a repository that cannot be read at all (not found,
// not visible to the token): nothing to audit, exit 2.
var ErrRepository = errors.New("github")

// Kinds of the errors[] entries: which property a fact that could not be
// read leaves unknown (policies/unread.rego).
const (
	KindReview      = "github:review"
	KindCredentials = "github:credentials"
	KindNetwork     = "github:network"
)

// maxFiles and maxFileSize bound what Files fetches (maxFileSize also a
// CODEOWNERS file); a variable so that tests can shrink it.
const maxFiles = 400

var maxFileSize int64 = 1 << 20

// ParseRepo splits OWNER/REPO.
func ParseRepo(s string) (owner, repo string, err error) {
	owner, repo, ok := strings.Cut(strings.TrimSuffix(s, ".git"), "/")
	if !ok || owner == "" || repo == "" || strings.Contains(repo, "/") || !validName(owner) || !validName(repo) {
		return "", "", fmt.Errorf("%w: %q is not OWNER/REPO", ErrRepository, s)
	}
	return owner, repo, nil
}

func validName(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return s != "." && s != ".."
}

// Token is the token from the environment: GITHUB_TOKEN, else GH_TOKEN.
func Token() string {
	if t := os.Getenv("GITHUB_TOKEN"); t != "" {
		return t
	}
	return os.Getenv("GH_TOKEN")
}

type reader struct {
	c          *gh.Client
	owner, rep string
	loc        model.Loc
	errs       []model.Error
}

// newReader is a reader of opt's repository, located at github/OWNER/REPO
// (its location even when the client cannot be made).
func newReader(opt Options) (*reader, error) {
	r := &reader{owner: opt.Owner, rep: opt.Repo, loc: model.Loc{File: "github/" + opt.Owner + "/" + opt.Repo, Line: 1}}
	c, err := newClient(opt)
	r.c = c
	return r, err
}

// unread records a fact the token could not read.
func (r *reader) unread(kind, fact, permission string, err error) {
	r.errs = append(r.errs, model.Error{File: r.loc.File, Line: 1, Kind: kind,
		Message: fmt.Sprintf("github: %s not read (%s): it needs %s", fact, why(err), permission)})
}

// errNull is an answer of 200 with nothing in it (null): the fact it
// carries is as unknown as after a 403.
var errNull = errors.New("GitHub answered null")

// status is the HTTP status of an API error (0: none). go-github has an
// error type per kind of answer; each carries the response.
func status(err error) int {
	var (
		ge *gh.ErrorResponse
		tf *gh.TwoFactorAuthError
		rl *gh.RateLimitError
		ab *gh.AbuseRateLimitError
		re *gh.RedirectionError
	)
	switch {
	case errors.As(err, &ge) && ge.Response != nil:
		return ge.Response.StatusCode
	case errors.As(err, &tf) && tf.Response != nil:
		return tf.Response.StatusCode
	case errors.As(err, &rl) && rl.Response != nil:
		return rl.Response.StatusCode
	case errors.As(err, &ab) && ab.Response != nil:
		return ab.Response.StatusCode
	case errors.As(err, &re):
		return re.StatusCode
	}
	return 0
}

// why says why a request failed, for a message: the status GitHub
// answered, never its body. The server writes the body (and go-github's
// Error() quotes its "message" and the URL): a proxy or a hostile
// --github-url may put anything there, credentials included. A decoding
// error can quote the answer too (a bad timestamp, number); any other
// error goes through the redactor.
func why(err error) string {
	if s := status(err); s != 0 {
		return fmt.Sprintf("GitHub answered %d", s)
	}
	var (
		se *json.SyntaxError
		te *json.UnmarshalTypeError
		pe *time.ParseError
		ne *strconv.NumError
	)
	if errors.As(err, &se) || errors.As(err, &te) || errors.As(err, &pe) || errors.As(err, &ne) {
		return "GitHub's answer is not the JSON expected"
	}
	s := secrets.Redact(err.Error())
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// safely is an API call whose answer go-github's decoders could panic on:
// those of rules dereference each element of the answer's array, and a
// null element ([null]) is a nil pointer. The panic is an unreadable
// answer.
func safely[T any](call func() (T, *gh.Response, error)) (v T, resp *gh.Response, err error) {
	defer func() {
		if recover() != nil {
			var zero T
			v, resp, err = zero, nil, errors.New("GitHub's answer is not the JSON expected")
		}
	}()
	return call()
}

// Collect reads the repository's settings. It fails only when the
// repository itself cannot be read; every other fact that cannot be read
// is an errors[] entry.
func Collect(ctx context.Context, opt Options) (*model.Repository, []model.Error, error) {
	r, err := newReader(opt)
	if err != nil {
		return nil, nil, err
	}
	c := r.c
	repo := &gh.Repository{}
	if k := opt.Known; k != nil && k.DefaultBranch != "" {
		repo.DefaultBranch, repo.Private = &k.DefaultBranch, &k.Private
	} else if repo, _, err = c.Repositories.Get(ctx, opt.Owner, opt.Repo); err != nil || repo == nil {
		if s := status(err); s == 404 || s == 403 || s == 401 {
			return nil, nil, fmt.Errorf("%w: repository %s/%s not found, or not visible to the token (GitHub answered %d; a private repository needs a token that can read it)", ErrRepository, opt.Owner, opt.Repo, s)
		}
		if err == nil {
			err = errNull
		}
		return nil, nil, fmt.Errorf("%w: repository %s/%s: %s", ErrRepository, opt.Owner, opt.Repo, why(err))
	}
	ownerType := repo.GetOwner().GetType() // "User", "Organization"
	if ownerType == "" && opt.Known != nil && opt.Known.DefaultBranch != "" {
		ownerType = "Organization" // an organisation's listing gave it
	}
	out := &model.Repository{Loc: r.loc, Owner: opt.Owner, Name: opt.Repo, DefaultBranch: repo.GetDefaultBranch(), Private: repo.GetPrivate()}
	out.Review = r.review(ctx, out.DefaultBranch)
	out.Actions = r.actions(ctx)
	out.AgentApps = r.agentApps(ctx, opt.Orgs, ownerType, !personReviewed(out.Review, out.Actions))
	out.Copilot = r.copilot(ctx)
	if opt.Files != "" {
		if err := r.fetchFiles(ctx, out.DefaultBranch, opt.Files, opt.Match); err != nil {
			r.errs = append(r.errs, model.Error{File: r.loc.File, Line: 1, Kind: model.KindUnknown,
				Message: "github: the repository's files were not read: " + why(err) + " (they need Contents: read)"})
		}
	}
	return out, r.errs, nil
}

// review merges the rules in force on the branch: rulesets (readable with
// read access; their bypass lists need more) and classic protection
// (Administration: read).
func (r *reader) review(ctx context.Context, branch string) *model.BranchReview {
	rv := &model.BranchReview{Bypass: []string{}, BypassKnown: true, Sources: []string{}}
	var hidden []string // the rulesets whose bypass lists the token may not see
	defer func() {
		// A bypass list is shown only to those who may edit the ruleset.
		// When the rules known require a review, who may skip it is what
		// decides whether a change can land unreviewed: unknown, and said.
		if len(hidden) > 0 && rv.RequiresPullRequest && rv.Approvals >= 1 {
			r.errs = append(r.errs, model.Error{File: r.loc.File, Line: 1, Kind: KindReview,
				Message: fmt.Sprintf("github: who may bypass the rules of branch %s not read (%s): it needs a token that may edit the ruleset, a repository admin's or a role's that may edit repository rules (an organisation's ruleset: an organisation owner's); whether an agent's token or app can skip the required review is unknown", branch, strings.Join(hidden, "; "))})
		}
	}()
	rulesets := map[int64]string{}
	opts := &gh.ListOptions{PerPage: 100}
	for {
		rules, resp, err := safely(func() (*gh.BranchRules, *gh.Response, error) {
			return r.c.Repositories.ListRulesForBranch(ctx, r.owner, r.rep, branch, opts)
		})
		if err == nil && rules == nil {
			err = errNull // no rules is [], not null
		}
		if err != nil {
			r.unread(KindReview, "the rules of branch "+branch, "read access (Metadata: read)", err)
			return nil
		}
		for _, pr := range rules.PullRequest {
			rv.RequiresPullRequest = true
			p := pr.Parameters
			rv.Approvals = max(rv.Approvals, p.RequiredApprovingReviewCount)
			rv.DismissStale = rv.DismissStale || p.DismissStaleReviewsOnPush
			rv.CodeOwnerReview = rv.CodeOwnerReview || p.RequireCodeOwnerReview
			rv.LastPushApproval = rv.LastPushApproval || p.RequireLastPushApproval
			rulesets[pr.RulesetID] = pr.RulesetSource
		}
		if resp == nil || resp.NextPage == 0 {
			break
		}
		opts.Page = resp.NextPage
	}
	ids := make([]int64, 0, len(rulesets))
	for id := range rulesets {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	for _, id := range ids {
		rs, _, err := safely(func() (*gh.RepositoryRuleset, *gh.Response, error) {
			return r.c.Repositories.GetRuleset(ctx, r.owner, r.rep, id, true)
		})
		if err == nil && rs == nil {
			err = errNull
		}
		if err != nil || rs.BypassActors == nil {
			// The list is shown only to those who may edit the ruleset.
			rv.BypassKnown = false
			rv.Sources = append(rv.Sources, fmt.Sprintf("ruleset %d", id))
			reason := "no bypass list in GitHub's answer: it shows one only to those who may edit the ruleset"
			if err != nil {
				reason = "its answer not read: " + why(err)
			}
			hidden = append(hidden, fmt.Sprintf("ruleset %d: %s", id, reason))
			continue
		}
		rv.Sources = append(rv.Sources, fmt.Sprintf("ruleset %q (%d)", rs.Name, id))
		for _, a := range rs.BypassActors {
			if a == nil {
				rv.BypassKnown = false // an actor the answer does not name
				hidden = append(hidden, fmt.Sprintf("ruleset %q (%d): a bypass actor GitHub's answer does not name", rs.Name, id))
				continue
			}
			actor := ""
			if t := a.GetActorType(); t != nil {
				actor = string(*t)
			}
			if a.ActorID != nil {
				actor += fmt.Sprintf(" %d", a.GetActorID())
			}
			if m := a.GetBypassMode(); m != nil && *m != "" && *m != "always" {
				actor += " (" + string(*m) + ")"
			}
			rv.Bypass = append(rv.Bypass, actor)
		}
	}
	b, _, err := r.c.Repositories.GetBranch(ctx, r.owner, r.rep, branch, 1)
	if err == nil && b == nil {
		err = errNull
	}
	if err != nil {
		r.unread(KindReview, "branch "+branch, "read access (Contents: read)", err)
		return nil
	}
	if !b.GetProtected() {
		return rv
	}
	p, _, err := r.c.Repositories.GetBranchProtection(ctx, r.owner, r.rep, branch)
	if err == nil && p == nil {
		err = errNull
	}
	switch {
	case err == nil:
		rv.Sources = append(rv.Sources, "branch protection")
		if pr := p.GetRequiredPullRequestReviews(); pr != nil {
			rv.RequiresPullRequest = true
			rv.Approvals = max(rv.Approvals, pr.RequiredApprovingReviewCount)
			rv.DismissStale = rv.DismissStale || pr.DismissStaleReviews
			rv.CodeOwnerReview = rv.CodeOwnerReview || pr.RequireCodeOwnerReviews
			rv.LastPushApproval = rv.LastPushApproval || pr.RequireLastPushApproval
			if al := pr.BypassPullRequestAllowances; al != nil {
				for _, a := range al.Apps {
					rv.Bypass = append(rv.Bypass, "App "+a.GetSlug())
				}
				for _, u := range al.Users {
					rv.Bypass = append(rv.Bypass, "User "+u.GetLogin())
				}
				for _, t := range al.Teams {
					rv.Bypass = append(rv.Bypass, "Team "+t.GetSlug())
				}
			}
		}
		if ea := p.GetEnforceAdmins(); ea == nil || !ea.Enabled {
			rv.Bypass = append(rv.Bypass, "RepositoryRole admin (branch protection not enforced for admins)")
		}
	case errors.Is(err, gh.ErrBranchNotProtected):
		// protected through rulesets only
	default:
		// The branch is protected and the token may not see how: what it
		// requires is unknown, so nothing here may pass for it.
		r.unread(KindReview, "the branch protection of "+branch, "Administration: read", err)
		return nil
	}
	sort.Strings(rv.Bypass)
	return rv
}

// actions reads the Actions settings (Administration: read).
func (r *reader) actions(ctx context.Context) *model.ActionsSettings {
	a := &model.ActionsSettings{}
	wp, _, err := r.c.Repositories.GetDefaultWorkflowPermissions(ctx, r.owner, r.rep)
	if err == nil && wp == nil {
		err = errNull
	}
	if err != nil {
		r.unread(KindCredentials, "the default GITHUB_TOKEN permissions", "Administration: read", err)
		r.unread(KindReview, "whether Actions may approve pull requests", "Administration: read", err)
	} else {
		a.DefaultPermissions = wp.GetDefaultWorkflowPermissions()
		a.CanApprovePRs = wp.CanApprovePullRequestReviews
	}
	ap, _, err := r.c.Repositories.GetActionsPermissions(ctx, r.owner, r.rep)
	if err == nil && ap == nil {
		err = errNull
	}
	if err != nil {
		r.unread(KindReview, "the allowed actions", "Administration: read", err)
	} else {
		a.AllowedActions = ap.GetAllowedActions()
		a.SHAPinningRequired = ap.SHAPinningRequired
	}
	if a.DefaultPermissions == "" && a.AllowedActions == "" {
		return nil
	}
	return a
}

// listEnvironments lists the repository's environments (Actions: read),
// 100 a page, by name (GitHub's names are not case-sensitive: lower-cased
// here). One listing answers for every environment: a 200 with an ETag,
// which a conditional request turns into a 304 while no environment
// changes, where asking for one environment by name answers 404 when it
// does not exist, and a 404 is never cached: the listing costs no rate
// limit on a repeated run, and an environment created meanwhile changes
// the listing's ETag, so it is never hidden by a stale answer.
func (r *reader) listEnvironments(ctx context.Context) (map[string]*gh.Environment, error) {
	out := map[string]*gh.Environment{}
	opts := &gh.EnvironmentListOptions{ListOptions: gh.ListOptions{PerPage: 100}}
	for {
		page, resp, err := r.c.Repositories.ListEnvironments(ctx, r.owner, r.rep, opts)
		if err == nil && page == nil {
			err = errNull
		}
		if err != nil {
			return nil, err
		}
		for _, e := range page.Environments {
			if e == nil || e.GetName() == "" {
				continue
			}
			out[strings.ToLower(e.GetName())] = e
		}
		if resp == nil || resp.NextPage == 0 {
			return out, nil
		}
		opts.Page = resp.NextPage
	}
}

// copilot reads the copilot environment's firewall variables: the
// environment from the repository's listing (Actions: read), its variables
// (Environments: read) only when it exists. No such environment: the
// firewall's defaults.
func (r *reader) copilot(ctx context.Context) *model.CopilotEnvironment {
	envs, err := r.listEnvironments(ctx)
	if err != nil {
		r.unread(KindNetwork, "the copilot environment (the repository's environments)", "Actions: read", err)
		return nil
	}
	e := envs["copilot"]
	if e == nil {
		return nil
	}
	name := e.GetName() // as GitHub spells it
	env := &model.CopilotEnvironment{FirewallEnabled: true, AllowList: []string{}}
	opts := &gh.ListOptions{PerPage: 30}
	for {
		vs, resp, err := r.c.Actions.ListEnvVariables(ctx, r.owner, r.rep, name, opts)
		if err == nil && vs == nil {
			err = errNull
		}
		if err != nil {
			r.unread(KindNetwork, "the copilot environment's variables", "Environments: read (Variables: read)", err)
			return nil
		}
		for _, v := range vs.Variables {
			if v == nil {
				continue
			}
			switch strings.ToUpper(v.Name) {
			case "COPILOT_AGENT_FIREWALL_ENABLED":
				env.FirewallEnabled = !strings.EqualFold(strings.TrimSpace(v.Value), "false")
			case "COPILOT_AGENT_FIREWALL_ALLOW_LIST_ADDITIONS":
				for _, h := range strings.FieldsFunc(v.Value, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' }) {
					env.AllowList = append(env.AllowList, h)
				}
			}
		}
		if resp == nil || resp.NextPage == 0 {
			break
		}
		opts.Page = resp.NextPage
	}
	env.PublicSuffixes = publicSuffixes(env.AllowList)
	return env
}

// Environments reads the protection rules of the named environments (the
// ones the scan's agent jobs deploy to) from the repository's listing of
// environments (Actions: read; one request, whatever the number of names,
// and a 304 on a repeated run with the cache): required reviewers gate
// each run of such a job, and its secrets, on a person's approval. An
// environment the listing does not have is created on the job's first run,
// with no rules. A listing the token cannot read is an errors[] entry per
// name, each missing.
func Environments(ctx context.Context, opt Options, names []string) (map[string]model.EnvironmentRules, []model.Error) {
	r, err := newReader(opt)
	if err != nil {
		return nil, []model.Error{{File: r.loc.File, Line: 1, Kind: KindReview, Message: "github: environments not read: " + why(err)}}
	}
	envs, err := r.listEnvironments(ctx)
	if err != nil {
		for _, name := range names {
			r.unread(KindReview, fmt.Sprintf("environment %q", name), "Actions: read", err)
		}
		return nil, r.errs
	}
	out := map[string]model.EnvironmentRules{}
	for _, name := range names {
		e := envs[strings.ToLower(name)]
		if e == nil {
			out[name] = model.EnvironmentRules{}
			continue
		}
		var rules model.EnvironmentRules
		for _, p := range e.ProtectionRules {
			if p == nil {
				continue
			}
			switch p.GetType() {
			case "required_reviewers":
				rules.RequiredReviewers += len(p.Reviewers)
				rules.PreventSelfReview = rules.PreventSelfReview || p.GetPreventSelfReview()
			case "wait_timer":
				rules.WaitTimer = p.GetWaitTimer()
			}
		}
		out[name] = rules
	}
	return out, r.errs
}

// fetchFiles writes the default branch's configuration files (those match
// accepts) under dir, as a shallow checkout would: the tree in one request,
// each file as a raw blob.
func (r *reader) fetchFiles(ctx context.Context, branch, dir string, match func(string) bool) error {
	tree, _, err := r.c.Git.GetTree(ctx, r.owner, r.rep, branch, true)
	if err == nil && tree == nil {
		err = errNull
	}
	if err != nil {
		return err
	}
	if tree.GetTruncated() {
		// GitHub cut the listing short: files it left out are unread.
		r.errs = append(r.errs, model.Error{File: r.loc.File, Line: 1, Kind: model.KindUnknown,
			Message: "github: the repository's file list was truncated by GitHub (too many files): files past it were not audited; audit a checkout instead"})
	}
	n := 0
	for _, e := range tree.Entries {
		p := e.GetPath()
		if e.GetType() != "blob" || e.GetMode() == "120000" || skipped(p) {
			continue
		}
		if !match(p) && !isCodeOwners(p) {
			continue
		}
		if int64(e.GetSize()) > maxFileSize {
			r.errs = append(r.errs, model.Error{File: p, Kind: model.KindUnknown,
				Message: fmt.Sprintf("github: %s is larger than %d bytes: not fetched, not audited", p, maxFileSize)})
			continue
		}
		if n++; n > maxFiles {
			return fmt.Errorf("more than %d configuration files; audit a checkout instead", maxFiles)
		}
		// The tree's size is the server's word: the answer itself is
		// capped too (bounded).
		b, _, err := r.c.Git.GetBlobRaw(withLimit(ctx, maxFileSize), r.owner, r.rep, e.GetSHA())
		if err != nil {
			return err
		}
		abs := filepath.Join(dir, filepath.FromSlash(p))
		if !strings.HasPrefix(abs, filepath.Clean(dir)+string(filepath.Separator)) {
			continue // a path that leaves the directory is no file of ours
		}
		if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
			return err
		}
		if err := os.WriteFile(abs, b, 0o600); err != nil {
			return err
		}
	}
	return nil
}

func skipped(p string) bool {
	for _, seg := range strings.Split(p, "/") {
		switch seg {
		case "node_modules", "vendor", ".git", "..", "":
			return true
		}
	}
	return false
}

// codeOwnersFiles are where GitHub looks for CODEOWNERS, in its order.
var codeOwnersFiles = []string{".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS"}

func isCodeOwners(p string) bool {
	for _, f := range codeOwnersFiles {
		if p == f {
			return true
		}
	}
	return false
}

// maxRuleLine and maxRules bound what CodeOwners judges: no real
// CODEOWNERS line is 4 KiB long, nor a file 20,000 rules. A file past
// them is not judged: nothing it names is taken as owned, as a file the
// audit cannot read would not make anything owned.
var (
	maxRuleLine = 4096
	maxRules    = 20000
)

type ownerRule struct {
	pattern string
	owned   bool // false: a pattern with no owner takes ownership away
}

// CodeOwners reads the CODEOWNERS file under root (the first GitHub would
// use) and lists the guardrail files that no rule of it covers.
func CodeOwners(ctx context.Context, root string, guardrails []string) *model.CodeOwners {
	co := &model.CodeOwners{Unowned: []string{}}
	var rules []ownerRule
	judged := true
	for _, f := range codeOwnersFiles {
		b, err := collectors.ReadFile(ctx, filepath.Join(root, filepath.FromSlash(f)), maxFileSize)
		if err != nil {
			continue
		}
		co.Found, co.File = true, f
		for _, line := range strings.Split(string(b), "\n") {
			if len(line) > maxRuleLine || len(rules) >= maxRules {
				judged = false
				break
			}
			if i := strings.Index(line, " #"); i >= 0 {
				line = line[:i] // an inline comment
			}
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			fields := strings.Fields(line)
			rules = append(rules, ownerRule{pattern: fields[0], owned: len(fields) > 1})
		}
		break
	}
	if !co.Found || !judged {
		// No file, or none judged: nothing has an owner.
		co.Unowned = append(co.Unowned, guardrails...)
		sort.Strings(co.Unowned)
		return co
	}
	for _, g := range guardrails {
		owned := false
		for _, rl := range rules { // the last matching pattern wins
			if ctx.Err() != nil {
				owned = false // not judged to the end: not owned
				break
			}
			if ownerMatch(rl.pattern, g) {
				owned = rl.owned
			}
		}
		if !owned {
			co.Unowned = append(co.Unowned, g)
		}
	}
	sort.Strings(co.Unowned)
	return co
}

// ownerMatch is CODEOWNERS' gitignore-like matching of pattern to a
// repository path: a leading / anchors at the root, a trailing / or a
// directory matches everything below it, * does not cross /, ** does.
func ownerMatch(pattern, p string) bool {
	if pattern == "*" || pattern == "**" || pattern == "/**" {
		return true
	}
	anchored := strings.HasPrefix(pattern, "/")
	pattern = strings.TrimPrefix(pattern, "/")
	dir := strings.HasSuffix(pattern, "/")
	pattern = strings.TrimSuffix(pattern, "/")
	if !anchored && !strings.Contains(pattern, "/") {
		// A bare name matches at any depth: the file or a directory.
		segs := strings.Split(p, "/")
		for i, s := range segs {
			if ok, _ := path.Match(pattern, s); ok && (!dir || i < len(segs)-1) {
				return true
			}
		}
		return false
	}
	return matchSegs(strings.Split(pattern, "/"), strings.Split(p, "/"), dir)
}

// matchSegs matches pattern segments to path segments. A pattern is the
// repository's to write: tried naively, each ** tries every split of the
// rest, exponential in the number of **. Consecutive ** are one, a pattern
// with more other segments than the path has cannot match (each takes one
// segment), and each (pattern segment, path segment) pair is decided once:
// O(len(pats) × len(segs)).
func matchSegs(pats, segs []string, dir bool) bool {
	collapsed, n := pats[:0:0], 0
	for i, p := range pats {
		if p == "**" && i > 0 && pats[i-1] == "**" {
			continue
		}
		if p != "**" {
			n++
		}
		collapsed = append(collapsed, p)
	}
	pats = collapsed
	if n > len(segs) {
		return false
	}
	w := len(segs) + 1
	memo := make([]int8, (len(pats)+1)*w) // 0 unknown, 1 match, -1 none
	var m func(i, j int) bool
	m = func(i, j int) bool {
		if memo[i*w+j] == 0 {
			memo[i*w+j] = -1
			if matchAt(pats, segs, i, j, dir, m) {
				memo[i*w+j] = 1
			}
		}
		return memo[i*w+j] > 0
	}
	return m(0, 0)
}

// matchAt is whether pats[i:] matches segs[j:], m deciding the rest.
func matchAt(pats, segs []string, i, j int, dir bool, m func(i, j int) bool) bool {
	rest := len(segs) - j
	if i == len(pats) {
		// The pattern is a directory above the path, or the path itself.
		return rest > 0 || !dir
	}
	last := i == len(pats)-1
	if last && pats[i] != "**" && strings.ContainsAny(pats[i], "*?[") && rest > 1 {
		// docs/* owns docs' own files, not those of its subdirectories
		// (GitHub's CODEOWNERS documentation).
		return false
	}
	if pats[i] == "**" {
		// none of the path's segments, or one more
		return m(i+1, j) || (rest > 0 && m(i, j+1))
	}
	if rest == 0 {
		return false
	}
	if ok, _ := path.Match(pats[i], segs[j]); !ok {
		return false
	}
	if last && rest == 1 {
		return !dir
	}
	return m(i+1, j+1)
}
