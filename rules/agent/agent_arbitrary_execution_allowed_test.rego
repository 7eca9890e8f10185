package rules.agent_arbitrary_execution_allowed_test

import data.rules.agent_arbitrary_execution_allowed

rule(v) := {"value": v, "file": ".claude/settings.json", "line": 4}

claude(allow, deny) := {"agents": [{
	"tool": "claude-code", "scope": "project", "file": ".claude/settings.json", "line": 1,
	"allow": [rule(v) | some v in allow], "deny": [rule(v) | some v in deny], "ask": [],
}]}

fires(v) if {
	fs := agent_arbitrary_execution_allowed.deny with input as claude([v], [])
	count(fs) == 1
}

quiet(v) if {
	fs := agent_arbitrary_execution_allowed.deny with input as claude([v], [])
	count(fs) == 0
}

test_interpreters_fire if {
	fires("Bash(python3:*)")
	fires("Bash(python:*)")
	fires("Bash(node:*)")
	fires("Bash(node -e:*)")
	fires("Bash(bash -c:*)")
	fires("Bash(sh:*)")
	fires("Bash(python3 -u *)")
	fires("Bash(/usr/bin/perl:*)")
	fires("Bash(.venv/bin/python -c ' *)")
	fires("Bash(node -e \"require:*)")
	fires("Bash(command *)")
	fires("Bash(osascript *)")
	fires("Bash(cmd:*)")
	fires("Bash(git config:*)")
	fires("Bash(git -c:*)")
	fires("Bash(git:*)")
	fires("Bash(powershell.exe:*)")
	fires("Bash(sshpass *)")
	fires("Bash(wmic *)")
	fires("Bash(C:/Windows/System32/cmd.exe:*)")
	fires("Bash(npm:*)")
	fires("Bash(pnpm:*)")
	fires("Bash(uv:*)")
	fires("Bash(go:*)")
}

test_wrappers_runners_find_fire if {
	fires("Bash(find:*)")
	fires("Bash(find . -name:*)")
	fires("Bash(env:*)")
	fires("Bash(xargs:*)")
	fires("Bash(timeout 60:*)")
	fires("Bash(timeout 60 python3:*)")
	fires("Bash(sudo:*)")
	fires("Bash(npx:*)")
	fires("Bash(uvx:*)")
	fires("Bash(uv run:*)")
	fires("Bash(uv run python:*)")
	fires("Bash(poetry run:*)")
	fires("Bash(*)")
	fires("Bash")
	fires("run_shell_command")
}

test_message if {
	fs := agent_arbitrary_execution_allowed.deny with input as claude(["Bash(timeout 60 python3:*)"], [])
	some f in fs
	f.rule_id == "agent-arbitrary-execution-allowed"
	f.severity == "high"
	f.file == ".claude/settings.json"
	f.line == 4
	f.message == "claude-code (project settings) allows \"Bash(timeout 60 python3:*)\" without a prompt: python3 runs any code it is given (through timeout), so any command runs through it unasked"
}

# Scoped: one tool, not any code.
test_scoped_rules_quiet if {
	quiet("Bash(git config user.name:*)")
	quiet("Bash(git status:*)")
	quiet("Bash(npm test:*)")
	quiet("Bash(python -m pytest:*)")
	quiet("Bash(python3 scripts/check.py:*)")
	quiet("Bash(uv run pytest:*)")
	quiet("Bash(npx prettier:*)")
	quiet("Bash(env NODE_ENV=test npm test:*)")
	quiet("Bash(python3)")
	quiet("Bash(python3 -c 'print(1)' *)")
	quiet("Bash(xargs ls:*)")
	quiet("Bash(cat)")
	quiet("Bash(npm run:*)")
	quiet("Bash(node --check:*)")
	quiet("Bash(node -c:*)")
	quiet("Bash(python3 --version:*)")
	quiet("Bash(npm install:*)")
	quiet("Bash(cargo:*)")
	quiet("Bash(go test:*)")
	quiet("Bash(bash -c 'make lint')")
	quiet("Bash(make:*)")
	quiet("Bash(git status:*)")
	quiet("Read(**)")
}

# The literal table the cheap pre-test reads must name every runner.
test_runner_heads_cover_every_runner if {
	every p in data.lib.agent.command_runners | data.lib.agent.package_runners {
		_covered(split(p, " "))
	}
}

_covered(ws) if count(ws) == 1

_covered(ws) if ws[1] in data.lib.agent.runner_heads[ws[0]]

test_deny_covering_the_grant_holds_it_back if {
	fs := agent_arbitrary_execution_allowed.deny with input as claude(["Bash(python3:*)"], ["Bash(python3:*)"])
	count(fs) == 0
}

# A deny for one form leaves the others open: python3 x.py still runs.
test_partial_deny_does_not if {
	fs := agent_arbitrary_execution_allowed.deny with input as claude(["Bash(python3:*)"], ["Bash(python3 -c:*)"])
	count(fs) == 1
}

test_sandbox_on_quiet_unless_excluded if {
	base := claude(["Bash(python3:*)", "Bash(docker:*)"], [])
	a := object.union(base.agents[0], {"sandbox_enabled": {"value": true, "file": ".claude/settings.json", "line": 9}})
	fs := agent_arbitrary_execution_allowed.deny with input as {"agents": [a]}
	count(fs) == 0
	b := object.union(a, {"excluded_commands": [{"value": "python3", "file": ".claude/settings.json", "line": 10}]})
	gs := agent_arbitrary_execution_allowed.deny with input as {"agents": [b]}
	count(gs) == 1
}

test_bypass_mode_left_to_its_rule if {
	base := claude(["Bash(python3:*)"], [])
	a := object.union(base.agents[0], {"approval_mode": {"value": "bypass", "file": ".claude/settings.json", "line": 2}})
	fs := agent_arbitrary_execution_allowed.deny with input as {"agents": [a]}
	count(fs) == 0
}

# every command, written with a run of stars: Cursor's Shell(**), Gemini's
# run_shell_command(*), Claude's Bash(**)
test_star_a if fires("Shell(**)")
test_star_b if fires("Shell(*)")
test_star_c if fires("run_shell_command(*)")
test_star_d if fires("Bash(**)")

agent_with(allow, extra) := {"agents": [object.union({
	"tool": "claude-code", "scope": "project", "file": ".claude/settings.json", "line": 1,
	"allow": [rule(v) | some v in allow], "deny": [], "ask": [],
}, extra)]}

accept_edits := {"approval_mode": {"value": "auto", "file": ".claude/settings.json", "line": 2}}

# Build and test entry points run the repository's code: with edits
# accepted unasked, the agent writes that code and runs it.
test_build_entry_with_accepted_edits_fires if {
	every v in ["Bash(make:*)", "Bash(make *)", "Bash(go test *)", "Bash(yarn nx:*)", "Bash(npm run build)", "Bash(cargo test:*)", "Bash(python -m pytest:*)"] {
		fs := agent_arbitrary_execution_allowed.deny with input as agent_with([v], accept_edits)
		count(fs) == 1
	}
	fs := agent_arbitrary_execution_allowed.deny with input as agent_with(["Bash(make:*)"], accept_edits)
	some f in fs
	contains(f.message, `allows "Bash(make:*)" without a prompt and accepts edits unasked (approval mode accepts edits)`)
	# an Edit allow rule for every file does the same
	count(agent_arbitrary_execution_allowed.deny) == 1 with input as agent_with(["Bash(go test:*)", "Edit"], {})
	# a workflow's claude-code-action allows its edit tools by default
	count(agent_arbitrary_execution_allowed.deny) == 1 with input as agent_with(["Bash(make *)"], {"scope": "workflow", "context": `workflow "c" job "c"`})
}

test_build_entry_quiet if {
	# edits still ask: the person sees the code before it runs
	count(agent_arbitrary_execution_allowed.deny) == 0 with input as agent_with(["Bash(make:*)", "Bash(npm test:*)"], {})
	# an edit rule for some files only
	count(agent_arbitrary_execution_allowed.deny) == 0 with input as agent_with(["Bash(make:*)", "Edit(docs/**)"], {})
	# tools that run no repository code
	count(agent_arbitrary_execution_allowed.deny) == 0 with input as agent_with(["Bash(go vet:*)", "Bash(go fmt:*)", "Bash(npm view:*)", "Bash(yarn --version)"], accept_edits)
	# the command sandbox confines what runs
	count(agent_arbitrary_execution_allowed.deny) == 0 with input as agent_with(["Bash(make:*)"], object.union(accept_edits, {"sandbox_enabled": {"value": true, "file": ".claude/settings.json", "line": 3}}))
}

# PowerShell rules name cmdlets in any case: Invoke-Expression and
# Start-Process run what follows them, pwsh any script; listing and
# creating directories run nothing.
test_powershell_fires if {
	fires("PowerShell(Invoke-Expression *)")
	fires("PowerShell(iex:*)")
	fires("PowerShell(Start-Process *)")
	fires("PowerShell(pwsh *)")
	fires("PowerShell(Python3 *)")
	fires("PowerShell")
	fires("PowerShell(*)")
	quiet("PowerShell(Get-ChildItem *)")
	quiet("PowerShell(New-Item -ItemType Directory *)")
	quiet("PowerShell(notepad *)")
}

# OpenCode: make allowed and edits unasked (its "edit", the collector's
# name for the default allow or an edit rule for every file).
test_opencode_build_with_edits_fires if {
	fs := agent_arbitrary_execution_allowed.deny with input as {"agents": [{
		"tool": "opencode", "scope": "project", "file": "opencode.json", "line": 1,
		"allow": [rule("edit"), rule("bash(make *)")], "deny": [], "ask": [],
	}]}
	count(fs) == 1
	gs := agent_arbitrary_execution_allowed.deny with input as {"agents": [{
		"tool": "opencode", "scope": "project", "file": "opencode.json", "line": 1,
		"allow": [rule("bash(make *)")], "deny": [], "ask": [],
	}]}
	count(gs) == 0
}

# A build tool asked for its version or help runs nothing of the repository.
test_build_tool_version_quiet if {
	count(agent_arbitrary_execution_allowed.deny) == 0 with input as {"agents": [{
		"tool": "opencode", "scope": "project", "file": "opencode.json", "line": 1,
		"allow": [rule("edit"), rule("bash(mvn -version)"), rule("bash(gradle --version)"), rule("bash(make --help)")], "deny": [], "ask": [],
	}]}
}

# Two edit tools allowed (Edit and MultiEdit) beside a build entry point:
# one finding, naming the first, and no conflicting values (a held-out
# settings file stopped the whole scan with eval_conflict_error).
test_two_edit_tools_one_reason if {
	fs := agent_arbitrary_execution_allowed.deny with input as claude(["Edit", "MultiEdit", "Bash(npm run test)"], [])
	count(fs) == 1
	some f in fs
	contains(f.message, "Edit is allowed")
}

# terraform plan and apply run the providers, provisioners and external
# data sources of .tf files the agent edits unasked; launchctl submit runs
# any program.
test_infrastructure_and_launchctl if {
	count(agent_arbitrary_execution_allowed.deny) == 1 with input as agent_with(["Bash(terraform apply:*)"], accept_edits)
	count(agent_arbitrary_execution_allowed.deny) == 0 with input as agent_with(["Bash(terraform apply:*)", "Bash(terraform fmt:*)"], {})
	fires("Bash(launchctl *)")
}

# Several build entry points in one settings file: one finding, at the
# first, naming up to three others and counting the rest.
test_build_entries_one_finding if {
	fs := agent_arbitrary_execution_allowed.deny with input as agent_with(["Bash(yarn build)", "Bash(yarn lint)", "Bash(yarn test)", "Bash(make:*)", "Bash(go test:*)", "Bash(git status)"], accept_edits)
	count(fs) == 1
	some f in fs
	contains(f.message, `allows "Bash(yarn build)" (and "Bash(yarn lint)", "Bash(yarn test)", "Bash(make:*)" and 1 more) without a prompt`)
}
