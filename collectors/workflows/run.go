package workflows

import (
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/sandbox-audit/sandbox-audit/collectors/internal/agentcli"
	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// runScript reads a run: script for agent invocations, pushes, merges and
// literal secrets, line by line.
func (c *collector) runScript(run *yaml.Node, j *model.Job) {
	lines := strings.Split(run.Value, "\n")
	var b strings.Builder
	for i := 0; i < len(lines); i++ {
		start := i
		// Backslash-newline continues a command on the next line (built
		// up in one buffer: a script of continued lines is not copied once
		// per line).
		b.Reset()
		cur := lines[i]
		for strings.HasSuffix(strings.TrimRight(cur, " \t"), `\`) && i+1 < len(lines) {
			b.WriteString(strings.TrimSuffix(strings.TrimRight(cur, " \t"), `\`))
			b.WriteString(" ")
			i++
			cur = strings.TrimSpace(lines[i])
		}
		b.WriteString(cur)
		logical := b.String()
		line := lineOf(run, start)
		_, found := secrets.Hide(logical)
		for _, f := range found {
			c.credential(f.SecretRef, "workflow "+c.workflow+" job "+j.ID+" run step", line)
		}
		for _, cmd := range agentcli.Split(logical) {
			c.command(cmd, line, j)
		}
		for exe, tool := range agentcli.Installs(logical) {
			if c.installed == nil {
				c.installed = map[string]string{}
			}
			c.installed[exe] = tool
		}
	}
}

// command classifies one simple command of a run script.
func (c *collector) command(words []string, line int, j *model.Job) {
	if len(words) == 0 {
		return
	}
	text := secrets.Redact(strings.Join(words, " "))
	loc := c.loc(line)
	tool, args := agentcli.CommandWith(words, c.installed)
	if tool == "" {
		tool = packageScriptAgent(words)
	}
	if tool != "" {
		st := model.AgentStep{Tool: tool, Run: text, Loc: loc, Inputs: map[string]model.Str{}}
		if len(args) > 0 {
			hidden, _ := secrets.HideArgs(args)
			st.Args = &model.Str{Value: strings.Join(hidden, " "), Loc: loc}
			// The words as the shell splits them: joined, the quotes that
			// kept "Bash(git diff:*)" whole are gone.
			if c.cliWords == nil {
				c.cliWords = map[int][]string{}
			}
			c.cliWords[line] = append(c.cliWords[line], hidden...)
		}
		j.AgentSteps = append(j.AgentSteps, st)
	}
	i := agentcli.ExeIndex(words)
	if i < 0 {
		return
	}
	switch words[i] {
	case "git":
		switch gitSubcommand(words[i+1:]) {
		case "push":
			j.Pushes = append(j.Pushes, model.Str{Value: text, Loc: loc})
		case "fetch", "pull":
			if pullRefRE.MatchString(text) {
				j.PRCheckouts = append(j.PRCheckouts, model.Str{Value: text, Loc: loc})
			}
		}
	case "gh":
		if args := words[i+1:]; len(args) >= 2 && args[0] == "pr" && (args[1] == "create" || args[1] == "checkout") {
			j.OpensPR = append(j.OpensPR, model.Str{Value: text, Loc: loc})
			if args[1] == "checkout" {
				j.PRCheckouts = append(j.PRCheckouts, model.Str{Value: text, Loc: loc})
			}
		}
		if ghMerges(words[i+1:]) {
			j.AutoMerge = append(j.AutoMerge, model.Str{Value: text, Loc: loc})
		}
		if dir := ghRunDownloadDir(words[i+1:]); agentStatePath(dir) {
			j.StateRestores = append(j.StateRestores, model.Str{Value: "gh run download restores " + dir, Loc: loc})
		}
	}
}

// pullRefRE is a pull request's ref in a git fetch: pull/N/head,
// refs/pull/N/merge (N often an expression or a variable).
var pullRefRE = regexp.MustCompile(`(?:^|[\s/:+])pull/[^/]+/(?:head|merge)\b`)

// prActions open a pull request from the changes in the workspace.
var prActions = map[string]bool{"peter-evans/create-pull-request": true, "gr2m/create-or-update-pull-request-action": true}

// packageScriptAgent is the agent a package script is named for (npm run
// claude, pnpm run codex-review): the repository's own script that starts
// an agent, through its SDK or its CLI. "" for any other command.
func packageScriptAgent(words []string) string {
	i := agentcli.ExeIndex(words)
	if i < 0 || i+2 >= len(words) {
		return ""
	}
	switch words[i] {
	case "npm", "pnpm", "yarn", "bun":
		if words[i+1] == "run" || words[i+1] == "run-script" {
			return nameHint(words[i+2])
		}
	}
	return ""
}

// gitSubcommand skips git's global options (-C dir, -c k=v, --no-pager…).
func gitSubcommand(args []string) string {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-C" || a == "-c" || a == "--git-dir" || a == "--work-tree":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return a
		}
	}
	return ""
}

// ghRunDownloadDir is the directory gh run download extracts another run's
// artifacts to ("" for anything else).
func ghRunDownloadDir(args []string) string {
	if len(args) < 2 || args[0] != "run" || args[1] != "download" {
		return ""
	}
	for i := 2; i < len(args); i++ {
		switch name, value, ok := strings.Cut(args[i], "="); name {
		case "-D", "--dir":
			if ok {
				return value
			}
			if i+1 < len(args) {
				return args[i+1]
			}
		}
	}
	return ""
}

// ghMerges reports gh pr merge (with or without --auto), gh pr review
// --approve, and gh api calls to a pull request's merge endpoint.
func ghMerges(args []string) bool {
	if len(args) >= 2 && args[0] == "pr" {
		switch args[1] {
		case "merge":
			return true
		case "review":
			for _, a := range args[2:] {
				if a == "--approve" || a == "-a" {
					return true
				}
			}
		}
	}
	if len(args) >= 1 && args[0] == "api" {
		for _, a := range args[1:] {
			if strings.Contains(a, "/merge") || strings.Contains(a, "enablePullRequestAutoMerge") || strings.Contains(a, "mergePullRequest") {
				return true
			}
		}
	}
	return false
}

// shellWords splits an argument string as a shell would (quotes removed).
func shellWords(s string) []string {
	var out []string
	for _, cmd := range agentcli.Split(s) {
		out = append(out, cmd...)
	}
	return out
}
