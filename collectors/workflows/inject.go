package workflows

import (
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// The runner expands ${{ }} in a run: script (and in actions/github-script's
// script) before the shell or node sees it: text an outsider wrote, or an
// agent's output, becomes code. GitHub's "script injections" guide lists the
// fields an outsider controls; an agent step's outputs are what the agent
// (and whoever steered it) wrote.

var (
	// eventPathRE finds github.event paths and github.head_ref in an
	// expression (the path with its dots and index steps).
	eventPathRE = regexp.MustCompile(`\bgithub\.(?:event(?:\.[A-Za-z0-9_*-]+|\[[^\]]*\])*|head_ref)\b`)
	// stepOutputRE and needsOutputRE find outputs of steps and jobs.
	stepOutputRE = regexp.MustCompile(`\bsteps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+)`)
	// jsonFieldRE finds a field read from a step output parsed as JSON.
	jsonFieldRE   = regexp.MustCompile(`(?i)\bfromjson\(\s*(steps\.[A-Za-z0-9_-]+\.outputs\.[A-Za-z0-9_-]+)\s*\)((?:\.[A-Za-z0-9_-]+)+)`)
	needsOutputRE = regexp.MustCompile(`\bneeds\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+)`)
)

// untrustedLeaf are the last names of event fields an outsider writes:
// titles, bodies, commit messages, author names and e-mails, branch names.
var untrustedLeaf = map[string]bool{
	"title": true, "body": true, "message": true, "page_name": true,
	"head_branch": true, "default_branch": true, "label": true, "ref": true,
	"name": true, "email": true,
}

// untrustedObject are event objects that hold such fields; expanded whole
// (toJson) they carry them into the script.
var untrustedObject = map[string]bool{
	"github.event": true, "github.event.issue": true, "github.event.pull_request": true,
	"github.event.comment": true, "github.event.review": true, "github.event.review_comment": true,
	"github.event.head_commit": true, "github.event.commits": true, "github.event.discussion": true,
	"github.event.workflow_run": true, "github.event.pull_request.head": true, "github.event.pages": true,
}

// agentSafeOutputs are outputs of agent actions the agent does not write:
// the outcome, files and names the action chooses.
var agentSafeOutputs = map[string]bool{
	"conclusion": true, "execution_file": true, "session_id": true, "branch_name": true,
	"github_token": true, "exit_code": true, "exit-code": true, "outcome": true,
}

// outsiderOutput reports a step output named for text an outsider writes
// (issue-body, pr_title, comment-body): a step that fetches an issue or a
// comment (actions-cool/issues-helper get-issue, gh issue view) passes it
// on, and expanded into a script it is code, as github.event.issue.body is.
func outsiderOutput(name string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == '-' || r == '_' }) {
		switch w {
		case "body", "title", "comment", "description":
			return true
		}
	}
	return false
}

// untrustedPath reports an event path whose text an outsider controls.
func untrustedPath(p string) bool {
	if p == "github.head_ref" || untrustedObject[p] {
		return true
	}
	if !strings.HasPrefix(p, "github.event.") {
		return false
	}
	parts := strings.Split(p, ".")
	leaf := parts[len(parts)-1]
	switch leaf {
	case "name", "email":
		// An author's or committer's, not a label's or a repository's.
		return len(parts) >= 2 && (parts[len(parts)-2] == "author" || parts[len(parts)-2] == "committer")
	case "ref", "label":
		// The head branch of a pull request (the base is the repository's).
		return len(parts) >= 2 && parts[len(parts)-2] == "head"
	}
	return untrustedLeaf[leaf]
}

// injections lists the expressions a script expands that an outsider or
// an agent step of the job (agentIDs, by step id) wrote; outputs of other
// jobs are kept as needs references and resolved once every job is read.
func (c *collector) injections(script *yaml.Node, agentIDs map[string]bool, j *model.Job, into string) {
	if script == nil || script.Kind != yaml.ScalarNode || !strings.Contains(script.Value, "${{") {
		return
	}
	for i, line := range strings.Split(script.Value, "\n") {
		for _, e := range exprRE.FindAllStringSubmatch(line, -1) {
			expr := strings.TrimSpace(e[1])
			loc := c.loc(lineOf(script, i))
			add := func(source, ref string) {
				for _, have := range j.Injections {
					if have.Expr == ref && have.Line == loc.Line {
						return
					}
				}
				j.Injections = append(j.Injections, model.Injection{Expr: ref, Source: source, Into: into, Loc: loc})
			}
			for _, p := range eventPathRE.FindAllString(expr, -1) {
				if untrustedPath(p) {
					add("untrusted", p)
				}
			}
			for _, m := range stepOutputRE.FindAllStringSubmatch(expr, -1) {
				switch {
				case agentIDs[m[1]] && !agentSafeOutputs[m[2]]:
					add("agent", m[0])
				case outsiderOutput(m[2]):
					add("untrusted", m[0])
				}
			}
			// fromJSON(steps.x.outputs.result).body: a field an outsider
			// writes, of an object a step fetched (a github-script that
			// returns the issue).
			for _, m := range jsonFieldRE.FindAllStringSubmatch(expr, -1) {
				if outsiderOutput(m[2][strings.LastIndexByte(m[2], '.')+1:]) {
					add("untrusted", m[0])
				}
			}
			for _, m := range needsOutputRE.FindAllStringSubmatch(expr, -1) {
				add("needs", m[0])
			}
		}
	}
}

// agentJobOutputs lists the outputs of a job that pass on an output of
// one of its agent steps.
func agentJobOutputs(body *yaml.Node, agentIDs map[string]bool) map[string]bool {
	out := map[string]bool{}
	for _, kv := range pairs(get(body, "outputs")) {
		for _, m := range stepOutputRE.FindAllStringSubmatch(scalar(kv[1]), -1) {
			if agentIDs[m[1]] && !agentSafeOutputs[m[2]] {
				out[kv[0].Value] = true
			}
		}
	}
	return out
}

// resolveNeeds keeps the needs references that name an agent job's output
// (as agent output) and drops the rest.
func resolveNeeds(jobs []model.Job, outputs map[string]map[string]bool) {
	for k := range jobs {
		kept := jobs[k].Injections[:0]
		for _, in := range jobs[k].Injections {
			if in.Source == "needs" {
				m := needsOutputRE.FindStringSubmatch(in.Expr)
				if m == nil || !outputs[m[1]][m[2]] {
					continue
				}
				in.Source = "agent"
			}
			kept = append(kept, in)
		}
		jobs[k].Injections = kept
	}
}
