package workflows

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// secretView is a reached secret without its file (the tests' workflow).
type secretView struct {
	Name, Via, To string
	Model         bool
	Line          int
}

func reached(t *testing.T, file, src string) [][]secretView {
	t.Helper()
	var doc model.Document
	err := New().Collect(context.Background(), file, []byte(src), &doc)
	if err != nil {
		t.Fatalf("Collect = %v", err)
	}
	var out [][]secretView
	for _, wf := range doc.Workflows {
		for _, j := range wf.Jobs {
			for _, st := range j.AgentSteps {
				v := []secretView{}
				for _, s := range st.Secrets {
					v = append(v, secretView{s.Name, s.Via, s.To, s.ModelKey, s.Line})
				}
				out = append(out, v)
			}
		}
	}
	return out
}

// TestSecretReach: a secret reaches the agent only through its process's
// environment, its action's inputs, or what an earlier step leaves behind.
func TestSecretReach(t *testing.T) {
	tests := []struct {
		name, src string
		want      [][]secretView
	}{
		{"app token minted: the private key stays with its step", `on: pull_request
jobs:
  a:
    steps:
      - uses: actions/create-github-app-token@v2
        id: app
        with:
          app-id: ${{ secrets.APP_ID }}
          private-key: ${{ secrets.APP_PRIVATE_KEY }}
      - uses: anthropics/claude-code-action@v1
        with:
          github_token: ${{ steps.app.outputs.token }}
          anthropic_api_key: ${{ secrets.ANTHROPIC_API_KEY }}
`, [][]secretView{{
			{"steps.app.outputs.token", "input", "github_token", false, 12},
			{"ANTHROPIC_API_KEY", "input", "anthropic_api_key", true, 13},
		}}},

		{"app token in the agent's env, by the step that minted it; a later or unknown step's is none", `on: pull_request
jobs:
  a:
    steps:
      - uses: actions/create-github-app-token@v2
        id: mint
        with:
          app-id: ${{ vars.APP_ID }}
          private-key: ${{ secrets.APP_KEY }}
      - run: codex exec "review" && gh pr comment -F out.md
        env:
          GH_TOKEN: ${{ steps.mint.outputs.token || github.token }}
          OTHER: ${{ steps.later.outputs.token }}
          NOTE: steps.mint.outputs.token
      - uses: tibdex/github-app-token@v2
        id: later
`, [][]secretView{{
			{"GITHUB_TOKEN", "step-env", "GH_TOKEN", false, 12},
			{"steps.mint.outputs.token", "step-env", "GH_TOKEN", false, 12},
		}}},

		{"a later step's secret and an if: condition do not reach", `on: push
jobs:
  a:
    steps:
      - uses: anthropics/claude-code-action@v1
        if: ${{ secrets.ANTHROPIC_API_KEY != '' }}
        with:
          claude_code_oauth_token: ${{ secrets.CLAUDE_CODE_OAUTH_TOKEN }}
      - run: ./deploy.sh
        env:
          DEPLOY_KEY: ${{ secrets.DEPLOY_KEY }}
`, [][]secretView{{{"CLAUDE_CODE_OAUTH_TOKEN", "input", "claude_code_oauth_token", true, 8}}}},

		{"step, job and workflow env", `on: push
env:
  SENTRY_DSN: ${{ secrets.SENTRY_DSN }}
jobs:
  a:
    env:
      NPM_TOKEN: ${{ secrets.NPM_TOKEN }}
    steps:
      - run: claude -p "fix it"
        env:
          ANTHROPIC_API_KEY: ${{ secrets.CLAUDE_KEY }}
          GH_TOKEN: ${{ github.token }}
`, [][]secretView{{
			{"CLAUDE_KEY", "step-env", "ANTHROPIC_API_KEY", true, 11},
			{"GITHUB_TOKEN", "step-env", "GH_TOKEN", false, 12},
			{"NPM_TOKEN", "job-env", "NPM_TOKEN", false, 7},
			{"SENTRY_DSN", "workflow-env", "SENTRY_DSN", false, 3},
		}}},

		{"earlier steps: $GITHUB_ENV, a read output, a file, a login action", `on: push
jobs:
  a:
    steps:
      - run: echo "TOKEN=${{ secrets.PYPI_TOKEN }}" >> "$GITHUB_ENV"
      - id: out
        env:
          KEY: ${{ secrets.SIGNING_KEY }}
        run: |
          echo "ready=true" >> "$GITHUB_OUTPUT"
          echo "key=$KEY" >> "$GITHUB_OUTPUT"
      - id: unread
        run: echo "x=${{ secrets.UNREAD }}" >> "$GITHUB_OUTPUT"
      - env:
          PASS: ${{ secrets.REGISTRY_PASSWORD }}
        run: echo "$PASS" > ~/.registry-pass
      - env:
          CHECK: ${{ secrets.ONLY_CHECKED }}
        run: test -n "$CHECK" && echo "ok=1" >> "$GITHUB_OUTPUT"
      - uses: docker/login-action@v3
        with:
          username: bot
          password: ${{ secrets.DOCKERHUB_TOKEN }}
      - run: claude -p "release"
        env:
          SIGNING: ${{ steps.out.outputs.key }}
`, [][]secretView{{
			{"PYPI_TOKEN", "github-env", "", false, 5},
			{"SIGNING_KEY", "step-output", "", false, 11},
			{"REGISTRY_PASSWORD", "file", "", false, 16},
			{"DOCKERHUB_TOKEN", "file", "password", false, 23},
		}}},

		{"a persisted checkout token", `on: push
jobs:
  a:
    steps:
      - uses: actions/checkout@v4
        with:
          token: ${{ secrets.BOT_PAT }}
      - uses: actions/checkout@v4
        with:
          token: ${{ secrets.OTHER_PAT }}
          persist-credentials: false
      - run: claude -p x
`, [][]secretView{{{"BOT_PAT", "checkout", "token", false, 5}}}},

		{"codex-action keeps the key in its proxy unless sudo stays", `on: push
jobs:
  a:
    steps:
      - uses: openai/codex-action@v1
        with:
          openai-api-key: ${{ secrets.OPENAI_API_KEY }}
      - uses: openai/codex-action@v1
        with:
          openai-api-key: ${{ secrets.OPENAI_API_KEY }}
          safety-strategy: unsafe
`, [][]secretView{{}, {{"OPENAI_API_KEY", "input", "openai-api-key", true, 10}}}},

		{"a reusable agent workflow with secrets: inherit", `on: issue_comment
jobs:
  resolve:
    uses: All-Hands-AI/OpenHands/.github/workflows/openhands-resolver.yml@main
    with:
      max_iterations: 50
    secrets: inherit
`, [][]secretView{{{"*", "inherit", "", false, 7}}}},

		{"Bedrock keys exported by the AWS action are Claude's model credential", `on: push
jobs:
  a:
    steps:
      - uses: aws-actions/configure-aws-credentials@v4
        with:
          aws-access-key-id: ${{ secrets.AWS_ACCESS_KEY_ID }}
          aws-secret-access-key: ${{ secrets.AWS_SECRET_ACCESS_KEY }}
      - uses: anthropics/claude-code-action@v1
        with:
          use_bedrock: "true"
`, [][]secretView{{
			{"AWS_ACCESS_KEY_ID", "github-env", "aws-access-key-id", true, 7},
			{"AWS_SECRET_ACCESS_KEY", "github-env", "aws-secret-access-key", true, 8},
		}}},

		{"a value computed from a secret (a comparison, a negation, a test whose result is a literal) does not pass it", `on: push
env:
  HAS_KEY: ${{ secrets.OPENAI_KEY != '' }}
jobs:
  a:
    env:
      USE_MAX: ${{ secrets.CLAUDE_CODE_OAUTH_TOKEN != '' && 'true' || 'false' }}
      NO_PAT: ${{ !secrets.BOT_PAT }}
      SHORT: ${{ startsWith(secrets.DEPLOY_URL, 'https://') }}
      FLAG: ${{ secrets.SENTRY_DSN && 'on' || 'off' }}
      PICK: ${{ secrets.PRIMARY_KEY || secrets.FALLBACK_KEY }}
      PLAIN: ${{ secrets.NPM_TOKEN }}
      GATED: ${{ secrets.PUBLISH == 'yes' && secrets.PUBLISH_TOKEN || '' }}
      WRAPPED: ${{ format('Bearer {0}', secrets.API_BEARER) }}
      BROKEN: ${{ secrets.ODD == ( }}
    steps:
      - run: claude -p "review"
        env:
          RUN_FLAG: ${{ (secrets.X_TOKEN != '') }}
        with:
          enabled: ${{ secrets.ANTHROPIC_API_KEY != '' && 'yes' || 'no' }}
`, [][]secretView{{
			{"PRIMARY_KEY", "job-env", "PICK", false, 11},
			{"FALLBACK_KEY", "job-env", "PICK", false, 11},
			{"NPM_TOKEN", "job-env", "PLAIN", false, 12},
			{"PUBLISH_TOKEN", "job-env", "GATED", false, 13},
			{"API_BEARER", "job-env", "WRAPPED", false, 14},
			{"ODD", "job-env", "BROKEN", false, 15},
		}}},

		{"another agent's model key is an extra secret", `on: push
jobs:
  a:
    steps:
      - run: gemini -p "review" --yolo
        env:
          ANTHROPIC_API_KEY: ${{ secrets.ANTHROPIC_API_KEY }}
          GEMINI_API_KEY: ${{ secrets.GEMINI_API_KEY }}
`, [][]secretView{{
			{"ANTHROPIC_API_KEY", "step-env", "ANTHROPIC_API_KEY", false, 7},
			{"GEMINI_API_KEY", "step-env", "GEMINI_API_KEY", true, 8},
		}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, reached(t, wfPath, tt.src)); diff != "" {
				t.Errorf("secrets (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCopilotReach: the Copilot coding agent ignores the setup job's env;
// what the steps leave on disk reaches it.
func TestCopilotReach(t *testing.T) {
	src := `on: workflow_dispatch
jobs:
  copilot-setup-steps:
    env:
      IGNORED: ${{ secrets.IGNORED }}
    steps:
      - run: echo "${{ secrets.NETRC_PASSWORD }}" > ~/.netrc
`
	want := [][]secretView{{{"NETRC_PASSWORD", "file", "", false, 7}}}
	if diff := cmp.Diff(want, reached(t, ".github/workflows/copilot-setup-steps.yml", src)); diff != "" {
		t.Errorf("secrets (-want +got):\n%s", diff)
	}
}

func TestWritesFile(t *testing.T) {
	for line, want := range map[string]bool{
		`echo "$T" > ~/.npmrc`:                  true,
		`echo "$T" >> /tmp/creds`:               true,
		`echo "$T" | tee -a ~/.netrc`:           true,
		`echo "x=$T" >> "$GITHUB_OUTPUT"`:       false,
		`echo "## $T" >> $GITHUB_STEP_SUMMARY`:  false,
		`test -n "$T" > /dev/null 2>&1`:         false,
		`cmd 2>&1`:                              false,
		`[ "$T" -gt 1 ]`:                        false,
		`printf '%s' "$T" > "${RUNNER_TEMP}/k"`: true,
	} {
		if got := writesFile(line); got != want {
			t.Errorf("writesFile(%q) = %v, want %v", line, got, want)
		}
	}
}

// TestAppTokenPermissions: what the minting step asks for decides what the
// token can do; without permission-* inputs it can do all the app can.
func TestAppTokenPermissions(t *testing.T) {
	src := `on: issues
jobs:
  a:
    steps:
      - uses: actions/create-github-app-token@v2
        id: all
        with: {app-id: "1", private-key: "${{ secrets.K }}"}
      - uses: actions/create-github-app-token@v2
        id: some
        with:
          app-id: "1"
          private-key: ${{ secrets.K }}
          permission-contents: read
          permission-pull-requests: write
          permission-issues: write
      - uses: tibdex/github-app-token@v2
        id: json
        with:
          permissions: '{"contents": "read", "checks": "write"}'
      - uses: actions/create-github-app-token@v2
        id: ro
        with: {permission-contents: read}
      - run: gemini -p "triage"
        env:
          A: ${{ steps.all.outputs.token }}
          B: ${{ steps.some.outputs.token }}
          C: ${{ steps.json.outputs.token }}
          D: ${{ steps.ro.outputs.token }}
`
	var doc model.Document
	if err := New().Collect(context.Background(), ".github/workflows/t.yml", []byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	got := map[string]model.AppToken{}
	for _, s := range doc.Workflows[0].Jobs[0].AgentSteps[0].Secrets {
		if s.App != nil {
			got[s.To] = *s.App
		}
	}
	want := map[string]model.AppToken{
		"A": {Step: "all", Scoped: false, Write: []string{}},
		"B": {Step: "some", Scoped: true, Write: []string{"issues", "pull-requests"}},
		"C": {Step: "json", Scoped: true, Write: []string{"checks"}},
		"D": {Step: "ro", Scoped: true, Write: []string{}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("app tokens (-want +got):\n%s", diff)
	}
}

// TestPassedSecretNames: what an expression can evaluate to.
func TestPassedSecretNames(t *testing.T) {
	tests := []struct {
		expr string
		want []string
	}{
		{"${{ secrets.A }}", []string{"A"}},
		{"${{ secrets['A-B'] }}", []string{"A-B"}},
		{"${{ github.token }}", []string{"GITHUB_TOKEN"}},
		{"Bearer ${{ secrets.A }} and ${{ secrets.B != '' }}", []string{"A"}},
		{"${{ secrets.A != '' && 'true' || 'false' }}", nil},
		{"${{ !secrets.A }}", nil},
		{"${{ !(secrets.A) || secrets.B }}", []string{"B"}},
		{"${{ contains(secrets.A, 'x') }}", nil},
		{"${{ secrets.A == 'it''s' }}", nil},
		{"${{ secrets.A < 3 }}", nil},
		{"${{ secrets.A || secrets.B }}", []string{"A", "B"}},
		{"${{ secrets.A && secrets.B }}", []string{"B"}},
		{"${{ fromJSON(secrets.A).token }}", []string{"A"}},
		{"${{ toJSON(secrets) }}", nil},
		{"${{ secrets.A == ( }}", []string{"A"}},
		{"${{ steps.x.outputs.token || github.token }}", []string{"GITHUB_TOKEN"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, passedSecretNames(tt.expr)); diff != "" {
			t.Errorf("passedSecretNames(%q) (-want +got):\n%s", tt.expr, diff)
		}
	}
}
