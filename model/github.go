package model

// Repository is what GitHub says of the repository the agent works in,
// read through its REST API (scan --github OWNER/REPO): the rules on the
// default branch, the Actions settings, CODEOWNERS and the Copilot coding
// agent's environment. A fact the token could not read is nil (unknown) and
// the audit's errors[] says which permission it needs; it is never taken as
// the secure or the insecure value.
type Repository struct {
	Loc
	Owner         string `json:"owner"`
	Name          string `json:"name"`
	DefaultBranch string `json:"default_branch"`
	Private       bool   `json:"private"`
	// Review is what a change needs to reach the default branch.
	Review *BranchReview `json:"review,omitempty"`
	// Actions are the repository's GitHub Actions settings.
	Actions *ActionsSettings `json:"actions,omitempty"`
	// CodeOwners is the CODEOWNERS file of the default branch.
	CodeOwners *CodeOwners `json:"code_owners,omitempty"`
	// Copilot is the copilot environment's firewall settings (its
	// variables), when the repository has that environment.
	Copilot *CopilotEnvironment `json:"copilot,omitempty"`
	// Environments are the protection rules of the environments the
	// scan's agent jobs deploy to, by name; one the token could not read
	// is missing (and in errors[]).
	Environments map[string]EnvironmentRules `json:"environments,omitempty"`
	// AgentApps are the GitHub Apps installed on the repository's owner
	// that run a coding agent, as the organisation's installations list
	// them (Administration: read on the organisation); absent when none
	// is, or when the token could not read them (an errors[] entry then
	// says so, when the default branch does not already require a
	// person's review nothing can bypass).
	AgentApps []AgentApp `json:"agent_apps,omitempty"`
}

// AgentApp is an installed GitHub App that runs a coding agent.
type AgentApp struct {
	Slug  string `json:"slug"`
	AppID int64  `json:"app_id"`
	// Agent is the agent it runs (claude-code, copilot, codex, cursor,
	// devin, jules…).
	Agent string `json:"agent"`
	// Repositories is "all" (every repository of the owner, this one
	// included) or "selected" (some: GitHub lists which to the app
	// alone, so whether this one is stays unknown).
	Repositories string `json:"repositories"`
	// Permissions are the installation's (contents: write, pull_requests:
	// write, workflows: write…).
	Permissions map[string]string `json:"permissions"`
	Suspended   bool              `json:"suspended"`
	// OwnBranchesOnly: GitHub itself keeps the agent's pushes to its own
	// branches (the Copilot coding agent's to copilot/…), whatever its
	// permissions say.
	OwnBranchesOnly bool `json:"own_branches_only"`
}

// EnvironmentRules are an environment's protection rules (Environments:
// read). An environment a job names that does not exist yet is created
// on its first run with none.
type EnvironmentRules struct {
	// RequiredReviewers is how many people or teams are listed, one of
	// whom must approve each run before the job starts.
	RequiredReviewers int  `json:"required_reviewers"`
	PreventSelfReview bool `json:"prevent_self_review"`
	WaitTimer         int  `json:"wait_timer"` // minutes
}

// BranchReview merges every rule in force on the default branch: its
// rulesets (readable with read access) and classic branch protection.
type BranchReview struct {
	// RequiresPullRequest: changes must come through a pull request.
	RequiresPullRequest bool `json:"requires_pull_request"`
	Approvals           int  `json:"approvals"` // required approving reviews
	DismissStale        bool `json:"dismiss_stale"`
	CodeOwnerReview     bool `json:"code_owner_review"`
	LastPushApproval    bool `json:"last_push_approval"`
	// Bypass lists who may bypass the rules ("Integration 15368" is GitHub
	// Actions, "RepositoryRole 5" admins, "OrganizationAdmin"…);
	// BypassKnown is false when the token could not read that list.
	Bypass      []string `json:"bypass"`
	BypassKnown bool     `json:"bypass_known"`
	// Sources name where each rule came from (a ruleset, branch protection).
	Sources []string `json:"sources"`
}

// ActionsSettings are the repository's Actions settings. A nil pointer is
// a setting the token could not read.
type ActionsSettings struct {
	// DefaultPermissions is the GITHUB_TOKEN's default: read or write ("":
	// not readable).
	DefaultPermissions string `json:"default_permissions"`
	CanApprovePRs      *bool  `json:"can_approve_pull_requests,omitempty"`
	// AllowedActions: all, local_only or selected ("": not readable).
	AllowedActions     string `json:"allowed_actions"`
	SHAPinningRequired *bool  `json:"sha_pinning_required,omitempty"`
}

// CodeOwners is the CODEOWNERS file and what it leaves unowned.
type CodeOwners struct {
	Found bool   `json:"found"`
	File  string `json:"file"` // .github/CODEOWNERS, CODEOWNERS or docs/CODEOWNERS
	// Unowned lists the guardrail files of the scan (workflows, agent
	// settings, MCP configs, devcontainers) that no CODEOWNERS rule covers.
	Unowned []string `json:"unowned"`
}

// CopilotEnvironment is the copilot environment's firewall variables.
type CopilotEnvironment struct {
	// FirewallEnabled is COPILOT_AGENT_FIREWALL_ENABLED (default true).
	FirewallEnabled bool `json:"firewall_enabled"`
	// AllowList is COPILOT_AGENT_FIREWALL_ALLOW_LIST_ADDITIONS, split.
	AllowList []string `json:"allow_list"`
	// PublicSuffixes are the entries of AllowList that name a public
	// suffix of the Public Suffix List, or every host one level under
	// one (*.co.uk, github.io, *.compute.amazonaws.com): domains under
	// which anyone can own a host.
	PublicSuffixes []string `json:"public_suffixes"`
}
