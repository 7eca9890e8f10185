package workflows

import (
	"context"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// Fake, token-shaped values used by the fixtures (never real credentials).
const (
	fakePAT    = "ghp_OhbVrpoiVgRV5IfLBcbfnoGMbJmTPSIAoCLr"
	fakeOpenAI = "sk-proj-Z3aWZkSBvrjn9Wvgfygw2wMqZcUDIh7yfJs1ON43"
)

const fixtureDir = "../../fixtures/workflows/.github/workflows/"

// collectFile runs the collector on a fixture, as the scan would name it.
func collectFile(t *testing.T, name string) (model.Document, string) {
	t.Helper()
	data, err := os.ReadFile(fixtureDir + name)
	if err != nil {
		t.Fatal(err)
	}
	p := ".github/workflows/" + name
	var doc model.Document
	if err := New().Collect(context.Background(), p, data, &doc); err != nil {
		t.Fatalf("Collect(%s) = %v", name, err)
	}
	return doc, p
}

func TestInsecureFixture(t *testing.T) {
	doc, p := collectFile(t, "claude-insecure.yml")
	at := func(line int) model.Loc { return model.Loc{File: p, Line: line} }
	str := func(v string, line int) model.Str { return model.Str{Value: v, Loc: at(line)} }
	ptr := func(s model.Str) *model.Str { return &s }
	pat := secrets.DetectNamed("DEPLOY_TOKEN", fakePAT)
	if pat == nil {
		t.Fatal("the fixture's fake PAT is not detected as a secret")
	}
	args := str(`--dangerously-skip-permissions --allowedTools "Bash(*)"`, 26)
	want := []model.Workflow{{
		Loc:               at(4),
		Name:              "Claude PR assistant",
		Triggers:          []model.Str{str("pull_request_target", 6), str("issue_comment", 8)},
		PullRequestTarget: ptr(str("pull_request_target", 6)),
		RunsAgent:         true,
		Permissions:       &model.Permissions{All: "write-all", Scopes: map[string]string{}, Loc: at(10)},
		Jobs: []model.Job{{
			ID: "claude", Loc: at(14),
			RunsOn:         ptr(str("self-hosted, linux, x64", 15)),
			SelfHosted:     true,
			Runner:         "self-hosted",
			RunnerLabels:   []string{"self-hosted", "linux", "x64"},
			EffectiveWrite: writeScopes,
			RunsAgent:      true,
			AgentSteps: []model.AgentStep{{
				Uses: "anthropics/claude-code-action@v1", Tool: "claude-code", Loc: at(20),
				AllowedBots:     ptr(str("*", 24)),
				AllowedNonWrite: ptr(str("*", 25)),
				Args:            &args,
				PermissionMode:  ptr(str("--dangerously-skip-permissions", 26)),
				Inputs: map[string]model.Str{
					"anthropic_api_key":       str("${{ secrets.ANTHROPIC_API_KEY }}", 22),
					"github_token":            str("${{ secrets.GITHUB_TOKEN }}", 23),
					"allowed_bots":            str("*", 24),
					"allowed_non_write_users": str("*", 25),
					"claude_args":             args,
				},
				// BOT_PAT goes to a later step only; DEPLOY_TOKEN is a
				// literal (a credential), not a secret reference.
				Secrets: []model.AgentSecret{
					{Name: "ANTHROPIC_API_KEY", Via: "input", To: "anthropic_api_key", ModelKey: true, Loc: at(22)},
					{Name: "GITHUB_TOKEN", Via: "input", To: "github_token", Loc: at(23)},
				},
			}},
			Secrets: []model.Str{str("ANTHROPIC_API_KEY", 22), str("GITHUB_TOKEN", 23), str("BOT_PAT", 35)},
			Checkouts: []model.Checkout{{
				Uses: "actions/checkout@v4", PersistCredentials: true,
				Ref: "${{ github.event.pull_request.head.sha }}", Loc: at(17),
			}},
			AutoMerge: []model.Str{str("gh pr merge --auto --squash $PR_URL", 32)},
			Pushes:    []model.Str{str("git push origin HEAD", 30)},
			Env: []model.EnvVar{
				{Name: "DEPLOY_TOKEN", Secret: pat, SensitiveName: true, Loc: at(12)},
				{Name: "PR_URL", Loc: at(34)},
				{Name: "GH_TOKEN", FromSecret: true, SensitiveName: true, Loc: at(35)},
			},
		}},
	}}
	if diff := cmp.Diff(want, doc.Workflows); diff != "" {
		t.Errorf("workflows (-want +got):\n%s", diff)
	}
	wantCreds := []model.Credential{{
		SecretRef: *pat, Where: "workflow", Context: "workflow Claude PR assistant env DEPLOY_TOKEN",
		ReadableByAgent: true, Loc: at(12),
	}}
	if diff := cmp.Diff(wantCreds, doc.Credentials); diff != "" {
		t.Errorf("credentials (-want +got):\n%s", diff)
	}
}

func TestHardenedFixture(t *testing.T) {
	doc, p := collectFile(t, "claude-hardened.yml")
	at := func(line int) model.Loc { return model.Loc{File: p, Line: line} }
	str := func(v string, line int) model.Str { return model.Str{Value: v, Loc: at(line)} }
	ptr := func(s model.Str) *model.Str { return &s }
	args := str("--permission-mode plan --max-turns 5", 24)
	want := []model.Workflow{{
		Loc:         at(3),
		Name:        "Claude review",
		Triggers:    []model.Str{str("pull_request", 5)},
		RunsAgent:   true,
		Permissions: &model.Permissions{Scopes: map[string]string{"contents": "read"}, Loc: at(7)},
		Jobs: []model.Job{{
			ID: "review", Loc: at(10),
			RunsOn:         ptr(str("ubuntu-24.04", 11)),
			Runner:         "github-hosted",
			RunnerLabels:   []string{"ubuntu-24.04"},
			Permissions:    &model.Permissions{Scopes: map[string]string{"contents": "read", "pull-requests": "write", "id-token": "write"}, Loc: at(13)},
			EffectiveWrite: []string{"id-token", "pull-requests"},
			RunsAgent:      true,
			TimeoutMinutes: &model.Int{Value: 15, Loc: at(12)},
			AgentSteps: []model.AgentStep{{
				Uses:   "anthropics/claude-code-action@5d8b0a2ac8a4e4ec4e4dfc3b0bbf5a7d2f6c3a91",
				Pinned: true, Tool: "claude-code", Loc: at(21),
				Args:           &args,
				PermissionMode: ptr(str("plan", 24)),
				Inputs: map[string]model.Str{
					"anthropic_api_key": str("${{ secrets.ANTHROPIC_API_KEY }}", 23),
					"claude_args":       args,
				},
				Secrets: []model.AgentSecret{{Name: "ANTHROPIC_API_KEY", Via: "input", To: "anthropic_api_key", ModelKey: true, Loc: at(23)}},
			}},
			Secrets:   []model.Str{str("ANTHROPIC_API_KEY", 23)},
			Checkouts: []model.Checkout{{Uses: "actions/checkout@08eba0b27e820071cde6df949e0beb9ba4906955", Loc: at(18)}},
		}},
	}}
	if diff := cmp.Diff(want, doc.Workflows); diff != "" {
		t.Errorf("workflows (-want +got):\n%s", diff)
	}
	if len(doc.Credentials) != 0 {
		t.Errorf("credentials = %v, want none", doc.Credentials)
	}
}

func TestCopilotSetupFixture(t *testing.T) {
	doc, p := collectFile(t, "copilot-setup-steps.yml")
	if len(doc.Workflows) != 1 {
		t.Fatalf("got %d workflows, want 1", len(doc.Workflows))
	}
	wf := doc.Workflows[0]
	if !wf.CopilotSetup || !wf.RunsAgent || len(wf.Jobs) != 1 {
		t.Fatalf("copilot_setup=%v runs_agent=%v jobs=%d, want true true 1", wf.CopilotSetup, wf.RunsAgent, len(wf.Jobs))
	}
	j := wf.Jobs[0]
	want := []model.Str{{Value: "env", Loc: model.Loc{File: p, Line: 9}}}
	if diff := cmp.Diff(want, j.IgnoredKeys); diff != "" {
		t.Errorf("ignored keys (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(&model.Int{Value: 30, Loc: model.Loc{File: p, Line: 8}}, j.TimeoutMinutes); diff != "" {
		t.Errorf("timeout (-want +got):\n%s", diff)
	}
	if !j.RunsAgent || j.ID != "copilot-setup-steps" || j.SelfHosted {
		t.Errorf("job = %+v", j)
	}
}

func TestCodexRunFixture(t *testing.T) {
	doc, p := collectFile(t, "codex-nightly.yml")
	at := model.Loc{File: p, Line: 14}
	want := []model.AgentStep{{
		Tool: "codex", Loc: at,
		Run:            "codex exec --dangerously-bypass-approvals-and-sandbox fix the failing tests",
		Args:           &model.Str{Value: "exec --dangerously-bypass-approvals-and-sandbox fix the failing tests", Loc: at},
		PermissionMode: &model.Str{Value: "--dangerously-bypass-approvals-and-sandbox", Loc: at},
		Sandbox:        &model.Str{Value: "danger-full-access", Loc: at},
		Inputs:         map[string]model.Str{},
		Secrets:        []model.AgentSecret{{Name: "OPENAI_API_KEY", Via: "step-env", To: "OPENAI_API_KEY", ModelKey: true, Loc: model.Loc{File: p, Line: 17}}},
	}}
	if diff := cmp.Diff(want, doc.Workflows[0].Jobs[0].AgentSteps); diff != "" {
		t.Errorf("agent steps (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"default"}, doc.Workflows[0].Jobs[0].EffectiveWrite); diff != "" {
		t.Errorf("effective write (-want +got):\n%s", diff)
	}
}

func TestNoAgentFixture(t *testing.T) {
	doc, _ := collectFile(t, "ci.yml")
	if len(doc.Workflows) != 0 {
		t.Errorf("got %d workflows for a workflow without agent, want 0", len(doc.Workflows))
	}
}

// TestScanFixtures runs the collector through the real directory scan, so
// Match and the relative paths are those users get.
func TestScanFixtures(t *testing.T) {
	doc, errs, err := collectors.Scan(context.Background(), "../../fixtures/workflows", collectors.Options{Collectors: []collectors.Collector{New()}})
	if err != nil || len(errs) != 0 {
		t.Fatalf("Scan = %v, %v", err, errs)
	}
	var got []string
	for _, wf := range doc.Workflows {
		got = append(got, wf.File)
	}
	want := []string{
		".github/workflows/agent-cli-hardened.yml", ".github/workflows/agent-cli-insecure.yml",
		".github/workflows/claude-args-hardened.yml", ".github/workflows/claude-args-insecure.yml",
		".github/workflows/claude-hardened.yml", ".github/workflows/claude-insecure.yml",
		".github/workflows/codex-action-hardened.yml", ".github/workflows/codex-action-insecure.yml",
		".github/workflows/codex-nightly.yml", ".github/workflows/copilot-setup-steps.yml",
		".github/workflows/gemini-hardened.yml", ".github/workflows/gemini-insecure.yml",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("workflows (-want +got):\n%s", diff)
	}
	if len(doc.Files) != len(want)+1 {
		t.Errorf("files read = %d, want %d (ci.yml is read but adds no workflow)", len(doc.Files), len(want)+1)
	}
}
