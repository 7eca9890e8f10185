package workflows

import (
	"context"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// TestInjections: what an outsider or an agent wrote, expanded into a
// script, is listed per job; numbers, the base branch and what the action
// itself chooses are not.
func TestInjections(t *testing.T) {
	src := `name: t
on: [issues, pull_request]
jobs:
  a:
    outputs:
      out: ${{ steps.codex.outputs.final_message }}
      done: ${{ steps.codex.outputs.conclusion }}
      other: ${{ steps.prep.outputs.list }}
    steps:
      - id: prep
        run: |
          printf '%s' '${{ toJson(github.event.issue) }}' | jq .
          echo "${{ github.event.issue.number }} ${{ github.event.issue.title }}"
          git checkout "${{ github.head_ref }}" "${{ github.event.pull_request.base.ref }}"
          echo "${{ github.event.pull_request.head.ref }} ${{ github.event.head_commit.author.name }} ${{ github.event.label.name }}"
      - id: codex
        uses: openai/codex-action@v1
        with:
          openai-api-key: ${{ secrets.K }}
          prompt: ${{ github.event.issue.body }}
      - run: echo "${{ steps.codex.outputs.final-message }} ${{ steps.codex.outputs.conclusion }} ${{ steps.prep.outputs.list }}"
  b:
    needs: a
    steps:
      - run: echo "${{ needs.a.outputs.out }} ${{ needs.a.outputs.done }} ${{ needs.a.outputs.other }}"
        env:
          SAFE: ${{ needs.a.outputs.out }}
      - uses: actions/github-script@v7
        with:
          script: |
            core.info(` + "`${{ needs.a.outputs.out }}`" + `)
            const b = ` + "`${{ fromJSON(steps.issue.outputs.result).issue.body }} ${{ fromJson(steps.issue.outputs.result).number }}`" + `
`
	var doc model.Document
	if err := New().Collect(context.Background(), ".github/workflows/t.yml", []byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	type view struct {
		Job, Expr, Source string
		Line              int
	}
	var got []view
	for _, j := range doc.Workflows[0].Jobs {
		for _, in := range j.Injections {
			got = append(got, view{j.ID, in.Expr, in.Source, in.Line})
		}
	}
	want := []view{
		{"a", "github.event.issue", "untrusted", 12},
		{"a", "github.event.issue.title", "untrusted", 13},
		{"a", "github.head_ref", "untrusted", 14},
		{"a", "github.event.pull_request.head.ref", "untrusted", 15},
		{"a", "github.event.head_commit.author.name", "untrusted", 15},
		{"a", "steps.codex.outputs.final-message", "agent", 21},
		{"b", "needs.a.outputs.out", "agent", 25},
		{"b", "needs.a.outputs.out", "agent", 31},
		{"b", "fromJSON(steps.issue.outputs.result).issue.body", "untrusted", 32},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("injections (-want +got):\n%s", diff)
	}
}

// Of the fixtures only the insecure agent CLI one expands what an outsider
// wrote (the triggering run's commit message) into a script.
func TestInjectionFixtures(t *testing.T) {
	names, err := os.ReadDir(fixtureDir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range names {
		doc, _ := collectFile(t, n.Name())
		for _, wf := range doc.Workflows {
			for _, j := range wf.Jobs {
				for _, in := range j.Injections {
					got = append(got, n.Name()+" "+in.Source+" "+in.Expr)
				}
			}
		}
	}
	want := []string{"agent-cli-insecure.yml untrusted github.event.workflow_run.head_commit.message"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("injections (-want +got):\n%s", diff)
	}
}

// An output a step names for an issue's or comment's text (issue-body from
// actions-cool/issues-helper get-issue) is outsider text expanded into the
// script; an output named for anything else is not judged.
func TestOutsiderStepOutputs(t *testing.T) {
	src := `on: issues
jobs:
  a:
    steps:
      - id: get-issue
        uses: actions-cool/issues-helper@v3
        with:
          actions: get-issue
      - run: |
          echo "${{ steps.get-issue.outputs.issue-body }}" > issue.md
          echo "${{ steps.get-issue.outputs.issue-number }} ${{ steps.get-issue.outputs.pr_title }}"
      - run: aider --yes-always --message-file issue.md
`
	var doc model.Document
	if err := New().Collect(context.Background(), ".github/workflows/t.yml", []byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, in := range doc.Workflows[0].Jobs[0].Injections {
		got = append(got, in.Source+" "+in.Expr)
	}
	if diff := cmp.Diff([]string{"untrusted steps.get-issue.outputs.issue-body", "untrusted steps.get-issue.outputs.pr_title"}, got); diff != "" {
		t.Errorf("injections (-want +got):\n%s", diff)
	}
}

// Outsider text in an agent action's CLI arguments (aider_args, claude_args)
// is an injection into arguments; in its prompt it is not reported.
func TestInjectionIntoAgentArgs(t *testing.T) {
	j := oneJob(t, `on: issues
jobs:
  a:
    steps:
      - uses: acme/aider-action@v1
        with:
          aider_args: '--yes --message "${{ github.event.issue.body }}"'
      - uses: anthropics/claude-code-action@v1
        with:
          prompt: ${{ github.event.issue.body }}
`)
	if len(j.Injections) != 1 || j.Injections[0].Into != "args" || j.Injections[0].Line != 7 || j.Injections[0].Expr != "github.event.issue.body" {
		t.Errorf("injections = %+v, want the aider_args one only", j.Injections)
	}
}
