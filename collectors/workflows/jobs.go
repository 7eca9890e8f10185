package workflows

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// writeScopes are the GITHUB_TOKEN scopes write-all grants write on.
var writeScopes = []string{
	"actions", "attestations", "checks", "contents", "deployments", "discussions", "id-token", "issues",
	"packages", "pages", "pull-requests", "repository-projects", "security-events", "statuses",
}

// job reads one job; wfPerms is the workflow-level permissions block. It
// returns the agents[] entries its agent steps configure, to be built once
// the file is read.
func (c *collector) job(id, body *yaml.Node, wfPerms *model.Permissions, copilot bool) (model.Job, []pendingAgent) {
	j := model.Job{ID: id.Value, Loc: c.loc(id.Line)}
	c.runsOn(body, &j)
	if k, v := getKV(body, "permissions"); v != nil {
		j.Permissions = c.permissions(k, v)
	}
	j.EffectiveWrite = effectiveWrite(j.Permissions, wfPerms)
	c.guardGaps(body, &j)
	j.SameRepoOnly = sameRepoOnly(body)
	j.AuthorChecked = authorChecked(body) && len(j.GuardGaps) == 0 && len(j.GuardMisdirected) == 0
	if t := get(body, "timeout-minutes"); t != nil && t.Kind == yaml.ScalarNode {
		if n, err := strconv.Atoi(strings.TrimSpace(t.Value)); err == nil {
			j.TimeoutMinutes = &model.Int{Value: n, Loc: c.loc(t.Line)}
		}
	}
	ctx := "workflow " + c.workflow + " job " + j.ID
	label := fmt.Sprintf("workflow %q job %q", c.workflow, j.ID)
	jobEnv := get(body, "env")
	c.jobEnv = jobEnv
	c.installed = nil
	j.Env = append(j.Env, c.wfEnvVars...)
	j.Env = append(j.Env, c.env(jobEnv, ctx)...)
	j.Container = c.container(body)
	// environment: NAME, or {name: NAME, url: …}
	env := get(body, "environment")
	if env != nil && env.Kind == yaml.MappingNode {
		env = get(env, "name")
	}
	if env != nil && env.Kind == yaml.ScalarNode && strings.TrimSpace(env.Value) != "" {
		j.Environment = &model.Str{Value: strings.TrimSpace(env.Value), Loc: c.loc(env.Line)}
	}
	var pending []pendingAgent

	// A job that calls a reusable workflow of an agent (OpenHands' resolver).
	if k, uses := getKV(body, "uses"); uses != nil && uses.Kind == yaml.ScalarNode {
		with := get(body, "with")
		if tool := stepAgent(actionName(uses.Value), inputNames(with), nil); tool != "" {
			st := c.agentStep(k, uses, with, tool, ctx)
			st.Secrets = c.reusableSecrets(body)
			for _, kv := range pairs(with) {
				for _, name := range passedSecretNames(scalar(kv[1])) {
					st.Secrets = append(st.Secrets, model.AgentSecret{Name: name, Via: "input", To: kv[0].Value, Loc: c.loc(kv[1].Line)})
				}
			}
			for i := range st.Secrets {
				st.Secrets[i].ModelKey = isModelKey(st.Tool, st.Secrets[i], false)
				st.Secrets[i].Setting = secrets.DescribesSetting(st.Secrets[i].Name)
			}
			j.AgentSteps = append(j.AgentSteps, st)
			pending = append(pending, pendingAgent{step: len(j.AgentSteps) - 1, with: with, args: argsNode(with), context: label})
		}
	}
	var (
		nodes  []*yaml.Node
		facts  []stepFacts
		stepOf = map[int]int{} // agent step -> index of its step
		cos    []checkoutAt
		// agentIDs are the ids of the agent steps read so far: their
		// outputs are what the agent wrote.
		agentIDs = map[string]bool{}
	)
	steps := get(body, "steps")
	if steps != nil && steps.Kind == yaml.SequenceNode {
		for _, s := range steps.Content {
			if !c.scan.tick(s) {
				break
			}
			if s = resolve(s); s.Kind != yaml.MappingNode {
				continue
			}
			idx, agents, checkouts := len(nodes), len(j.AgentSteps), len(j.Checkouts)
			facts = append(facts, c.step(s, &j, ctx, agentIDs))
			if id := scalar(get(s, "id")); id != "" && len(j.AgentSteps) > agents {
				agentIDs[id] = true
			}
			nodes = append(nodes, s)
			for k := agents; k < len(j.AgentSteps); k++ {
				stepOf[k] = idx
			}
			for k := checkouts; k < len(j.Checkouts); k++ {
				cos = append(cos, checkoutAt{idx: idx, co: j.Checkouts[k]})
			}
		}
	}
	if copilot {
		// The Copilot coding agent runs on this job's runner after its
		// steps, and ignores the job's env: what the steps leave behind is
		// what reaches it.
		st := model.AgentStep{Tool: "copilot", Loc: j.Loc, Inputs: map[string]model.Str{}}
		stepOf[len(j.AgentSteps)] = len(nodes)
		j.AgentSteps = append(j.AgentSteps, st)
	}
	for k := range j.AgentSteps {
		idx, ok := stepOf[k]
		if !ok {
			continue
		}
		st := &j.AgentSteps[k]
		in := reachInput{stepIdx: idx, wfEnv: c.wfEnv, jobEnv: jobEnv, facts: facts, checkout: cos}
		if idx < len(nodes) {
			in.step = nodes[idx]
			in.bedrock = st.Tool == "claude-code" && usesCloudModel(in.step, jobEnv, c.wfEnv)
		} else {
			in.jobEnv, in.wfEnv = nil, nil
		}
		st.Secrets = c.reach(st, in)
		if in.step == nil {
			continue
		}
		args := get(in.step, "run")
		if st.Uses != "" {
			args = argsNode(get(in.step, "with"))
		}
		pending = append(pending, pendingAgent{
			step: k, with: get(in.step, "with"), args: args, context: label,
			envs: []*yaml.Node{get(in.step, "env"), jobEnv, c.wfEnv},
		})
	}
	j.RunsAgent = len(j.AgentSteps) > 0
	j.Secrets = c.secrets(c.wfEnv, body)
	if c.jobOutputs == nil {
		c.jobOutputs = map[string]map[string]bool{}
	}
	c.jobOutputs[j.ID] = agentJobOutputs(body, agentIDs)
	return j, pending
}

// argsInputs are the inputs agent actions take their CLI's arguments in,
// in the order argsNode tries them.
var argsInputs = []string{"claude_args", "args", "codex-args", "codex_args", "gemini_args", "aider_args", "extra_args"}

// argsNode is the input an agent action takes its CLI arguments in.
func argsNode(with *yaml.Node) *yaml.Node {
	for _, name := range argsInputs {
		if v := get(with, name); v != nil {
			return v
		}
	}
	return nil
}

// hostedProviders are label prefixes of runner services that start one VM
// per job (Blacksmith, Namespace, BuildJet, Depot, WarpBuild, Ubicloud,
// RunsOn): hosted and ephemeral, like GitHub's own.
var hostedProviders = []string{"blacksmith-", "namespace-profile-", "nscloud-", "buildjet-", "depot-", "warp-", "ubicloud-", "runs-on="}

// runsOn reads runs-on as a label, a list of labels or {group, labels}, and
// says what the labels show (model.Job.Runner).
func (c *collector) runsOn(body *yaml.Node, j *model.Job) {
	k, v := getKV(body, "runs-on")
	if v == nil {
		return
	}
	var labels []string
	group := ""
	switch v.Kind {
	case yaml.ScalarNode:
		labels = []string{v.Value}
	case yaml.SequenceNode:
		for _, e := range v.Content {
			labels = append(labels, scalar(e))
		}
	case yaml.MappingNode:
		group = scalar(get(v, "group"))
		if l := get(v, "labels"); l != nil && l.Kind == yaml.SequenceNode {
			for _, e := range l.Content {
				labels = append(labels, scalar(e))
			}
		} else if l != nil {
			labels = []string{scalar(l)}
		}
	}
	text := strings.Join(labels, ", ")
	if group != "" {
		text = strings.TrimSuffix("group: "+group+"; "+text, "; ")
		j.RunnerLabels = append(j.RunnerLabels, "group:"+strings.ToLower(group))
	}
	j.RunsOn = &model.Str{Value: text, Loc: c.loc(k.Line)}
	hosted, provider, expr := len(labels) > 0 && group == "", false, false
	for _, l := range labels {
		low := strings.ToLower(strings.TrimSpace(l))
		j.RunnerLabels = append(j.RunnerLabels, low)
		switch {
		case low == "self-hosted":
			j.SelfHosted = true
		case strings.Contains(low, "${{"):
			// A matrix or input label: unknown, not assumed self-hosted.
			expr = true
		case hasPrefix(low, hostedProviders):
			provider = true
		case !githubHosted(low):
			hosted = false
		}
		for _, tok := range strings.FieldsFunc(low, func(r rune) bool { return !('a' <= r && r <= 'z' || '0' <= r && r <= '9') }) {
			if tok == "jit" || strings.Contains(tok, "ephemeral") {
				j.Ephemeral = true
			}
		}
	}
	switch {
	case j.SelfHosted:
		j.Runner = "self-hosted"
	case expr:
		j.Runner = "expression"
	case provider:
		j.Runner, j.Ephemeral = "hosted-provider", true
	case hosted:
		j.Runner = "github-hosted"
	default:
		// A runner group or a label of the organisation's: a GitHub larger
		// runner, an ARC scale set or a self-hosted runner.
		j.Runner = "custom"
	}
}

func hasPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// githubHosted reports a GitHub-hosted runner image label.
func githubHosted(label string) bool {
	for _, p := range []string{"ubuntu-", "windows-", "macos-"} {
		if strings.HasPrefix(label, p) {
			return true
		}
	}
	return false
}

// effectiveWrite resolves the job's token write scopes: the job's block,
// else the workflow's, else "default" (the repository default, which may be
// write-all).
func effectiveWrite(job, wf *model.Permissions) []string {
	p := job
	if p == nil {
		p = wf
	}
	if p == nil {
		return []string{"default"}
	}
	if p.All == "write-all" {
		return append([]string{}, writeScopes...)
	}
	out := []string{}
	for scope, level := range p.Scopes {
		if level == "write" {
			out = append(out, scope)
		}
	}
	sort.Strings(out)
	return out
}

// secrets lists the secrets a job refers to (workflow env included, since
// the job inherits it), first reference of each name.
func (c *collector) secrets(nodes ...*yaml.Node) []model.Str {
	var out []model.Str
	seen := map[string]bool{}
	for _, n := range nodes {
		c.scan.scalars(n, func(s *yaml.Node) {
			for i, line := range strings.Split(s.Value, "\n") {
				for _, name := range secretNames(line) {
					if !seen[name] {
						seen[name] = true
						out = append(out, model.Str{Value: name, Loc: c.loc(lineOf(s, i))})
					}
				}
			}
		})
	}
	return out
}
