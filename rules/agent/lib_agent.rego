# Package lib.agent holds what the agent rules share: a readable name for one
# agent's settings, Claude Code's settings precedence, and the matching of
# permission rules (Bash(git push:*), mcp__github__merge_pull_request, Read(~/.aws/**))
# against the actions a rule is about.
package lib.agent

# label names an agent's settings in messages: tool, Codex profile, scope;
# an agent a workflow step starts is named by its workflow and job.
label(a) := sprintf("%s in %s", [object.get(a, "tool", "agent"), a.context]) if {
	is_string(a.context)
	a.context != ""
} else := sprintf("%s%s%s", [object.get(a, "tool", "agent"), _profile_part(a), _scope_part(a)])

# in_workflow(a): a workflow step starts the agent; its settings are the
# step's inputs and CLI flags.
in_workflow(a) if object.get(a, "scope", "") == "workflow"

# in_container(a): a container's command starts the agent (a compose
# service's command, a script's docker run): the container is its sandbox,
# and what the container holds and reaches is the workload rules' to judge.
in_container(a) if object.get(a, "workload", "") != ""

_profile_part(a) := sprintf(" profile %q", [p]) if {
	p := object.get(a, "profile", "")
	p != ""
} else := ""

_scope_part(a) := sprintf(" (%s settings)", [s]) if {
	s := object.get(a, "scope", "")
	s != ""
} else := ""

agents := object.get(input, "agents", [])

# Claude Code merges its settings files; for a scalar the highest scope wins:
# managed > command-line flags (a workflow step's) > local > project > user.
scope_rank := {"managed": 5, "workflow": 4, "local": 3, "project": 2, "user": 1}

# peers(a) are the settings files that merge with a's: the same tool in the
# same project (files under one directory's .claude/, .codex/…), plus the
# user and managed files of that tool, which apply to every project. The
# collectors index them in input.agent_groups, so a scan of many repositories
# neither merges one repository's settings into another's nor pays a
# quadratic join; without the index (hand-written inputs) every file of the
# tool counts.
peers(a) := [agents[i] | some i in input.agent_groups[a.group]] if input.agent_groups[a.group]

else := [b | some b in agents; object.get(b, "tool", "") == object.get(a, "tool", "")]

# effective(a, key) is the fact for key from the highest-precedence settings
# file among a's peers that sets it; undefined when none does.
effective(a, key) := fact if {
	facts := [[r, f] |
		some b in peers(a)
		f := b[key]
		is_object(f)
		r := object.get(scope_rank, object.get(b, "scope", ""), 0)
	]
	count(facts) > 0
	top := max([x[0] | some x in facts])
	fact := [x[1] | some x in facts; x[0] == top][0]
}

# sets(a, key) holds when any of a's peers sets key.
sets(a, key) if {
	some b in peers(a)
	is_object(b[key])
}

# setting(a, key) is the fact a sets for key; a Codex profile that does not set
# it takes the top-level value of the same file. Undefined when neither does.
setting(a, key) := a[key] if is_object(a[key])

else := tops[0][key] if {
	object.get(a, "profile", "") != ""
	tops := [b |
		some b in agents
		object.get(b, "tool", "") == object.get(a, "tool", "")
		object.get(b, "file", "") == object.get(a, "file", "")
		object.get(b, "profile", "") == ""
		is_object(b[key])
	]
	count(tops) > 0
}

# --- shell permission rules ---------------------------------------------------

# Claude Code writes Bash(cmd), Bash(cmd:*) (prefix) and Bash(cmd *) (glob),
# and the same forms for its PowerShell tool (PowerShell(Get-Content *)),
# whose commands it matches without regard to case; a bare tool name matches
# every command. OpenCode's bash patterns come as bash(git *) (the collector
# keeps only the rules a later one does not override) and match the same
# way. Gemini CLI (run_shell_command(git), ShellTool(git)), Cursor
# (Shell(git)) and the Copilot CLI (shell(git)) match by command prefix.
_claude_shells := {"Bash", "PowerShell", "bash"}

_prefix_shells := {"run_shell_command", "ShellTool", "Shell", "shell"}

# claude_rules are the agents whose settings take Claude Code's Read and
# Bash rules (Qwen Code's permissions block); shell_rule_agents adds
# OpenCode, whose bash rules the collector writes in the same form, and the
# Cursor CLI, whose Shell(cmd) rules match by command prefix.
claude_rules := {"claude-code", "qwen"}

shell_rule_agents := claude_rules | {"opencode", "cursor"}

# shell_tools are the tools a shell permission rule names.
shell_tools := _claude_shells | _prefix_shells

# shell_glob(rule) is a glob over a whole command line for a shell permission rule.
shell_glob(rule) := "*" if rule in shell_tools

shell_glob(rule) := g if {
	some t in _claude_shells
	spec := _case(t, _spec(rule, t))
	g := _cmd_glob(_stars(_claude_form(spec)))
}

shell_glob(rule) := g if {
	some t in _prefix_shells
	spec := _spec(rule, t)
	g := _cmd_glob(_stars(concat("", [spec, "*"])))
}

# A run of * in a command pattern is one: Cursor writes Shell(**) for
# every command.
_stars(p) := regex.replace(p, `\*+`, "*")

# shell_literal(rule) is the command a shell rule names, without its wildcard,
# e.g. "git push origin main" for Bash(git push origin main:*).
shell_literal(rule) := trim_space(regex.replace(spec, `(?::\*|\*+)$`, "")) if {
	some t in shell_tools
	spec := _case(t, _spec(rule, t))
}

# _case: PowerShell matches commands in any case, so its rules are judged in
# lower case, as the command lists are written.
_case("PowerShell", spec) := lower(spec)

_case(t, spec) := spec if t != "PowerShell"

_spec(rule, tool) := trim_space(substring(rule, count(tool) + 1, (count(rule) - count(tool)) - 2)) if {
	startswith(rule, concat("", [tool, "("]))
	endswith(rule, ")")
}

_claude_form(spec) := concat("", [trim_suffix(spec, ":*"), "*"]) if endswith(spec, ":*")

else := spec

# _cmd_glob keeps * as the only wildcard: every other glob character in a
# permission rule is literal.
_cmd_glob(pattern) := concat("*", [glob.quote_meta(p) | some p in split(pattern, "*")])

# --- MCP tool permission rules --------------------------------------------------

# mcp__server (every tool of that server), mcp__server__* and mcp__server__tool.
_mcp_glob(rule) := g if {
	startswith(rule, "mcp__")
	count(split(rule, "__")) == 2
	g := _cmd_glob(concat("", [rule, "__*"]))
}

_mcp_glob(rule) := _cmd_glob(rule) if {
	startswith(rule, "mcp__")
	count(split(rule, "__")) > 2
}

# mcp_server(rule) is the server a mcp__ rule names.
mcp_server(rule) := split(rule, "__")[1] if startswith(rule, "mcp__")

# --- matching ---------------------------------------------------------------------

# matches(rule, action): the permission rule covers the action, a command line
# or an MCP tool name mcp__server__tool. No delimiters: * spans everything.
matches(rule, action) if {
	not startswith(action, "mcp__")
	glob.match(shell_glob(rule), null, action)
}

# A Claude pattern whose only wildcard is a trailing " *" matches the bare
# command too: Bash(git push *) holds back a plain git push.
matches(rule, action) if {
	not startswith(action, "mcp__")
	some t in _claude_shells
	spec := _case(t, _spec(rule, t))
	endswith(spec, " *")
	count(indexof_n(spec, "*")) == 1
	action == trim_suffix(spec, " *")
}

matches(rule, action) if {
	startswith(action, "mcp__")
	glob.match(_mcp_glob(rule), null, action)
}

# held_back(a, action): some deny or ask rule in a's peers covers the action.
# Claude Code merges permission lists across files and checks deny, then ask,
# before allow, so either keeps a person in the loop.
held_back(a, action) if {
	some b in peers(a)
	some r in array.concat(object.get(b, "deny", []), object.get(b, "ask", []))
	is_string(r.value)
	matches(r.value, action)
}

# granted(a, rule, commands, literals, tools) is the set of actions an allow
# rule of agent a lets run without a prompt, less those a deny or ask rule
# holds back:
# - the command lines in commands that the rule matches;
# - the command the rule itself names (Bash(git push origin main)) when it
#   starts with one of literals[_].prefix and contains literals[_].contains;
# - the MCP tools in tools that the rule names, or every one of them when the
#   rule grants a whole server whose name says GitHub (mcp__github).
granted(a, rule, commands, literals, tools) := {x |
	some x in ((_cmd_hits(rule, commands) | _lit_hits(rule, literals)) | _mcp_hits(rule, tools))
	not held_back(a, x)
}

_cmd_hits(rule, commands) := {c | some c in commands; matches(rule, c)}

_lit_hits(rule, literals) := {l} if {
	l := shell_literal(rule)
	not contains(l, "--dry-run")
	some k in literals
	startswith(l, k.prefix)
	contains(l, k.contains)
} else := set()

_mcp_hits(rule, tools) := {c |
	server := mcp_server(rule)
	some t in tools
	c := sprintf("mcp__%s__%s", [server, t])
	matches(rule, c)
	_names_tool_or_github(rule, c, server)
}

_names_tool_or_github(rule, c, _) if rule == c

_names_tool_or_github(_, _, server) if contains(lower(server), "github")

# --- file read rules ----------------------------------------------------------------

# read_glob(rule) is the path glob of a Read rule; bare Read covers every file.
# "//x" is an absolute path, "./x" and "x" are relative to the project. Only *
# and ** stay wildcards, so a rule with a stray [ cannot make glob.match fail.
read_glob(rule) := "**" if rule == "Read"

read_glob(rule) := g if {
	spec := _spec(rule, "Read")
	g := _cmd_glob(_path_form(spec))
}

_path_form(p) := substring(p, 1, -1) if startswith(p, "//")

else := trim_prefix(p, "./")

# reads(rule, path): the Read rule covers path. "./" rules cover only
# project-relative paths.
reads(rule, path) if {
	g := read_glob(rule)
	_scope_ok(rule, path)
	glob.match(g, ["/"], path)
}

_scope_ok(rule, _) if not _project_only(rule)

_scope_ok(rule, path) if {
	_project_only(rule)
	not startswith(path, "/")
	not startswith(path, "~")
}

_project_only(rule) if startswith(_spec(rule, "Read"), "./")
