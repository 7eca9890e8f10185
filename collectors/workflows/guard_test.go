package workflows

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// TestGuardGaps: a branch of the job's if: that an outsider's text opens
// without the author check another branch makes is listed; a guard around
// the whole condition, a guard in every branch, no guard at all (the action
// decides) and branches only members can cause are not.
func TestGuardGaps(t *testing.T) {
	job := func(cond string) string {
		return "on: [issues, issue_comment, workflow_dispatch]\njobs:\n  a:\n    if: " + cond + `
    steps:
      - uses: anthropics/claude-code-action@v1
`
	}
	tests := []struct {
		name, src string
		want      []string
	}{
		{"precedence slip", job(`|
      (github.event_name == 'issue_comment' && github.event.comment.author_association == 'OWNER') &&
      contains(github.event.comment.body, '@claude') ||
      (github.event_name == 'issues' && contains(github.event.issue.body, '@claude'))`),
			[]string{"(github.event_name == 'issues' && contains(github.event.issue.body, '@claude'))"}},
		{"guard around all", job(`${{ contains(fromJSON('["OWNER","MEMBER"]'), github.event.comment.author_association) && (contains(github.event.comment.body, '@claude') || contains(github.event.issue.body, '@claude')) }}`), nil},
		{"wrapped, guard in every branch", job(`${{ ((github.event.comment.author_association == 'OWNER' && contains(github.event.comment.body, '@c')) || (github.event.issue.author_association == 'OWNER' && contains(github.event.issue.title, '@c'))) }}`), nil},
		{"no guard at all", job(`contains(github.event.comment.body, '@claude') || contains(github.event.issue.body, '@claude')`), nil},
		{"other branch only members cause", job(`github.event_name == 'workflow_dispatch' || (github.event.comment.author_association == 'OWNER' && contains(github.event.comment.body, '/fix'))`), nil},
		{"a login test is a guard too", job(`(github.event.comment.author_association == 'OWNER' && contains(github.event.comment.body, '@c')) || (github.event.comment.user.login == 'release-bot[bot]' && contains(github.event.comment.body, '@c')) || (github.actor == 'maintainer' && contains(github.event.issue.body, '@c'))`), nil},
		{"quoted || is not an operator", job(`github.event.comment.author_association == 'OWNER' && contains(github.event.comment.body, 'a || b')`), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var doc model.Document
			if err := New().Collect(context.Background(), ".github/workflows/a.yml", []byte(tt.src), &doc); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, g := range doc.Workflows[0].Jobs[0].GuardGaps {
				got = append(got, g.Value)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("guard gaps (-want +got):\n%s", diff)
			}
			if gaps := doc.Workflows[0].Jobs[0].GuardGaps; len(gaps) > 0 && gaps[0].Line != 7 {
				t.Errorf("gap at line %d, want 7 (where the branch starts)", gaps[0].Line)
			}
		})
	}
}

// TestGuardMisdirected: a branch started by a comment's or a review's text
// that checks the association of the or pull request's author,
// not the commenter's, is listed; checking the commenter, or naming the
// actor, is not.
func TestGuardMisdirected(t *testing.T) {
	job := func(cond string) string {
		return "on: [issue_comment, pull_request_review]\njobs:\n  a:\n    if: " + cond + `
    steps:
      - uses: anthropics/claude-code-action@v1
`
	}
	for _, tt := range []struct {
		name, cond, want string
	}{
		{"issue author checked for a comment", `contains(github.event.comment.body, '@claude') && github.event.issue.author_association == 'OWNER'`,
			"the issue author's author_association checked, the comment's author triggers"},
		{"pull request author checked for a review", `contains(github.event.review.body, '@claude') && contains(fromJSON('["MEMBER"]'), github.event.pull_request.author_association)`,
			"the pull request author's author_association checked, the review's author triggers"},
		{"commenter checked", `contains(github.event.comment.body, '@claude') && github.event.comment.author_association == 'OWNER' && github.event.issue.author_association == 'OWNER'`, ""},
		{"actor named", `contains(github.event.comment.body, '@claude') && github.event.issue.author_association == 'OWNER' && github.actor == 'alice'`, ""},
		{"issue text, issue author", `contains(github.event.issue.body, '@claude') && github.event.issue.author_association == 'OWNER'`, ""},
		{"issue author ORed with the commenter", `contains(github.event.comment.body, '@bot') && (github.event.issue.author_association == 'OWNER' || github.event.comment.author_association == 'OWNER' || github.event.review.author_association == 'OWNER')`,
			"the issue author's author_association checked, the comment's author triggers"},
		{"commenter checked outside an OR of issue authors", `github.event.comment.author_association == 'OWNER' && contains(github.event.comment.body, '@bot') && (github.event.issue.author_association == 'OWNER' || github.event.issue.author_association == 'MEMBER')`, ""},
		{"an OR of the commenter's associations", `contains(github.event.comment.body, '@bot') && (github.event.comment.author_association == 'OWNER' || github.event.comment.author_association == 'MEMBER')`, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var doc model.Document
			if err := New().Collect(context.Background(), ".github/workflows/a.yml", []byte(job(tt.cond)), &doc); err != nil {
				t.Fatal(err)
			}
			got := doc.Workflows[0].Jobs[0].GuardMisdirected
			switch {
			case tt.want == "" && len(got) != 0:
				t.Errorf("misdirected = %+v, want none", got)
			case tt.want != "" && (len(got) != 1 || !strings.HasPrefix(got[0].Value, tt.want) || got[0].Line != 4):
				t.Errorf("misdirected = %+v, want one at line 4 starting %q", got, tt.want)
			}
		})
	}
}

// TestSameRepoOnly: a job whose if: admits only this repository's events
// in every branch; a fork test in one branch only, or its negation, does not.
func TestSameRepoOnly(t *testing.T) {
	for _, c := range []struct {
		cond string
		want bool
	}{
		{`github.event.pull_request.head.repo.full_name == github.repository`, true},
		{`${{ github.event_name == 'workflow_run' && github.event.workflow_run.pull_requests[0] && github.event.workflow_run.conclusion == 'failure' }}`, true},
		{`github.repository == github.event.workflow_run.head_repository.full_name && contains(github.event.comment.body, '@c')`, true},
		{`!github.event.pull_request.head.repo.fork`, true},
		{`github.event.workflow_run.pull_requests[0] == null`, false},
		{`github.event.pull_request.head.repo.full_name == github.repository || github.event_name == 'issue_comment'`, false},
		{`github.event_name == 'pull_request_target'`, false},
	} {
		src := "on: [pull_request_target, workflow_run, issue_comment]\njobs:\n  a:\n    if: " + strconv.Quote(c.cond) + "\n    steps:\n      - uses: anthropics/claude-code-action@v1\n"
		var doc model.Document
		if err := New().Collect(context.Background(), ".github/workflows/a.yml", []byte(src), &doc); err != nil {
			t.Fatal(err)
		}
		if got := doc.Workflows[0].Jobs[0].SameRepoOnly; got != c.want {
			t.Errorf("if: %s: same repository only = %v, want %v", c.cond, got, c.want)
		}
	}
}

// TestAuthorChecked: every branch of the job's if: that reads an outsider's
// text checks who wrote it; a gap, a check of the wrong author, or no
// check at all leaves it unchecked.
func TestAuthorChecked(t *testing.T) {
	for _, c := range []struct {
		cond string
		want bool
	}{
		{`contains(github.event.comment.body, '@bot') && contains(fromJSON('["OWNER","MEMBER"]'), github.event.comment.author_association)`, true},
		{`github.event_name == 'workflow_dispatch' || (contains(github.event.comment.body, '@bot') && github.event.comment.author_association == 'OWNER')`, true},
		{`contains(github.event.comment.body, '@bot') && github.actor == 'octocat'`, true},
		{`contains(github.event.comment.body, '@bot')`, false},
		{`github.event.comment.author_association == 'OWNER' && contains(github.event.comment.body, '@bot') || contains(github.event.issue.body, '@bot')`, false},
		{`contains(github.event.comment.body, '@bot') && github.event.issue.author_association == 'OWNER'`, false},
		{`github.event_name == 'issue_comment'`, false},
	} {
		src := "on: issue_comment\njobs:\n  a:\n    if: " + strconv.Quote(c.cond) + "\n    steps:\n      - uses: anthropics/claude-code-action@v1\n"
		var doc model.Document
		if err := New().Collect(context.Background(), ".github/workflows/a.yml", []byte(src), &doc); err != nil {
			t.Fatal(err)
		}
		if got := doc.Workflows[0].Jobs[0].AuthorChecked; got != c.want {
			t.Errorf("if: %s: author checked = %v, want %v", c.cond, got, c.want)
		}
	}
}
