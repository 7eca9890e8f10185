package agentcli

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRuns(t *testing.T) {
	for line, want := range map[string]string{
		`claude -p "fix the tests"`:                          "claude-code",
		`npx -y @anthropic-ai/claude-code@1.2 -p hi`:         "claude-code",
		`cd app && GOOSE_MODE=auto goose run -t "triage"`:    "goose",
		`sudo -E timeout 600 codex exec --full-auto "x"`:     "codex",
		`/usr/local/bin/gemini -y -p "review" | tee out.txt`: "gemini",
		`claude --version`:                                   "",
		`npm install -g @anthropic-ai/claude-code`:           "",
		`echo claude # codex exec`:                           "",
		`pipx run aider-chat --yes-always`:                   "aider",
		`vibe --prompt "fix it" --auto-approve`:              "vibe",
		`uvx mistral-vibe`:                                   "vibe",
	} {
		if got := Runs(line); got != want {
			t.Errorf("Runs(%q) = %q, want %q", line, got, want)
		}
	}
}

func TestEnvSwitch(t *testing.T) {
	for _, c := range []struct{ name, value, want string }{
		{"CODEX_UNSAFE_ALLOW_NO_SANDBOX", "1", "codex-no-sandbox"},
		{"codex_unsafe_allow_no_sandbox", " 'true' ", "codex-no-sandbox"},
		{"CODEX_UNSAFE_ALLOW_NO_SANDBOX", "0", ""},
		{"CODEX_UNSAFE_ALLOW_NO_SANDBOX", "${ALLOW}", ""},
		{"SANDBOX_USE_HOST_NETWORK", "True", "openhands-host-network"},
		{"SANDBOX_USE_HOST_NETWORK", "false", ""},
		{"USE_HOST_NETWORK", "true", ""},
	} {
		if got := EnvSwitch(c.name, c.value); got != c.want {
			t.Errorf("EnvSwitch(%q, %q) = %q, want %q", c.name, c.value, got, c.want)
		}
	}
}

func TestResolverAndRunners(t *testing.T) {
	for line, want := range map[string]string{
		"python -m openhands.resolver.resolve_issue --repo x":         "openhands",
		"poetry run python -m openhands.resolver.send_pull_request x": "openhands",
		"uv run claude -p hi":              "claude-code",
		"python -m openhands_helpers.lint": "",
		"python -m pytest":                 "",
		"poetry run pytest":                "",
	} {
		var got string
		for _, cmd := range Split(line) {
			if tool, _ := Command(cmd); tool != "" {
				got = tool
			}
		}
		if got != want {
			t.Errorf("%s: tool %q, want %q", line, got, want)
		}
	}
}

// TestSplitDoubleQuoteEscapes: a backslash in double quotes escapes the
// quote, so an escaped quote does not end the word and swallow the flags
// after it (a held-out codex exec -c "k=\"$V\"" --dangerously-bypass-… lost
// its bypass flag); in single quotes it is literal.
func TestSplitDoubleQuoteEscapes(t *testing.T) {
	got := Split(`codex exec -c "model=\"$M\"" --dangerously-bypass-approvals-and-sandbox 'a\' "x\\y" "p\q" < p.md`)
	want := [][]string{{"codex", "exec", "-c", `model="$M"`, "--dangerously-bypass-approvals-and-sandbox", `a\`, `x\y`, `p\q`, "<", "p.md"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Split (-want +got):\n%s", diff)
	}
}

func TestAliasBypasses(t *testing.T) {
	text := "RUN echo \"alias cc='claude --dangerously-skip-permissions'\" >> /home/vscode/.bashrc\n" +
		"alias yolo=\"codex --yolo\"\n" +
		"alias c='claude'\n" +
		"# alias note: use --dangerously-skip-permissions with care\n" +
		"alias g=gemini\\ -y\n"
	var got []string
	for _, a := range AliasBypasses(text) {
		got = append(got, fmt.Sprintf("%s %s %s %d", a.Name, a.Tool, a.Flag, a.Line))
	}
	want := []string{"cc claude-code --dangerously-skip-permissions 1", "yolo codex --yolo 2"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("AliasBypasses = %q, want %q", got, want)
	}
}
