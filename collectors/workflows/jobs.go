package workflows

import (
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// writeScopes are the GITHUB_TOKEN scopes write-all grants write on.
var writeScopes = []string{
	"actions", "attestations", "checks", "contents", "deployments", "discussions", "id-token", "issues",
	"packages", "pages", "pull-requests", "repository-projects", "security-events", "statuses",
}

// job reads one job; wfPerms is the workflow-level permissions block.
func (c *collector) job(id, body *yaml.Node, wfPerms *model.Permissions) model.Job {
	j := model.Job{ID: id.Value, Loc: c.loc(id.Line)}
	c.runsOn(body, &j)
	if k, v := getKV(body, "permissions"); v != nil {
		j.Permissions = c.permissions(k, v)
	}
	j.EffectiveWrite = effectiveWrite(j.Permissions, wfPerms)
	if t := get(body, "timeout-minutes"); t != nil && t.Kind == yaml.ScalarNode {
		if n, err := strconv.Atoi(strings.TrimSpace(t.Value)); err == nil {
			j.TimeoutMinutes = &model.Int{Value: n, Loc: c.loc(t.Line)}
		}
	}
	ctx := "workflow " + c.workflow + " job " + j.ID
	j.Env = append(j.Env, c.wfEnvVars...)
	j.Env = append(j.Env, c.env(get(body, "env"), ctx)...)

	// A job that calls a reusable workflow of an agent (OpenHands' resolver).
	if k, uses := getKV(body, "uses"); uses != nil && uses.Kind == yaml.ScalarNode {
		if tool := agentAction(actionName(uses.Value)); tool != "" {
			j.AgentSteps = append(j.AgentSteps, c.agentStep(k, uses, get(body, "with"), tool, ctx))
		}
	}
	steps := get(body, "steps")
	if steps != nil && steps.Kind == yaml.SequenceNode {
		for _, s := range steps.Content {
			if !c.scan.tick(s) {
				break
			}
			if s = resolve(s); s.Kind == yaml.MappingNode {
				c.step(s, &j, ctx)
			}
		}
	}
	j.RunsAgent = len(j.AgentSteps) > 0
	j.Secrets = c.secrets(c.wfEnv, body)
	return j
}

// runsOn reads runs-on as a label, a list of labels or {group, labels}.
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
	}
	j.RunsOn = &model.Str{Value: text, Loc: c.loc(k.Line)}
	hosted := len(labels) > 0
	for _, l := range labels {
		low := strings.ToLower(strings.TrimSpace(l))
		switch {
		case low == "self-hosted":
			j.SelfHosted = true
		case strings.Contains(low, "${{"):
			// A matrix or input label: unknown, not assumed self-hosted.
		case !githubHosted(low):
			hosted = false
		}
		for _, tok := range strings.FieldsFunc(low, func(r rune) bool { return !('a' <= r && r <= 'z' || '0' <= r && r <= '9') }) {
			if tok == "jit" || strings.Contains(tok, "ephemeral") {
				j.Ephemeral = true
			}
		}
	}
	// A runner group with no GitHub-hosted label is the organisation's own
	// runner pool (or a larger runner; flagging it errs on the safe side).
	if !hosted || (group != "" && len(labels) == 0) {
		j.SelfHosted = true
	}
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
