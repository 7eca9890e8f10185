package workflows

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

const wfPath = ".github/workflows/agent.yml"

// collect runs the collector on inline YAML.
func collect(t *testing.T, src string) (model.Document, error) {
	t.Helper()
	var doc model.Document
	err := New().Collect(context.Background(), wfPath, []byte(src), &doc)
	return doc, err
}

// agentJob wraps job keys and steps in a workflow whose job runs Claude.
func agentJob(jobKeys, steps string) string {
	return "on: push\njobs:\n  a:\n" + jobKeys + "    steps:\n      - uses: anthropics/claude-code-action@v1\n" + steps
}

func oneJob(t *testing.T, src string) model.Job {
	t.Helper()
	doc, err := collect(t, src)
	if err != nil {
		t.Fatalf("Collect = %v", err)
	}
	if len(doc.Workflows) != 1 || len(doc.Workflows[0].Jobs) == 0 {
		t.Fatalf("got %d workflows, want 1 with a job", len(doc.Workflows))
	}
	return doc.Workflows[0].Jobs[0]
}

func TestMatch(t *testing.T) {
	for p, want := range map[string]bool{
		".github/workflows/a.yml":                         true,
		".github/workflows/copilot-setup-steps.yaml":      true,
		"svc/.github/workflows/b.yaml":                    true,
		".github/workflows/sub/c.yml":                     false,
		".github/workflows/readme.md":                     false,
		"workflows/a.yml":                                 false,
		".github/dependabot.yml":                          false,
		"workflow-templates/agent-review.yml":             true,
		"org/workflow-templates/nightly.yaml":             true,
		"workflow-templates/agent-review.properties.json": false,
	} {
		if got := New().Match(p); got != want {
			t.Errorf("Match(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestTriggers(t *testing.T) {
	tests := []struct {
		name, on string
		want     []string
		prt      bool
	}{
		{"string", "on: pull_request_target\n", []string{"pull_request_target"}, true},
		{"list", "on: [push, workflow_run]\n", []string{"push", "workflow_run"}, false},
		{"map", "on:\n  issue_comment:\n    types: [created]\n  pull_request_target: {}\n", []string{"issue_comment", "pull_request_target"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := collect(t, tt.on+"jobs:\n  a:\n    steps:\n      - run: claude -p hi\n")
			if err != nil {
				t.Fatal(err)
			}
			wf := doc.Workflows[0]
			var got []string
			for _, tr := range wf.Triggers {
				got = append(got, tr.Value)
				if tr.Line < 1 {
					t.Errorf("trigger %s has no line", tr.Value)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("triggers (-want +got):\n%s", diff)
			}
			if (wf.PullRequestTarget != nil) != tt.prt {
				t.Errorf("pull_request_target = %v, want %v", wf.PullRequestTarget, tt.prt)
			}
		})
	}
}

func TestRunsOn(t *testing.T) {
	tests := []struct {
		name, runsOn, text, runner string
		selfHosted, ephemeral      bool
		labels                     []string
	}{
		{"hosted", "ubuntu-latest", "ubuntu-latest", "github-hosted", false, false, []string{"ubuntu-latest"}},
		{"hosted list", "[macos-14]", "macos-14", "github-hosted", false, false, []string{"macos-14"}},
		{"self-hosted list", "[self-hosted, linux]", "self-hosted, linux", "self-hosted", true, false, []string{"self-hosted", "linux"}},
		// A larger runner, an ARC scale set or a self-hosted runner: the
		// label alone cannot tell.
		{"custom label", "gpu-box", "gpu-box", "custom", false, false, []string{"gpu-box"}},
		{"matrix", "${{ matrix.os }}", "${{ matrix.os }}", "expression", false, false, []string{"${{ matrix.os }}"}},
		{"ephemeral", "[self-hosted, ephemeral-x64]", "self-hosted, ephemeral-x64", "self-hosted", true, true, []string{"self-hosted", "ephemeral-x64"}},
		{"jit", "[self-hosted, jit]", "self-hosted, jit", "self-hosted", true, true, []string{"self-hosted", "jit"}},
		{"group", "{group: agents, labels: [linux]}", "group: agents; linux", "custom", false, false, []string{"group:agents", "linux"}},
		{"group only", "{group: agents}", "group: agents", "custom", false, false, []string{"group:agents"}},
		{"runner service", "blacksmith-4vcpu-ubuntu-2404", "blacksmith-4vcpu-ubuntu-2404", "hosted-provider", false, true, []string{"blacksmith-4vcpu-ubuntu-2404"}},
		{"larger runner name", "Ubuntu-Latest-16-Cores", "Ubuntu-Latest-16-Cores", "github-hosted", false, false, []string{"ubuntu-latest-16-cores"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := oneJob(t, agentJob("    runs-on: "+tt.runsOn+"\n", ""))
			want := &model.Str{Value: tt.text, Loc: model.Loc{File: wfPath, Line: 4}}
			if diff := cmp.Diff(want, j.RunsOn); diff != "" {
				t.Errorf("runs-on (-want +got):\n%s", diff)
			}
			if j.SelfHosted != tt.selfHosted || j.Ephemeral != tt.ephemeral || j.Runner != tt.runner {
				t.Errorf("self_hosted=%v ephemeral=%v runner=%s, want %v %v %s", j.SelfHosted, j.Ephemeral, j.Runner, tt.selfHosted, tt.ephemeral, tt.runner)
			}
			if diff := cmp.Diff(tt.labels, j.RunnerLabels); diff != "" {
				t.Errorf("runner labels (-want +got):\n%s", diff)
			}
		})
	}
}

func TestEffectiveWrite(t *testing.T) {
	tests := []struct {
		name, wf, job string
		want          []string
	}{
		{"none anywhere", "", "", []string{"default"}},
		{"workflow read-all", "permissions: read-all\n", "", []string{}},
		{"workflow scopes", "permissions:\n  contents: write\n  issues: read\n", "", []string{"contents"}},
		{"job overrides", "permissions: write-all\n", "    permissions:\n      pull-requests: write\n", []string{"pull-requests"}},
		{"job empty", "permissions: write-all\n", "    permissions: {}\n", []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := oneJob(t, tt.wf+agentJob(tt.job, ""))
			if diff := cmp.Diff(tt.want, j.EffectiveWrite); diff != "" {
				t.Errorf("effective write (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRunSteps(t *testing.T) {
	// What the agents[] entry of the run step says: tool, normalized
	// approval mode, the mode as written, sandbox mode.
	type fact struct{ Tool, Mode, Raw, Sandbox string }
	tests := []struct {
		name, run      string
		agents         []fact
		pushes, merges int
	}{
		{"claude bypass", "claude -p 'fix' --dangerously-skip-permissions", []fact{{"claude-code", "bypass", "--dangerously-skip-permissions", ""}}, 0, 0},
		{"claude mode", "claude --permission-mode=acceptEdits -p x", []fact{{"claude-code", "auto", "acceptEdits", ""}}, 0, 0},
		// A step that configures nothing adds no agents[] entry.
		{"npx claude", "npx -y @anthropic-ai/claude-code@latest -p hi --allowedTools Read", []fact{{"claude-code", "", "", ""}}, 0, 0},
		{"nothing configured", "claude -p hi", nil, 0, 0},
		{"install is not a run", "npm install -g @anthropic-ai/claude-code && claude --version", nil, 0, 0},
		// codex exec never asks anyway: -a never is no bypass of the sandbox.
		{"codex sandbox", "OPENAI_API_KEY=x codex exec -s workspace-write -a never 'go'", []fact{{"codex", "", "never", "workspace-write"}}, 0, 0},
		{"codex config", `codex exec -c sandbox_mode="danger-full-access" hi`, []fact{{"codex", "", "", "danger-full-access"}}, 0, 0},
		{"gemini yolo", "gemini --yolo -p hi | tee out.txt", []fact{{"gemini", "bypass", "--yolo", ""}}, 0, 0},
		{"gemini approval mode", "gemini --approval-mode=auto_edit -p hi", []fact{{"gemini", "auto", "--approval-mode auto_edit", ""}}, 0, 0},
		{"aider", "sudo aider --yes-always --message x", []fact{{"aider", "bypass", "--yes-always", ""}}, 0, 0},
		{"cursor", "timeout 600 cursor-agent -f -p hi", []fact{{"cursor", "bypass", "-f", ""}}, 0, 0},
		{"copilot", "copilot -p hi --allow-all-tools", []fact{{"copilot", "bypass", "--allow-all-tools", ""}}, 0, 0},
		{"opencode", "opencode run --auto hi", []fact{{"opencode", "bypass", "--auto", ""}}, 0, 0},
		{"push and merge", "git -C repo push origin main; gh pr merge 1 --squash", nil, 1, 1},
		{"approve", "gh pr review 1 --approve", nil, 0, 1},
		{"echo is not a push", "echo git push", nil, 0, 0},
		{"comment", "# claude -p would run here", nil, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "on: push\njobs:\n  a:\n    steps:\n      - run: claude -p setup\n      - run: " + quote(tt.run) + "\n"
			// The first step configures nothing: no agents[] entry.
			doc, err := collect(t, src)
			if err != nil {
				t.Fatal(err)
			}
			j := doc.Workflows[0].Jobs[0]
			var got []fact
			for _, a := range doc.Agents {
				v := viewAgent(a)
				if v.Line != 6 {
					t.Errorf("agent line = %d, want 6", v.Line)
				}
				got = append(got, fact{v.Tool, v.Approval, v.Raw, v.Sandbox})
			}
			if diff := cmp.Diff(tt.agents, got); diff != "" {
				t.Errorf("agents (-want +got):\n%s", diff)
			}
			if len(j.AgentSteps) < 2 && tt.agents != nil {
				t.Errorf("agent steps = %+v", j.AgentSteps)
			}
			if len(j.Pushes) != tt.pushes || len(j.AutoMerge) != tt.merges {
				t.Errorf("pushes=%v merges=%v, want %d %d", j.Pushes, j.AutoMerge, tt.pushes, tt.merges)
			}
		})
	}
}

// marker is what a literal secret is replaced with in the model.
func marker(name, value string) string {
	r := secrets.DetectNamed(name, value)
	if r == nil {
		return "<not detected>"
	}
	return "[REDACTED:" + r.Kind + ":" + r.Fingerprint + "]"
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// Cursor's installer puts its CLI on the PATH as "agent": a step of the
// job that runs it makes "agent" the Cursor CLI in the steps after it, and
// only in that job.
func TestInstalledAgentName(t *testing.T) {
	install := "      - run: curl https://cursor.com/install -fsS | bash\n"
	run := "      - run: agent -p 'review' --force --output-format=text\n"
	tests := []struct {
		name, src string
		steps     int // agent steps of job a
	}{
		{"installed", "on: push\njobs:\n  a:\n    steps:\n" + install + run, 1},
		{"not installed", "on: push\njobs:\n  a:\n    steps:\n" + run, 0},
		{"installed by another job", "on: push\njobs:\n  a:\n    steps:\n" + run + "  b:\n    steps:\n" + install, 0},
		{"agent login is not a run", "on: push\njobs:\n  a:\n    steps:\n" + install + "      - run: agent login\n", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := collect(t, tt.src)
			if err != nil {
				t.Fatal(err)
			}
			var steps []model.AgentStep
			for _, w := range doc.Workflows {
				for _, j := range w.Jobs {
					steps = append(steps, j.AgentSteps...)
				}
			}
			if len(steps) != tt.steps {
				t.Fatalf("agent steps = %+v, want %d", steps, tt.steps)
			}
			if tt.steps == 1 {
				if st := steps[0]; st.Tool != "cursor" {
					t.Errorf("tool = %q, want cursor", st.Tool)
				}
				if len(doc.Agents) != 1 || viewAgent(doc.Agents[0]).Approval != "bypass" {
					t.Errorf("agents = %+v, want cursor with --force (bypass)", doc.Agents)
				}
			}
		})
	}
}

// A job switched off by a literal false condition runs nothing: its agent
// and its permissions are not the repository's.
func TestNeverRunningJob(t *testing.T) {
	for cond, runs := range map[string]bool{
		"false": false, "${{ false }}": false, "'false'": false,
		"github.event_name == 'false'": true, "${{ !false }}": true, "true": true,
	} {
		src := "on: push\njobs:\n  a:\n    if: " + cond + "\n    permissions:\n      contents: write\n    steps:\n      - uses: anthropics/claude-code-action@v1\n"
		doc, err := collect(t, src)
		if err != nil {
			t.Fatal(err)
		}
		got := 0
		for _, w := range doc.Workflows {
			got += len(w.Jobs)
		}
		if want := map[bool]int{true: 1, false: 0}[runs]; got != want {
			t.Errorf("if: %s: %d jobs read, want %d", cond, got, want)
		}
	}
}

// A package script named for an agent, and OpenHands' resolver module,
// start an agent; other scripts and modules do not.
func TestIndirectAgentRuns(t *testing.T) {
	for run, want := range map[string]string{
		"npm run claude":                                   "claude-code",
		"pnpm run codex-review -- --pr 3":                  "codex",
		"python -m openhands.resolver.resolve_issue --x 1": "openhands",
		"npm run build":                                    "",
		"npm run precursor":                                "",
		"yarn run lint":                                    "",
	} {
		doc, err := collect(t, "on: push\njobs:\n  a:\n    steps:\n      - run: "+quote(run)+"\n")
		if err != nil {
			t.Fatal(err)
		}
		var got string
		for _, w := range doc.Workflows {
			for _, j := range w.Jobs {
				for _, st := range j.AgentSteps {
					got = st.Tool
				}
			}
		}
		if got != want {
			t.Errorf("%s: agent %q, want %q", run, got, want)
		}
	}
}

func TestBlockScalarLines(t *testing.T) {
	src := "on: push\njobs:\n  a:\n    steps:\n      - run: |\n          set -e\n          codex exec \\\n            --full-auto hi\n          git push\n"
	j := oneJob(t, src)
	if len(j.AgentSteps) != 1 || j.AgentSteps[0].Line != 7 || j.AgentSteps[0].Sandbox.Value != "workspace-write" {
		t.Errorf("agent steps = %+v, want codex at line 7 with workspace-write", j.AgentSteps)
	}
	if diff := cmp.Diff([]model.Str{{Value: "git push", Loc: model.Loc{File: wfPath, Line: 9}}}, j.Pushes); diff != "" {
		t.Errorf("pushes (-want +got):\n%s", diff)
	}
}

func TestAutoMergeActions(t *testing.T) {
	j := oneJob(t, agentJob("", "      - uses: pascalgn/automerge-action@v0.16.4\n      - uses: actions/github-script@v7\n        with:\n          script: |\n            await github.rest.pulls.merge({owner, repo, pull_number})\n"))
	want := []model.Str{
		{Value: "pascalgn/automerge-action@v0.16.4", Loc: model.Loc{File: wfPath, Line: 6}},
		{Value: "actions/github-script@v7: await github.rest.pulls.merge({owner, repo, pull_number})", Loc: model.Loc{File: wfPath, Line: 10}},
	}
	if diff := cmp.Diff(want, j.AutoMerge); diff != "" {
		t.Errorf("auto merge (-want +got):\n%s", diff)
	}
}

func TestCheckoutAndSecrets(t *testing.T) {
	steps := "      - uses: actions/checkout@v5\n        with:\n          persist-credentials: ${{ false }}\n          token: ${{ secrets.BOT_PAT }}\n" +
		"      - uses: actions/checkout@v5\n        with:\n          token: ghp_OhbVrpoiVgRV5IfLBcbfnoGMbJmTPSIAoCLr\n" +
		"      - run: echo ${{ secrets['ODD-NAME'] }} ${{ github.token }}\n"
	doc, err := collect(t, agentJob("", steps))
	if err != nil {
		t.Fatal(err)
	}
	j := doc.Workflows[0].Jobs[0]
	want := []model.Checkout{
		{Uses: "actions/checkout@v5", Token: "secrets.BOT_PAT", Loc: model.Loc{File: wfPath, Line: 6}},
		{Uses: "actions/checkout@v5", PersistCredentials: true, Token: marker("token", fakePAT), Loc: model.Loc{File: wfPath, Line: 10}},
	}
	if diff := cmp.Diff(want, j.Checkouts); diff != "" {
		t.Errorf("checkouts (-want +got):\n%s", diff)
	}
	var names []string
	for _, s := range j.Secrets {
		names = append(names, s.Value)
	}
	if diff := cmp.Diff([]string{"BOT_PAT", "ODD-NAME", "GITHUB_TOKEN"}, names); diff != "" {
		t.Errorf("secrets (-want +got):\n%s", diff)
	}
	if len(doc.Credentials) != 1 || doc.Credentials[0].Line != 12 || doc.Credentials[0].Where != "workflow" {
		t.Errorf("credentials = %+v, want the literal checkout token at line 12", doc.Credentials)
	}
}

func TestLiteralSecretInInput(t *testing.T) {
	doc, err := collect(t, "on: push\njobs:\n  a:\n    steps:\n      - uses: openai/codex-action@v1\n        with:\n          openai-api-key: sk-proj-Z3aWZkSBvrjn9Wvgfygw2wMqZcUDIh7yfJs1ON43\n          sandbox: danger-full-access\n")
	if err != nil {
		t.Fatal(err)
	}
	st := doc.Workflows[0].Jobs[0].AgentSteps[0]
	if got, want := st.Inputs["openai-api-key"].Value, marker("openai-api-key", fakeOpenAI); got != want {
		t.Errorf("input = %q, want %q", got, want)
	}
	if st.Sandbox == nil || st.Sandbox.Value != "danger-full-access" || st.Tool != "codex" {
		t.Errorf("step = %+v, want codex with sandbox danger-full-access", st)
	}
	if len(doc.Credentials) != 1 || doc.Credentials[0].Fingerprint != secrets.Fingerprint(fakeOpenAI) || doc.Credentials[0].Line != 7 {
		t.Errorf("credentials = %+v", doc.Credentials)
	}
}

func TestWorkflowEnvSecretReportedOnce(t *testing.T) {
	src := "on: push\nenv:\n  NPM_TOKEN: " + fakePAT + "\njobs:\n  a:\n    steps:\n      - run: claude -p x\n  b:\n    steps:\n      - run: make\n"
	doc, err := collect(t, src)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Credentials) != 1 || doc.Credentials[0].Line != 3 {
		t.Errorf("credentials = %+v, want one at line 3", doc.Credentials)
	}
	for _, j := range doc.Workflows[0].Jobs {
		if len(j.Env) != 1 || j.Env[0].Secret == nil {
			t.Errorf("job %s env = %+v, want NPM_TOKEN with its secret", j.ID, j.Env)
		}
	}
	if jobs := doc.Workflows[0].Jobs; !jobs[0].RunsAgent || jobs[1].RunsAgent {
		t.Errorf("runs_agent = %v %v, want true false", jobs[0].RunsAgent, jobs[1].RunsAgent)
	}
}

// TestJobEnvironment: a job's environment, written as a name or as a
// mapping with one, is kept as written.
func TestJobEnvironment(t *testing.T) {
	src := "on: pull_request_target\njobs:\n  a:\n    environment: review\n    steps:\n      - uses: anthropics/claude-code-action@v1\n  b:\n    environment:\n      name: ${{ inputs.env }}\n      url: https://x\n    steps:\n      - run: echo\n  c:\n    steps:\n      - run: echo\n"
	var doc model.Document
	if err := New().Collect(context.Background(), ".github/workflows/a.yml", []byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, j := range doc.Workflows[0].Jobs {
		if j.Environment == nil {
			got = append(got, j.ID+":-")
		} else {
			got = append(got, fmt.Sprintf("%s:%s@%d", j.ID, j.Environment.Value, j.Environment.Line))
		}
	}
	if diff := cmp.Diff([]string{"a:review@4", "b:${{ inputs.env }}@9", "c:-"}, got); diff != "" {
		t.Errorf("environments (-want +got):\n%s", diff)
	}
}

// A job that opens a pull request records where: gh pr create in a run
// step, a pull-request action, a github-script calling pulls.create, or
// gh pr checkout (the job works on that pull request's branch).
func TestOpensPR(t *testing.T) {
	src := "on: push\njobs:\n  a:\n    steps:\n      - run: claude -p fix\n      - run: git push -u origin \"$B\" && gh pr create --fill\n      - uses: peter-evans/create-pull-request@v7\n      - run: gh pr list\n" +
		"      - uses: actions/github-script@v7\n        with:\n          script: |\n            const pulls = await github.rest.pulls.list({})\n            await github.rest.pulls.create({head: b})\n" +
		"      - run: gh pr checkout \"$N\"\n"
	doc, err := collect(t, src)
	if err != nil {
		t.Fatal(err)
	}
	j := doc.Workflows[0].Jobs[0]
	var lines []int
	for _, s := range j.OpensPR {
		lines = append(lines, s.Line)
	}
	if diff := cmp.Diff([]int{6, 7, 13, 14}, lines); diff != "" || len(j.Pushes) != 1 {
		t.Errorf("opens_pr lines (-want +got):\n%s; pushes %v", diff, j.Pushes)
	}
}
