package workflows

import (
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

var shaRef = regexp.MustCompile(`^[0-9a-f]{40}$`)

// actionName splits owner/repo[/path]@ref into its lowercased name and ref.
func actionName(uses string) string {
	name, _, _ := strings.Cut(strings.TrimSpace(uses), "@")
	return strings.ToLower(name)
}

func actionRef(uses string) string {
	_, ref, _ := strings.Cut(strings.TrimSpace(uses), "@")
	return ref
}

// commandInput: an action input named for a command line to run (run,
// run_cmd, runCmd, command, script, …), which the action runs in a shell.
func commandInput(name string) bool {
	n := strings.NewReplacer("_", "", "-", "").Replace(strings.ToLower(name))
	switch n {
	case "run", "runcmd", "runcommand", "cmd", "command", "commands", "exec", "shellcommand", "runscript":
		return true
	}
	return false
}

// inputNames are the lowercased keys of a with: mapping.
func inputNames(with *yaml.Node) map[string]bool {
	out := map[string]bool{}
	for _, kv := range pairs(with) {
		out[strings.ToLower(kv[0].Value)] = true
	}
	return out
}

// step reads one step into j and returns what it leaves for later steps.
func (c *collector) step(s *yaml.Node, j *model.Job, ctx string, agentIDs map[string]bool) stepFacts {
	f := stepFacts{id: scalar(get(s, "id"))}
	j.Env = append(j.Env, c.env(get(s, "env"), ctx+" step")...)
	if k, uses := getKV(s, "uses"); uses != nil && uses.Kind == yaml.ScalarNode {
		name := actionName(uses.Value)
		with := get(s, "with")
		tool := stepAgent(name, inputNames(with), inputNames(get(s, "env")))
		if tool == "" {
			tool = selectedAgent(with)
		}
		switch {
		case tool != "":
			j.AgentSteps = append(j.AgentSteps, c.agentStep(k, uses, with, tool, ctx))
			// The CLI arguments the action passes on: outsider text in
			// them can add options (--dangerously-skip-permissions).
			c.injections(argsNode(with), agentIDs, j, "args")
		case name == "actions/checkout":
			co := c.checkout(uses, with, ctx)
			co.Ref = expandEnv(co.Ref, get(s, "env"), c.jobEnv, c.wfEnv)
			co.Repository = expandEnv(co.Repository, get(s, "env"), c.jobEnv, c.wfEnv)
			j.Checkouts = append(j.Checkouts, co)
		case autoMergeAction(name):
			j.AutoMerge = append(j.AutoMerge, model.Str{Value: uses.Value, Loc: c.loc(uses.Line)})
		case prActions[name]:
			j.OpensPR = append(j.OpensPR, model.Str{Value: uses.Value, Loc: c.loc(uses.Line)})
		case name == "actions/github-script":
			c.injections(get(with, "script"), agentIDs, j, "")
			if script := get(with, "script"); script != nil {
				for i, line := range strings.Split(scalar(script), "\n") {
					if scriptMergeRE.MatchString(line) {
						j.AutoMerge = append(j.AutoMerge, model.Str{Value: uses.Value + ": " + strings.TrimSpace(secrets.Redact(line)), Loc: c.loc(lineOf(script, i))})
					}
					if scriptPullRE.MatchString(line) {
						j.OpensPR = append(j.OpensPR, model.Str{Value: uses.Value + ": " + strings.TrimSpace(secrets.Redact(line)), Loc: c.loc(lineOf(script, i))})
					}
				}
			}
		}
		if tool == "" {
			// An action that runs a command line it is given (a local
			// composite action's run_cmd, devcontainers/ci's runCmd): an
			// agent CLI started there is an agent step, as in a run:
			// script.
			for _, kv := range pairs(with) {
				if commandInput(kv[0].Value) && kv[1].Kind == yaml.ScalarNode {
					c.runScript(kv[1], j)
					c.injections(kv[1], agentIDs, j, "")
				}
			}
		}
		if r, ok := c.stateRestore(name, uses, with); ok {
			j.StateRestores = append(j.StateRestores, r)
		}
		c.usesFacts(name, with, &f)
		if appTokenActions[name] {
			f.app = appToken(f.id, with)
		}
	}
	if run := get(s, "run"); run != nil && run.Kind == yaml.ScalarNode {
		c.runScript(run, j)
		c.injections(run, agentIDs, j, "")
		c.runFacts(run, c.envSecrets(get(s, "env")), &f)
	}
	return f
}

var envExprRE = regexp.MustCompile(`\$\{\{\s*env\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}`)

// expandEnv replaces ${{ env.NAME }} with the value the step's, job's or
// workflow's env gives NAME (the first that sets it), so a checkout of
// ${{ env.HEAD_SHA }} shows what it checks out.
func expandEnv(v string, envs ...*yaml.Node) string {
	return envExprRE.ReplaceAllStringFunc(v, func(m string) string {
		name := envExprRE.FindStringSubmatch(m)[1]
		for _, env := range envs {
			if val := get(env, name); val != nil && val.Kind == yaml.ScalarNode {
				return val.Value
			}
		}
		return m
	})
}

// scriptMergeRE finds merges and approvals made through the REST or
// GraphQL API in actions/github-script.
// scriptPullRE: a github-script that opens a pull request (REST or GraphQL).
var scriptPullRE = regexp.MustCompile(`pulls\.create\(|createPullRequest\b`)

var scriptMergeRE = regexp.MustCompile(`pulls\.merge\b|enablePullRequestAutoMerge|mergePullRequest|event:\s*['"]APPROVE['"]`)

// agentStep reads an agent action's inputs.
func (c *collector) agentStep(k, uses, with *yaml.Node, tool, ctx string) model.AgentStep {
	// A local action (./) is the workflow's own commit: pinned.
	pinned := shaRef.MatchString(actionRef(uses.Value)) || strings.HasPrefix(strings.TrimSpace(uses.Value), "./")
	st := model.AgentStep{Uses: uses.Value, Pinned: pinned, Tool: tool, Loc: c.loc(k.Line), Inputs: map[string]model.Str{}}
	for _, kv := range pairs(with) {
		name := kv[0].Value
		v := model.Str{Value: c.clean(name, scalar(kv[1]), ctx+" input "+name, kv[1].Line), Loc: c.loc(kv[1].Line)}
		st.Inputs[name] = v
		if slices.Contains(argsInputs, name) {
			st.Args = &v
		}
		switch name {
		case "allowed_bots":
			st.AllowedBots = &v
		case "allowed_non_write_users":
			st.AllowedNonWrite = &v
		case "sandbox":
			st.Sandbox = &v
		case "safety-strategy":
			st.SafetyStrategy = &v
		case "permission_mode", "permission-mode", "approval_mode", "approval-mode":
			st.PermissionMode = &v
		}
	}
	return st
}

// clean returns an input or env value fit for the model: references kept as
// written, literal secrets replaced by a marker and reported as credentials.
func (c *collector) clean(name, value, context string, line int) string {
	if onlyExpr(value) {
		return value
	}
	out, found := secrets.HideValue(name, value)
	for _, f := range found {
		c.credential(f.SecretRef, context, line)
	}
	return out
}

func (c *collector) credential(r model.SecretRef, context string, line int) {
	c.doc.Credentials = append(c.doc.Credentials, model.Credential{
		SecretRef: r, Where: "workflow", Context: context, ReadableByAgent: true, Loc: c.loc(line),
	})
}

// checkout reads actions/checkout: persist-credentials (default true) leaves
// the token in the checkout's git config for every later step to read.
func (c *collector) checkout(uses, with *yaml.Node, ctx string) model.Checkout {
	co := model.Checkout{Uses: uses.Value, PersistCredentials: true, Loc: c.loc(uses.Line)}
	if v := scalar(get(with, "persist-credentials")); v != "" {
		expr := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(v), "${{"), "}}"))
		co.PersistCredentials = !strings.EqualFold(expr, "false")
	}
	if t := get(with, "token"); t != nil {
		co.Token = tokenRef(c.clean("token", scalar(t), ctx+" checkout token", t.Line))
	}
	co.Ref = scalar(get(with, "ref"))
	co.Repository = scalar(get(with, "repository"))
	return co
}

// tokenRef shortens ${{ secrets.PAT }} to secrets.PAT; the job's own
// GITHUB_TOKEN is "".
func tokenRef(v string) string {
	if !onlyExpr(v) {
		return v
	}
	inner := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(v), "${{"), "}}"))
	if inner == "github.token" || inner == "secrets.GITHUB_TOKEN" {
		return ""
	}
	return inner
}

// env reads an env: mapping.
func (c *collector) env(m *yaml.Node, context string) []model.EnvVar {
	var out []model.EnvVar
	for _, kv := range pairs(m) {
		name, v := kv[0].Value, scalar(kv[1])
		ev := model.EnvVar{Name: name, SensitiveName: secrets.SensitiveEnv(name, v, true), Loc: c.loc(kv[0].Line)}
		switch {
		case len(passedSecretNames(v)) > 0:
			ev.FromSecret = true
		default:
			if r := secrets.DetectNamed(name, v); r != nil {
				ev.Secret = r
				c.credential(*r, context+" env "+name, kv[0].Line)
			}
		}
		out = append(out, ev)
	}
	return out
}
