package workflows

import (
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// A job's if: that checks who triggered it (author_association) guards the
// agent only if every way through the condition passes the check. && binds
// tighter than ||, so "guard && (a) || (b)" lets (b) through for anyone:
// the classic slip in agent workflows that add the mention test per event.

// guardGaps lists the top-level || branches of a job's if: that read text
// an outsider writes (a comment, issue, review or pull request body or
// title) without checking author_association, when another branch does.
func (c *collector) guardGaps(body *yaml.Node, j *model.Job) {
	cond := get(body, "if")
	if cond == nil || cond.Kind != yaml.ScalarNode || !strings.Contains(cond.Value, "author_association") {
		return
	}
	branches := orBranches(cond.Value)
	guarded := false
	for _, b := range branches {
		guarded = guarded || strings.Contains(b, "author_association")
	}
	if !guarded {
		return
	}
	for _, b := range branches {
		if !readsOutsiderText(b) {
			continue
		}
		if !checksWho(b) {
			j.GuardGaps = append(j.GuardGaps, model.Str{Value: clipExpr(b), Loc: c.loc(branchLine(cond, b))})
		} else if checked, writer := misdirected(b); checked != "" {
			j.GuardMisdirected = append(j.GuardMisdirected, model.Str{Value: checked + " checked, " + writer + " triggers: " + clipExpr(b), Loc: c.loc(branchLine(cond, b))})
		}
	}
}

// authorChecked: the job's if: checks who triggered it on every top-level
// branch that reads an outsider's text, and some branch does.
func authorChecked(body *yaml.Node) bool {
	cond := get(body, "if")
	if cond == nil || cond.Kind != yaml.ScalarNode {
		return false
	}
	checked := false
	for _, b := range orBranches(cond.Value) {
		switch {
		case checksWho(b):
			checked = true
		case readsOutsiderText(b):
			return false
		}
	}
	return checked
}

var (
	assocRE = regexp.MustCompile(`github\.event\.(comment|review|issue|pull_request)\.author_association`)
	textRE  = regexp.MustCompile(`github\.event\.(comment|review|issue|pull_request)\.(?:body|title)\b`)
)

// misdirected reports a branch that starts the agent on a comment's or a
// review's text but lets the association of the or pull request's
// author stand for the writer's: it checks only that one, or ORs it with
// the writer's (issue.author_association == 'OWNER' ||
// comment.author_association == 'OWNER'), so an outsider's comment on a
// member's issue passes. It returns whose association is checked and who
// writes the text; "" when the branch checks the writer (or names the
// actor).
func misdirected(b string) (checked, writer string) {
	if identityRE.MatchString(b) {
		return "", ""
	}
	texts := objects(textRE, b)
	for _, w := range []string{"comment", "review"} {
		if !texts[w] {
			continue
		}
		// The branch as a whole, then each alternative of an OR inside it
		// with the rest of the branch around it.
		alts := []string{b}
		for _, g := range groups(b) {
			if or := topLevelOr(b[g[0]+1 : g[1]]); len(or) > 1 && !objects(assocRE, b[:g[0]]+b[g[1]+1:])[w] {
				alts = append(alts, or...)
			}
		}
		for _, alt := range alts {
			assoc := objects(assocRE, alt)
			if assoc[w] {
				continue
			}
			for _, other := range []string{"issue", "pull_request"} {
				if assoc[other] {
					return "the " + strings.ReplaceAll(other, "_", " ") + " author's author_association", "the " + w + "'s author"
				}
			}
		}
		return "", ""
	}
	return "", ""
}

// objects are the event objects (comment, review, issue, pull_request)
// re's first group names in s.
func objects(re *regexp.Regexp, s string) map[string]bool {
	out := map[string]bool{}
	for _, m := range re.FindAllStringSubmatch(s, -1) {
		out[m[1]] = true
	}
	return out
}

// groups are the [open, close] offsets of every pair of parentheses in
// expr outside quoted strings.
func groups(expr string) [][2]int {
	var out [][2]int
	var open []int
	inQuote := false
	for i := 0; i < len(expr); i++ {
		switch ch := expr[i]; {
		case ch == '\'':
			inQuote = !inQuote
		case inQuote:
		case ch == '(':
			open = append(open, i)
		case ch == ')' && len(open) > 0:
			out = append(out, [2]int{open[len(open)-1], i})
			open = open[:len(open)-1]
		}
	}
	return out
}

// orBranches are the top-level || branches of an if: condition, its ${{ }}
// and any parentheses around the whole removed.
func orBranches(cond string) []string {
	expr := strings.TrimSpace(cond)
	if strings.HasPrefix(expr, "${{") && strings.HasSuffix(expr, "}}") {
		expr = strings.TrimSpace(expr[3 : len(expr)-2])
	}
	branches := topLevelOr(expr)
	for len(branches) == 1 {
		inner, ok := unwrap(branches[0])
		if !ok {
			break
		}
		branches = topLevelOr(inner)
	}
	return branches
}

// topLevelOr splits an expression at the || outside parentheses and quoted
// strings.
func topLevelOr(expr string) []string {
	var out []string
	depth, start := 0, 0
	inQuote := false
	for i := 0; i < len(expr); i++ {
		switch ch := expr[i]; {
		case ch == '\'':
			inQuote = !inQuote // '' inside a string toggles twice
		case inQuote:
		case ch == '(':
			depth++
		case ch == ')':
			depth--
		case ch == '|' && depth == 0 && i+1 < len(expr) && expr[i+1] == '|':
			out = append(out, strings.TrimSpace(expr[start:i]))
			start = i + 2
			i++
		}
	}
	return append(out, strings.TrimSpace(expr[start:]))
}

// unwrap strips parentheses that enclose the whole expression.
func unwrap(expr string) (string, bool) {
	if !strings.HasPrefix(expr, "(") || !strings.HasSuffix(expr, ")") {
		return "", false
	}
	depth := 0
	inQuote := false
	for i := 0; i < len(expr); i++ {
		switch ch := expr[i]; {
		case ch == '\'':
			inQuote = !inQuote
		case inQuote:
		case ch == '(':
			depth++
		case ch == ')':
			depth--
			if depth == 0 && i != len(expr)-1 {
				return "", false // "(a) && (b)": the first ) closes before the end
			}
		}
	}
	return strings.TrimSpace(expr[1 : len(expr)-1]), true
}

// identityRE finds a test of who triggered the event: a login or actor
// compared with a name is as strict a gate as author_association.
var identityRE = regexp.MustCompile(`(?:\.user\.login|\bsender\.login|\bgithub\.(?:triggering_)?actor)\s*==`)

// checksWho: the branch tests the author's association or identity.
func checksWho(b string) bool {
	return strings.Contains(b, "author_association") || identityRE.MatchString(b)
}

// readsOutsiderText: the branch looks at a body or title of the event.
func readsOutsiderText(b string) bool {
	for _, p := range eventPathRE.FindAllString(b, -1) {
		if strings.HasSuffix(p, ".body") || strings.HasSuffix(p, ".title") {
			return true
		}
	}
	return false
}

// clipExpr joins a branch onto one line and bounds it.
func clipExpr(b string) string {
	b = strings.Join(strings.Fields(b), " ")
	if len(b) > 120 {
		b = b[:117] + "..."
	}
	return b
}

// branchLine is the line of the condition where a branch starts.
func branchLine(cond *yaml.Node, b string) int {
	first := strings.TrimSpace(strings.SplitN(b, "\n", 2)[0])
	for i, l := range strings.Split(cond.Value, "\n") {
		if first != "" && strings.Contains(l, first) {
			return lineOf(cond, i)
		}
	}
	return cond.Line
}

// sameRepoRE finds a test that the event comes from this repository, not
// a fork: the pull request's or the triggering run's head repository is
// this one, or the run has a pull request of this repository (GitHub
// leaves workflow_run.pull_requests empty for forks).
var sameRepoRE = regexp.MustCompile(`(?:pull_request\.head\.repo|workflow_run\.head_repository)\.full_name\s*==\s*github\.repository\b|\bgithub\.repository\s*==\s*github\.event\.(?:pull_request\.head\.repo|workflow_run\.head_repository)\.full_name|\.head\.repo\.fork\s*==\s*false|!\s*github\.event\.pull_request\.head\.repo\.fork\b`)

// sameRepoOnly reports a job whose if: holds in every top-level branch
// a test that the event does not come from a fork: then a pull request's
// head branch and title, or a triggering run's, are written by someone
// with write access.
func sameRepoOnly(body *yaml.Node) bool {
	cond := get(body, "if")
	if cond == nil || cond.Kind != yaml.ScalarNode || !sameRepo(cond.Value) {
		return false
	}
	for _, b := range orBranches(cond.Value) {
		if !sameRepo(b) {
			return false
		}
	}
	return true
}

// prAbsentRE is a test that the run has no pull request: the opposite.
var prAbsentRE = regexp.MustCompile(`pull_requests\[0\]\s*==|!\s*github\.event\.workflow_run\.pull_requests\[0\]`)

func sameRepo(b string) bool {
	if sameRepoRE.MatchString(b) {
		return true
	}
	return strings.Contains(b, "workflow_run.pull_requests[0]") && !prAbsentRE.MatchString(b)
}
