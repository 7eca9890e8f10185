# Part of package lib.agent: what a shell allow rule lets the agent do when
# the command it names takes arbitrary code, another command, a container
# runtime or a file path as its argument. A rule is judged by the command
# it names and whether it ends in a wildcard: Bash(python3:*) lets any
# Python run, Bash(python3 -m pytest:*) only pytest; Bash(npm test:*) runs
# the project's test script (scoped, like every build entry point); bare
# Bash and Bash(*) run anything.
package lib.agent

# Interpreters run any code given with -c/-e or from a file the agent
# writes; with options only (python3 -u:*) they stay open.
interpreters := {
	"sh", "bash", "zsh", "dash", "ksh", "fish", "csh", "tcsh", "ash", "busybox", "pwsh", "powershell", "cmd",
	"python", "python2", "python3", "pypy", "pypy3", "node", "nodejs", "deno", "bun", "ruby", "irb", "perl", "php",
	"lua", "luajit", "tclsh", "wish", "expect", "osascript", "Rscript", "julia", "awk", "gawk", "mawk", "nawk",
	"groovy", "jshell", "scala", "elixir", "erl", "ghci", "swift",
	# Windows: wmic process call create runs any command line
	"wmic",
	# macOS: launchctl submit -- runs any program, as a launch agent that
	# outlives the session
	"launchctl",
}

# Wrappers run the command that follows them (and their own options).
wrappers := {
	"env", "xargs", "exec", "eval", "command", "builtin", "nohup", "nice", "ionice", "timeout", "time", "stdbuf",
	"setsid", "watch", "strace", "ltrace", "script", "flock", "chrt", "taskset", "unbuffer", "parallel",
	"sudo", "doas", "su", "runuser", "chroot", "nsenter", "unshare", "systemd-run", "caffeinate", "sshpass",
	# PowerShell: a string run as code, a program started, a block run elsewhere
	"invoke-expression", "iex", "start-process", "saps", "invoke-command", "icm", "start-job",
}

# Runners whose next word is another command: uv run python … runs Python.
command_runners := {
	"uv run", "uv tool run", "poetry run", "pdm run", "hatch run", "rye run", "conda run", "mamba run",
	"micromamba run", "pixi run", "pipenv run", "mise exec", "mise x", "asdf exec", "devbox run", "nix-shell --run",
	"bundle exec", "npm exec", "npm x", "pnpm exec", "yarn exec",
}

# Runners whose next word is a package they download and run.
package_runners := {"npx", "bunx", "pnpx", "uvx", "pipx run", "pnpm dlx", "yarn dlx", "bun x", "nix run", "go run", "deno run", "gem exec"}

# Container runtimes and remote shells: their subcommands that start or
# enter containers (or hosts) the sandbox does not confine.
runtimes := {"docker", "podman", "nerdctl", "finch"}

runtime_escapes := {"run", "create", "exec", "start", "compose", "container", "cp", "buildx", "build", "context", "plugin", "service", "stack", "swarm", "attach", "commit", "load", "import", "update"}

compose_quiet := {"ps", "logs", "config", "ls", "images", "top", "version", "port"}

container_quiet := {"ls", "list", "ps", "logs", "inspect", "top", "port", "stats", "diff"}

clusters := {"kubectl", "oc", "k3s", "microk8s"}

cluster_escapes := {"exec", "run", "apply", "create", "debug", "cp", "attach", "patch", "replace", "edit", "port-forward", "proxy", "set", "scale", "rollout", "delete", "label", "annotate", "auth", "plugin", "kustomize"}

remote_shells := {"ssh", "mosh", "telnet"}

# Readers print the files named after them: with a wildcard, ~/.aws or .env too.
readers := {
	"cat", "head", "tail", "less", "more", "bat", "batcat", "tac", "nl", "strings", "xxd", "hexdump", "od",
	"base64", "grep", "egrep", "fgrep", "rg", "ag", "ack", "jq", "yq", "cut", "sort", "uniq", "diff", "cp", "sed", "column", "pr", "fold", "rev",
	# PowerShell's, with their aliases
	"get-content", "gc", "select-string", "sls", "copy-item", "cpi", "format-hex", "import-csv",
	# Windows cmd's
	"findstr",
}

# _lead(rule) is a cheap test that spares the rules below most allow rules
# (git, npm test, ls…), whose program takes no code or command: the program
# a rule names must be one worth a closer look, and for a runner named by
# two words (npm exec) the second word must be its own or absent.
# Only the allow rules of input.agents are looked at (worked out once, for
# every rule that asks).
_lead(rule) if rule in {v | some [i, j] in lead_allows; v := agents[i].allow[j].value}

# lead_allows are the allow rules of the scan worth a closer look, as
# [agent index, rule index]: the rules below visit only these.
lead_allows contains [i, j] if {
	some i, a in agents
	some j, r in object.get(a, "allow", [])
	is_string(r.value)
	regex.match(lead_re, r.value)
	_leads(r.value)
}

# lead_re is a quick first test: a shell rule whose program, after any
# VAR=value, is one of the leads or runner heads, or a bare shell rule.
# (No program name holds a character special to a regular expression.)
lead_re := sprintf(`^(?:Bash|PowerShell|bash|run_shell_command|ShellTool|Shell)(?:$|\(\s*(?:\*+|:\*)?\s*\)$|\(\s*(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*(?:\S*/)?(?i:%s)(?:\.exe)?(?:[\s:*)]|$))`, [concat("|", [w | some w in leads | object.keys(runner_heads); w != "*"])])

_leads(rule) if {
	ws := _lead_words(rule)
	_base(ws[0]) in leads
}

_leads(rule) if {
	ws := _lead_words(rule)
	heads := runner_heads[_base(ws[0])]
	_second_open(ws, heads)
}

_lead_words(rule) := ws if {
	ws := [w | some w in split(shell_literal(rule), " "); w != ""; not _assignment(w)]
	count(ws) > 0
} else := ["*"] if shell_glob(rule) == "*"

_second_open(ws, _) if count(ws) == 1

_second_open(ws, heads) if ws[1] in heads

_second_open(ws, _) if startswith(ws[1], "-")

# net_clients send what they are given to any host they are told.
# PowerShell's (in lower case, as its rules are judged) too.
net_clients := {
	"curl", "wget", "http", "https", "xh", "nc", "ncat", "netcat", "socat", "aria2c",
	"invoke-webrequest", "iwr", "invoke-restmethod", "irm", "start-bitstransfer",
}

# net_allows are the allow rules that name a network client, found by a
# cheap pre-test of their own (not leads: the other rules need not visit
# them).
net_allows contains [i, j] if {
	some i, a in agents
	some j, r in object.get(a, "allow", [])
	is_string(r.value)
	regex.match(net_re, r.value)
}

net_re := sprintf(`^(?:Bash|PowerShell|bash|run_shell_command|ShellTool|Shell)\(\s*(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*(?:\S*/)?(?i:%s)(?:\.exe)?(?:[\s:*)]|$)`, [concat("|", net_clients)])

# leads are the programs worth a closer look on their own.
leads := (((((interpreters | wrappers) | runtimes) | clusters) | remote_shells) | readers) | {"find", "printenv", "gh", "*"} | {p | some p in package_runners; not contains(p, " ")}

# runner_heads maps the first word of a two-word runner to its second
# words (a literal, for speed; a test checks it against the runner lists).
runner_heads := {
	"uv": {"run", "tool"}, "poetry": {"run"}, "pdm": {"run"}, "hatch": {"run"}, "rye": {"run"},
	"conda": {"run"}, "mamba": {"run"}, "micromamba": {"run"}, "pixi": {"run"}, "pipenv": {"run"},
	"mise": {"exec", "x"}, "asdf": {"exec"}, "devbox": {"run"}, "nix-shell": {"--run"}, "bundle": {"exec"},
	"npm": {"exec", "x"}, "pnpm": {"exec", "dlx"}, "yarn": {"exec", "dlx"}, "pipx": {"run"}, "bun": {"x"},
	"nix": {"run"}, "go": {"run"}, "deno": {"run"}, "gem": {"exec"},
	# not a runner: git config and git -c set the programs git runs next
	"git": {"config", "-c"},
}

# words(rule) are the words of the command a shell rule names, without
# leading VAR=value assignments.
command_words(rule) := ws if {
	all := [w | some w in split(shell_literal(rule), " "); w != ""]
	first := [i | some i, w in all; not _assignment(w)]
	count(first) > 0
	ws := array.slice(all, first[0], count(all))
}

_assignment(w) if {
	contains(w, "=")
	not startswith(w, "-")
	not startswith(w, "=")
}

# open_ended(rule): the rule lets any words follow the command it names.
open_ended(rule) if shell_glob(rule) == "*"

open_ended(rule) if {
	l := shell_literal(rule)
	matches(rule, concat("", [l, " __sandbox_audit_probe__"]))
}

# base(w) is _base(w), for the rules.
base(w) := _base(w)

# _base: the program a word names, without its folder or a Windows .exe
# (powershell.exe, cmd.exe).
_base(w) := b if {
	parts := split(w, "/")
	b := trim_suffix(parts[count(parts) - 1], ".exe")
}

_options_only(ws) if every w in ws {
	startswith(w, "-")
}

# _starts(ws, prefix): the words begin with the words of prefix.
_starts(ws, prefix) if {
	ps := split(prefix, " ")
	count(ws) >= count(ps)
	every i, p in ps {
		_word(ws, i) == p
	}
}

_word(ws, 0) := _base(ws[0])

_word(ws, i) := ws[i] if i > 0

# core_words(ws) are the words of the command that really runs, past up
# to three wrappers or command runners (sudo timeout 60 uv run python…);
# empty when nothing but options follows them.
core_words(ws) := _strip(_strip(_strip(ws)))

_strip(ws) := array.slice(ws, _skip(ws, 1), count(ws)) if {
	count(ws) > 0
	_base(ws[0]) in wrappers
} else := array.slice(ws, _skip(ws, count(split(p, " "))), count(ws)) if {
	some p in command_runners
	_starts(ws, p)
} else := ws

# _skip is the index of the first word from "from" on that is not an
# argument of the wrapper; count(ws) when there is none.
_skip(ws, from) := min({j | some j, w in ws; j >= from; not _wrapper_arg(w)} | {count(ws)})

_via(ws, core) := sprintf(" (through %s)", [_base(ws[0])]) if count(ws) != count(core)

else := ""

# exec_reason(rule) says why an open-ended allow rule runs arbitrary code;
# undefined when it is scoped.
exec_reason(rule) := "it matches every command" if shell_glob(rule) == "*"

else := r if {
	_lead(rule)
	open_ended(rule)
	ws := command_words(rule)
	core := core_words(ws)
	r := _exec(ws, core)
}

_exec(ws, core) := sprintf("%s runs any command after it", [_base(ws[0])]) if count(core) == 0

else := sprintf("%s runs any code it is given%s", [_base(core[0]), _via(ws, core)]) if {
	_base(core[0]) in interpreters
	_options_only(array.slice(core, 1, count(core)))
	not _inert(core)
}

else := sprintf("%s runs any code it is given%s", [_base(core[0]), _via(ws, core)]) if {
	_base(core[0]) in interpreters
	_open_code(core)
}

else := sprintf("%s covers %s, which runs any command or package%s", [concat(" ", core), p, _via(ws, core)]) if {
	p := _runner_prefix(core)
}

else := sprintf("find runs any command through -exec%s", [_via(ws, core)]) if {
	_base(core[0]) == "find"
}

else := sprintf("git config sets core.fsmonitor, core.sshCommand or an alias, which the next git command runs (agents run git status themselves)%s", [_via(ws, core)]) if {
	_git_config(core)
}

else := sprintf("%s runs any package it is given%s", [p, _via(ws, core)]) if {
	some p in package_runners
	_starts(core, p)
	_options_only(array.slice(core, count(split(p, " ")), count(core)))
}

# _git_config(core): git config (or git -c) with any key and value: a
# program-naming key is one of them.
_git_config(core) if {
	_base(core[0]) == "git"
	count(core) == 1 # git:* covers git config
}

_git_config(core) if {
	_base(core[0]) == "git"
	count(core) > 1
	core[1] in {"config", "-c"}
	_options_only(array.slice(core, 2, count(core)))
}

# _runner_prefix(core) is the runner a rule's command is the start of:
# Bash(npm:*) covers npm exec, Bash(uv:*) covers uv run.
_runner_prefix(core) := min(ps) if {
	ps := {p |
		some p in command_runners | package_runners
		words := split(p, " ")
		count(words) > count(core)
		every i, _ in core {
			_word(core, i) == words[i]
		}
		not startswith(words[count(core)], "-")
	}
	count(ps) > 0
}

# Options after which an interpreter only reports (its version, help) or,
# for node, checks syntax without running anything.
inert_flags := {"--version", "-V", "--help", "-h"}

node_inert := {"--check", "-c", "-v"}

_inert(ws) if {
	some w in array.slice(ws, 1, count(ws))
	w in inert_flags
}

_inert(ws) if {
	_base(ws[0]) in {"node", "nodejs"}
	some w in array.slice(ws, 1, count(ws))
	w in node_inert
}

# Options that take the program text itself.
code_flags := {"-c", "-e", "-E", "--eval", "-p", "--print", "-r", "--command", "-Command"}

# _open_code(ws): a code option whose program text the wildcard completes:
# nothing after it (python3 -c:*), or a quote left open (python -c ' *).
_open_code(ws) if {
	some i, w in ws
	_code_flag(ws, w)
	i == count(ws) - 1
}

_open_code(ws) if {
	some i, w in ws
	_code_flag(ws, w)
	rest := concat(" ", array.slice(ws, i + 1, count(ws)))
	_unbalanced(rest)
}

_code_flag(ws, w) if {
	w in code_flags
	not _node_check(ws, w)
}

_node_check(ws, "-c") if _base(ws[0]) in {"node", "nodejs"}

_unbalanced(s) if count(regex.find_n(`'`, s, -1)) % 2 == 1

_unbalanced(s) if count(regex.find_n(`"`, s, -1)) % 2 == 1

# Words of a wrapper that are not the command it runs: options, numbers
# and durations (timeout 60), assignments (env A=1), placeholders ({}).
_wrapper_arg(w) if startswith(w, "-")

_wrapper_arg(w) if regex.match(`^[0-9.]+[smhd]?$`, w)

_wrapper_arg(w) if _assignment(w)

_wrapper_arg("{}")

# escape_reason(rule) says how an open-ended allow rule reaches past the
# sandbox: containers it starts or enters, the cluster, other hosts.
escape_reason(rule) := r if {
	_lead(rule)
	open_ended(rule)
	shell_glob(rule) != "*"
	ws := command_words(rule)
	core := core_words(ws)
	count(core) > 0
	r := _escape(core)
}

_escape(ws) := sprintf("%s starts and enters containers, which can mount the host and outlive the task", [_base(ws[0])]) if {
	_base(ws[0]) in runtimes
	_runtime_open(array.slice(ws, 1, count(ws)))
}

else := sprintf("%s runs code in the cluster and changes it", [_base(ws[0])]) if {
	_base(ws[0]) in clusters
	sub := [w | some w in array.slice(ws, 1, count(ws)); not startswith(w, "-")]
	_cluster_open(sub)
}

else := sprintf("%s runs commands on any host the agent's keys reach", [_base(ws[0])]) if {
	_base(ws[0]) in remote_shells
}

_runtime_open(rest) if {
	sub := _runtime_words(rest)
	count(sub) == 0
	not _prints_and_exits(rest)
}

# _runtime_words: the subcommand words after docker's global options and
# their values (docker -H tcp://host:2375 run: run).
_runtime_words(rest) := [w | some i, w in rest; not startswith(w, "-"); not _option_value(rest, i)]

_runtime_value_options := {"-H", "--host", "-c", "--context", "--config", "-l", "--log-level", "--tlscacert", "--tlscert", "--tlskey"}

_option_value(rest, i) if {
	i > 0
	rest[i - 1] in _runtime_value_options
}

# docker --version (-v, --help) prints and exits, whatever follows.
_prints_and_exits(rest) if {
	count(rest) > 0
	rest[0] in {"--version", "-v", "--help", "-h"}
}

_runtime_open(rest) if {
	sub := _runtime_words(rest)
	sub[0] in runtime_escapes
	not _runtime_scoped(sub)
}

_runtime_scoped(sub) if {
	sub[0] == "compose"
	count(sub) > 1
	sub[1] in compose_quiet
}

# docker context ls/inspect/show only read the contexts.
_runtime_scoped(sub) if {
	sub[0] == "context"
	count(sub) > 1
	sub[1] in {"ls", "list", "inspect", "show"}
}

_runtime_scoped(sub) if {
	sub[0] == "container"
	count(sub) > 1
	sub[1] in container_quiet
}

_cluster_open(sub) if count(sub) == 0

_cluster_open(sub) if sub[0] in cluster_escapes

# read_command(rule) is the command of an open-ended allow rule that prints
# any file or secret it is pointed at; undefined otherwise.
read_command(rule) := c if {
	_lead(rule)
	open_ended(rule)
	shell_glob(rule) != "*"
	ws := core_words(command_words(rule))
	count(ws) > 0
	c := _base(ws[0])
	c in readers
}

read_command(rule) := "printenv" if {
	_lead(rule)
	open_ended(rule)
	ws := core_words(command_words(rule))
	count(ws) > 0
	_base(ws[0]) == "printenv"
}

# env or printenv with no command or name after it prints the whole
# environment: bare, open-ended (Bash(env:*), Bash(env *), bash(env*)) or
# with options only.
read_command(rule) := "printenv" if {
	_lead(rule)
	prints_environment(rule)
}

# prints_environment(rule): the rule allows env or printenv with nothing
# but options (env -i, which empties the environment, aside), which prints
# every variable, secrets included.
prints_environment(rule) if {
	is_string(rule)
	ws := command_words(rule)
	_base(ws[0]) in {"env", "printenv"}
	rest := array.slice(ws, 1, count(ws))
	_options_only(rest)
	not _empties_env(rest)
}

_empties_env(ws) if {
	some w in ws
	w in {"-i", "--ignore-environment", "-"}
}

# gh auth token prints the GitHub CLI's token (Bash(gh:*), Bash(gh auth:*)).
read_command(rule) := "gh auth token" if {
	_lead(rule)
	ws := core_words(command_words(rule))
	count(ws) > 0
	_base(ws[0]) == "gh"
	matches(rule, "gh auth token")
}

read_command(rule) := "kubectl get" if {
	_lead(rule)
	open_ended(rule)
	ws := core_words(command_words(rule))
	count(ws) > 0
	_base(ws[0]) in clusters
	sub := [w | some w in array.slice(ws, 1, count(ws)); not startswith(w, "-")]
	count(sub) > 0
	sub[0] == "get"
}

# exec_held_back(a, rule): deny or ask rules cover whatever the allow rule
# grants, tested with two commands it allows: one with arbitrary words
# after it, one with -c. A deny for one form only (Bash(python -c:*))
# leaves the other (python x.py) open.
exec_held_back(a, rule) if {
	shell_glob(rule) == "*"
	every p in ["sh -c __probe__", "python3 -c __probe__", "docker run __probe__"] {
		held_back(a, p)
	}
}

exec_held_back(a, rule) if {
	shell_glob(rule) != "*"
	l := shell_literal(rule)
	every p in [concat("", [l, " __sandbox_audit_probe__"]), concat("", [l, " -c __sandbox_audit_probe__"])] {
		held_back(a, p)
	}
}

# shell_rule(rule): a rule of a shell tool (Bash, run_shell_command,
# ShellTool, Shell), bare or with a command.
shell_rule(rule) if shell_glob(rule)

# unprompted(a): the agent's approval mode still prompts for commands an
# allow rule does not cover (bypass is reported on its own) and its
# command sandbox is not on.
unprompted(a) if {
	not _bypass(a)
	not _sandboxed(a)
}

# Helper rules: `not f(x).value == v` is undefined, not true, when f(x) is.
_bypass(a) if effective(a, "approval_mode").value == "bypass"

_sandboxed(a) if effective(a, "sandbox_enabled").value == true

# excluded(a, rule): the sandbox runs the rule's command outside itself.
excluded(a, rule) if {
	some b in peers(a)
	some c in object.get(b, "excluded_commands", [])
	ws := core_words(command_words(rule))
	count(ws) > 0
	ex := trim_space(trim_suffix(trim_suffix(c.value, "*"), ":"))
	ex != ""
	startswith(concat(" ", array.concat([_base(ws[0])], array.slice(ws, 1, count(ws)))), ex)
}

# unconfined(a, rule): the command the rule grants runs without a prompt and
# outside any command sandbox.
unconfined(a, _) if unprompted(a)

unconfined(a, rule) if {
	not _bypass(a)
	_sandboxed(a)
	excluded(a, rule)
}
