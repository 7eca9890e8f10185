// Package workflows collects GitHub Actions workflows that run a coding
// agent (claude-code-action, codex-action, `claude -p` in a run step…) or
// prepare its environment (copilot-setup-steps.yml): triggers, token
// permissions, runners, secrets, checkout credentials, pushes and merges.
// Workflows that involve no agent add nothing.
package workflows

import (
	"context"
	"fmt"
	"path"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/yamlpos"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// Collector reads .github/workflows/*.yml.
type Collector struct{}

// New returns the GitHub Actions workflow collector.
func New() *Collector { return &Collector{} }

// Name implements collectors.Collector.
func (*Collector) Name() string { return "workflows" }

// Match accepts YAML files directly in a .github/workflows directory (GitHub
// does not run files in its subdirectories) and composite actions
// (action.yml): a repository's own action can run an agent too.
func (*Collector) Match(p string) bool {
	ext := path.Ext(p)
	if ext != ".yml" && ext != ".yaml" {
		return false
	}
	if base := path.Base(p); base == "action.yml" || base == "action.yaml" {
		return true
	}
	// workflow-templates/: an organisation's starter workflows (in its
	// .github repository), copied into each repository that adopts one.
	dir := path.Dir(p)
	return dir == ".github/workflows" || strings.HasSuffix(dir, "/.github/workflows") ||
		dir == "workflow-templates" || strings.HasSuffix(dir, "/workflow-templates")
}

// compositeJobs presents a composite action's runs.steps as one job named
// "composite", so its steps are read like a workflow job's.
func compositeJobs(top *yaml.Node) *yaml.Node {
	runs := get(top, "runs")
	if runs == nil || runs.Kind != yaml.MappingNode || scalar(get(runs, "using")) != "composite" {
		return nil
	}
	steps := get(runs, "steps")
	if steps == nil {
		return nil
	}
	key := &yaml.Node{Kind: yaml.ScalarNode, Value: "composite", Line: runs.Line}
	body := &yaml.Node{Kind: yaml.MappingNode, Line: runs.Line, Content: []*yaml.Node{
		{Kind: yaml.ScalarNode, Value: "steps", Line: steps.Line}, steps,
	}}
	return &yaml.Node{Kind: yaml.MappingNode, Line: runs.Line, Content: []*yaml.Node{key, body}}
}

// copilotHonoured are the copilot-setup-steps job keys the Copilot coding
// agent reads (FORMATS.md); others are silently ignored by it.
var copilotHonoured = map[string]bool{
	"steps": true, "permissions": true, "runs-on": true, "services": true, "snapshot": true, "timeout-minutes": true,
}

// Collect implements collectors.Collector.
func (*Collector) Collect(ctx context.Context, p string, data []byte, doc *model.Document) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return &collectors.ParseError{Line: yamlpos.ErrLine(err, data), Err: fmt.Errorf("parse yaml: %w", err)}
	}
	if root.Kind != yaml.DocumentNode || len(root.Content) == 0 {
		return nil
	}
	top := root.Content[0]
	if top.Kind != yaml.MappingNode {
		return nil
	}
	jobs := get(top, "jobs")
	if jobs == nil {
		jobs = compositeJobs(top)
	}
	if jobs == nil || jobs.Kind != yaml.MappingNode {
		return nil // neither a workflow nor a composite action
	}
	c := &collector{file: p, doc: doc, scan: &scanner{}}
	base := path.Base(p)
	wf := model.Workflow{
		Loc:          c.loc(top.Line),
		Name:         scalar(get(top, "name")),
		CopilotSetup: base == "copilot-setup-steps.yml" || base == "copilot-setup-steps.yaml",
	}
	if wf.Name == "" {
		wf.Name = base
	}
	c.workflow = wf.Name
	wf.Triggers = c.triggers(getKV(top, "on"))
	for _, t := range wf.Triggers {
		switch t.Value {
		case "pull_request_target":
			wf.PullRequestTarget = &t
		case "workflow_run":
			wf.WorkflowRun = &t
		}
	}
	if k, v := getKV(top, "permissions"); v != nil {
		wf.Permissions = c.permissions(k, v)
	}
	// Workflow env reaches every job; its literal secrets are reported once.
	c.wfEnv = get(top, "env")
	c.jobOutputs = nil
	c.wfEnvVars = c.env(c.wfEnv, "workflow "+wf.Name)
	var pending []pendingAgent
	for i := 0; i+1 < len(jobs.Content) && c.scan.err == nil; i += 2 {
		id, body := jobs.Content[i], resolve(jobs.Content[i+1])
		if body.Kind != yaml.MappingNode || neverRuns(body) {
			continue
		}
		copilot := wf.CopilotSetup && id.Value == "copilot-setup-steps"
		job, agents := c.job(id, body, wf.Permissions, copilot)
		for _, p := range agents {
			p.job = len(wf.Jobs)
			pending = append(pending, p)
		}
		if get(top, "jobs") == nil {
			// A composite action has no token of its own: the calling
			// workflow's job decides its permissions.
			job.EffectiveWrite = []string{}
		}
		if copilot {
			// The agent runs on this job's runner after its steps.
			job.RunsAgent = true
			for j := 0; j+1 < len(body.Content); j += 2 {
				if k := body.Content[j]; !copilotHonoured[k.Value] {
					job.IgnoredKeys = append(job.IgnoredKeys, model.Str{Value: k.Value, Loc: c.loc(k.Line)})
				}
			}
		}
		wf.RunsAgent = wf.RunsAgent || job.RunsAgent
		wf.Jobs = append(wf.Jobs, job)
	}
	if c.scan.err != nil {
		return c.scan.err
	}
	resolveNeeds(wf.Jobs, c.jobOutputs)
	// Literal secrets are reported for every workflow (the agent can read
	// any file of its checkout); the Workflow itself only when it involves
	// an agent.
	if !wf.CopilotSetup && !wf.RunsAgent {
		return nil
	}
	wf.RunsAgent = true
	// Each agent step's configuration joins agents[], at the step.
	for _, p := range pending {
		st := &wf.Jobs[p.job].AgentSteps[p.step]
		a := c.stepAgent(ctx, st, p)
		// The step keeps the mode and sandbox as written, for users' rules.
		if st.PermissionMode == nil && a.ApprovalRaw != nil {
			st.PermissionMode = a.ApprovalRaw
		}
		if st.Sandbox == nil && a.SandboxMode != nil {
			st.Sandbox = a.SandboxMode
		}
		if configures(a) {
			doc.Agents = append(doc.Agents, a)
		}
	}
	doc.Workflows = append(doc.Workflows, wf)
	return nil
}

// configures reports an agents[] entry of a step that holds a fact: a step
// that sets nothing (claude-code-action with its defaults) adds no entry,
// which no agent rule could judge, and costs the scan nothing.
func configures(a model.Agent) bool {
	return a.ApprovalMode != nil || a.ApprovalRaw != nil || a.SandboxEnabled != nil || a.SandboxMode != nil ||
		a.NetworkAccess != nil || a.BypassDisabled != nil || a.ToolList != nil || a.EnableAllMCP != nil ||
		a.AllowUnsandboxed != nil || a.AllowAllSockets != nil || a.NetworkDefault != nil || a.APIKeyHelper != nil ||
		len(a.Allow)+len(a.Deny)+len(a.Ask)+len(a.Env)+len(a.UnknownKeys)+len(a.AllowedDomains)+len(a.ExcludedCommands)+len(a.UnixSockets) > 0
}

// collector holds what one file's jobs share.
type collector struct {
	file     string
	workflow string
	doc      *model.Document
	scan     *scanner
	// wfEnv is the workflow's env: node, wfEnvVars its variables.
	wfEnv     *yaml.Node
	wfEnvVars []model.EnvVar
	// jobEnv is the env: of the job being read.
	jobEnv *yaml.Node
	// cliWords holds, by line, the arguments of an agent CLI started in a
	// run: step.
	cliWords map[int][]string
	// installed are the agent CLIs an earlier run: step of the job being
	// read installed under a name of their own (agentcli.Installs).
	installed map[string]string
	// jobOutputs are, by job id, the outputs of the workflow's jobs that
	// pass on what an agent step wrote.
	jobOutputs map[string]map[string]bool
}

// neverRuns reports a job switched off by a literal false condition
// (if: false, if: ${{ false }}): GitHub skips it, so it runs nothing.
func neverRuns(body *yaml.Node) bool {
	cond := get(body, "if")
	if cond == nil || cond.Kind != yaml.ScalarNode {
		return false
	}
	v := strings.TrimSpace(cond.Value)
	if inner, ok := strings.CutPrefix(v, "${{"); ok {
		if inner, ok = strings.CutSuffix(inner, "}}"); ok {
			v = strings.TrimSpace(inner)
		}
	}
	return v == "false"
}

func (c *collector) loc(line int) model.Loc { return model.Loc{File: c.file, Line: line} }

// triggers reads on: as a string, a list or a map of events.
func (c *collector) triggers(key, on *yaml.Node) []model.Str {
	var out []model.Str
	switch {
	case on == nil:
	case on.Kind == yaml.ScalarNode:
		out = append(out, model.Str{Value: on.Value, Loc: c.loc(on.Line)})
	case on.Kind == yaml.SequenceNode:
		for _, e := range on.Content {
			if e = resolve(e); e.Kind == yaml.ScalarNode {
				out = append(out, model.Str{Value: e.Value, Loc: c.loc(e.Line)})
			}
		}
	case on.Kind == yaml.MappingNode:
		for i := 0; i+1 < len(on.Content); i += 2 {
			out = append(out, model.Str{Value: on.Content[i].Value, Loc: c.loc(on.Content[i].Line)})
		}
	}
	return out
}

// permissions reads a permissions block: write-all, read-all, {} or scopes.
func (c *collector) permissions(key, v *yaml.Node) *model.Permissions {
	p := &model.Permissions{Scopes: map[string]string{}, Loc: c.loc(key.Line)}
	switch v.Kind {
	case yaml.ScalarNode:
		p.All = v.Value
	case yaml.MappingNode:
		for i := 0; i+1 < len(v.Content); i += 2 {
			p.Scopes[v.Content[i].Value] = scalar(v.Content[i+1])
		}
	}
	return p
}
