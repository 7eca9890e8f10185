# METADATA
# title: Agent may run arbitrary code without a prompt
# description: |
#   An allow rule lets the agent run, without asking, a command that runs any
#   code it is given: bare Bash or Bash(*); an interpreter with nothing but
#   options fixed (Bash(python3:*), Bash(node:*), Bash(bash -c:*), Bash(sh:*));
#   find (its -exec runs any command); a wrapper that runs the next command
#   (Bash(env:*), Bash(xargs:*), Bash(timeout 60:*), Bash(sudo:*)); a runner
#   of any package or command (Bash(npx:*), Bash(uvx:*), Bash(uv run:*),
#   Bash(poetry run:*)). Every other command — git push, reads of credential
#   files, network calls — then runs through it unasked, so the allowlist and
#   the deny rules beside it stop meaning anything. Scoped rules stay quiet:
#   Bash(npm test:*), Bash(python -m pytest:*), Bash(uv run pytest:*),
#   Bash(npx prettier:*) run one tool (the project's own scripts, which the
#   agent must edit first, under its edit permissions) — unless edits go
#   through unasked as well (acceptEdits, an Edit or Write allow rule for
#   every file, claude-code-action's default edit tools): then Bash(make:*),
#   Bash(go test:*), Bash(npm run:*) or Bash(yarn nx:*) run whatever the
#   agent has just written into the build files or tests. Quiet too when a deny or
#   ask rule covers the whole grant, when the agent's command sandbox is on (and
#   the command is not excluded from it), and in bypass mode, which
#   agent-approval-bypassed reports.
# related_resources:
#   - ref: https://docs.anthropic.com/en/docs/claude-code/iam
#     description: Claude Code — permission rules; prefix matching of Bash rules
#   - ref: https://gtfobins.github.io/
#     description: GTFOBins — programs that run arbitrary commands (find -exec, env, xargs, interpreters)
#   - ref: https://genai.owasp.org/llmrisk/llm062025-excessive-agency/
#     description: OWASP Top 10 for LLM Applications — LLM06 Excessive Agency
# custom:
#   id: agent-arbitrary-execution-allowed
#   property: review
#   severity: high
#   remediation: Replace the rule with the exact commands the task needs (Bash(python -m pytest:*), Bash(npm run lint:*)); keep interpreters, find, env, xargs and package runners behind a prompt (permissions.ask), or turn the agent's command sandbox on so what they run stays confined.
package rules.agent_arbitrary_execution_allowed

import data.lib.agent
import data.lib.sa

deny contains f if {
	some [i, j] in agent.lead_allows
	a := agent.agents[i]
	r := a.allow[j]
	why := agent.exec_reason(r.value)
	agent.unconfined(a, r.value)
	not agent.exec_held_back(a, r.value)
	f := sa.finding(rego.metadata.chain(), r, sprintf("%s allows %q without a prompt: %s, so any command runs through it unasked", [agent.label(a), r.value, why]))
}

# A build or test entry point runs code of the repository: with edits
# accepted unasked too, the agent writes the code and runs it.
# Build and test entry points: one finding per settings file, at the first,
# naming the others (a workflow that allows yarn build, lint, test and
# install is one way to run the agent's code, not four).
deny contains f if {
	some a in agent.agents
	edits := _edits_unasked(a)
	rs := [r |
		some r in object.get(a, "allow", [])
		is_string(r.value)
		regex.match(build_re, r.value)
		ws := agent.core_words(agent.command_words(r.value))
		count(ws) > 0
		_build_entry(ws)
		not agent.exec_reason(r.value)
		agent.unconfined(a, r.value)
		not agent.exec_held_back(a, r.value)
	]
	count(rs) > 0
	f := sa.finding(rego.metadata.chain(), rs[0], sprintf("%s allows %q%s without a prompt and accepts edits unasked (%s): the agent can write any code into what it runs (build files, tests, package scripts) and run it", [agent.label(a), rs[0].value, _and_more(rs), edits]))
}

_and_more(rs) := "" if count(rs) == 1

else := sprintf(" (and %s)", [concat(", ", [sprintf("%q", [r.value]) | some r in array.slice(rs, 1, min([count(rs), 4]))])]) if count(rs) <= 4

else := sprintf(" (and %s and %d more)", [concat(", ", [sprintf("%q", [r.value]) | some r in array.slice(rs, 1, 4)]), count(rs) - 4])

# build_re is a quick first test: a shell rule whose program, after any
# VAR=value, is a build tool or one of build_subcommands' programs.
build_re := sprintf(`^(?:Bash|PowerShell|bash|run_shell_command|ShellTool|Shell)\(\s*(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*(?:\S*/)?(?:%s)(?:\.exe)?(?:[\s:*)]|$)`, [concat("|", sort(build_tools | object.keys(build_subcommands)))])

# Build and test tools whose run executes code of the repository: the
# program alone (make, just), or with the subcommand named.
build_tools := {"make", "gmake", "just", "task", "nx", "pytest", "tox", "nox", "gradle", "gradlew", "mvn", "mvnw", "rake", "ctest", "jest", "vitest", "playwright", "phpunit"}

build_subcommands := {
	"go": {"test", "generate", "run"},
	"cargo": {"test", "build", "run", "bench", "check", "clippy"},
	"npm": {"test", "t", "run", "run-script", "start", "install", "ci", "i"},
	"pnpm": {"test", "t", "run", "start", "install", "i", "nx"},
	"yarn": {"test", "run", "start", "install", "nx"},
	"bun": {"test", "run", "install"},
	"dotnet": {"test", "run", "build"},
	"bazel": {"test", "run", "build"},
	"bazelisk": {"test", "run", "build"},
	"deno": {"test", "task"},
	"mix": {"test", "run", "compile"},
	"sbt": {"test", "run", "compile"},
	"composer": {"test", "run-script", "install"},
	"python": {"-m"},
	"python3": {"-m"},
	# providers, provisioners (local-exec) and external data sources of
	# the repository's .tf files run on plan and apply
	"terraform": {"plan", "apply", "destroy"},
	"tofu": {"plan", "apply", "destroy"},
	"pulumi": {"preview", "up", "destroy"},
}

_build_entry(ws) if {
	agent.base(ws[0]) in build_tools
	not _prints_version(ws)
}

# mvn -version, gradle --version, make --help: the tool prints and exits.
_prints_version(ws) if {
	count(ws) == 2
	ws[1] in {"-v", "-V", "-version", "--version", "version", "-h", "--help", "help"}
}

_build_entry(ws) if {
	count(ws) > 1
	ws[1] in build_subcommands[agent.base(ws[0])]
}

# yarn runs a package script by its name alone (yarn lint, yarn nx …).
_build_entry(ws) if {
	agent.base(ws[0]) == "yarn"
	count(ws) > 1
	not startswith(ws[1], "-")
}

# _edits_unasked(a) says how edits of the repository's files go through
# without a person: acceptEdits (or Gemini's auto_edit), an allow rule of
# an edit tool for every file (OpenCode's edit, which the collector adds when
# its rule for every file, or its default, is allow), or a workflow's
# claude-code-action, whose edit tools are allowed by default.
_edits_unasked(a) := "approval mode accepts edits" if {
	agent.effective(a, "approval_mode").value == "auto"
} else := sprintf("%s is allowed", [es[0]]) if {
	# the first such rule: several (Edit and MultiEdit) must not give a
	# function two values
	es := [e | some b in agent.peers(a); some r in object.get(b, "allow", []); e := r.value; is_string(e); _edit_everything(e)]
	count(es) > 0
} else := "claude-code-action allows its edit tools by default" if {
	agent.in_workflow(a)
	a.tool == "claude-code"
}

_edit_everything(e) if e in {"Edit", "Write", "MultiEdit", "Edit(*)", "Edit(**)", "Write(*)", "Write(**)", "Edit(./**)", "Write(./**)", "replace", "write_file", "edit"}
