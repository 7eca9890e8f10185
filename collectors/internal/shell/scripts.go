package shell

import (
	"path"
	"slices"
	"strings"
)

// systemDirs hold installed programs, not scripts of the repository.
var systemDirs = []string{"/bin/", "/sbin/", "/usr/bin/", "/usr/sbin/"}

// Scripts lists the script files a command line runs: a path run directly
// (./x.sh, /usr/local/bin/init-firewall.sh, sudo x.sh), a script given to a
// shell (bash x.sh, sh -e x.sh) or sourced (. x.sh, source x.sh). Paths
// are returned as written; a command that does not parse gives none.
func Scripts(text string) []string {
	scripts, _ := ScriptRuns(text)
	return scripts
}

// ScriptRuns is Scripts, with the scripts run through sudo or doas listed
// apart as well.
func ScriptRuns(text string) (scripts, sudo []string) {
	calls, err := Calls([]byte(text), 1)
	if err != nil {
		return nil, nil
	}
	return ScriptsOf(calls)
}

// ContainerScripts is ScriptRuns for a container's command: only the
// scripts named by an absolute path, where the image keeps them (a
// relative one is relative to a working directory not known here).
func ContainerScripts(text string) (scripts, sudo []string) {
	all, raised := ScriptRuns(text)
	abs := func(ps []string) []string {
		var out []string
		for _, p := range ps {
			if strings.HasPrefix(p, "/") {
				out = append(out, p)
			}
		}
		return out
	}
	return abs(all), abs(raised)
}

// ScriptsOf is ScriptRuns for commands already read.
func ScriptsOf(calls []Call) (scripts, sudo []string) {
	var out, raised []string
	seen := map[string]bool{}
	asRoot := false
	add := func(p string) {
		if p == "" {
			return
		}
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
		if asRoot && !slices.Contains(raised, p) {
			raised = append(raised, p)
		}
	}
	for _, c := range calls {
		args, viaSudo := Unwrap(c.Args)
		asRoot = viaSudo
		if len(args) == 0 {
			continue
		}
		cmd := args[0].Text
		if !args[0].Known {
			// "$DIR/init-firewall.sh": run directly from an unknown folder.
			if strings.HasSuffix(cmd, ".sh") || strings.HasSuffix(cmd, ".bash") {
				add(cmd)
			}
			continue
		}
		name := baseName(cmd)
		switch {
		case IsShell(name) || name == "source" || name == ".":
			add(shellScriptArg(args[1:]))
		case strings.Contains(cmd, "/") || strings.HasSuffix(cmd, ".sh") || strings.HasSuffix(cmd, ".bash"):
			if !inSystemDir(cmd) {
				add(path.Clean(cmd))
			}
		}
	}
	return out, raised
}

// shellScriptArg is the script operand of sh/bash: the first word that is
// not an option, unless -c makes the shell read a string instead.
func shellScriptArg(args []Arg) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case !a.Known && (strings.HasSuffix(a.Text, ".sh") || strings.HasSuffix(a.Text, ".bash")):
			// "$SCRIPT_DIR/warmup.sh": the directory is unknown, the name is not.
			return a.Text
		case !a.Known:
			return ""
		case a.Text == "-c" || (strings.HasPrefix(a.Text, "-") && !strings.HasPrefix(a.Text, "--") && strings.Contains(a.Text, "c")):
			return ""
		case a.Text == "-o" || a.Text == "+o" || a.Text == "-O" || a.Text == "+O":
			i++
		case strings.HasPrefix(a.Text, "-") || strings.HasPrefix(a.Text, "+"):
		default:
			return path.Clean(a.Text)
		}
	}
	return ""
}

func inSystemDir(p string) bool {
	for _, d := range systemDirs {
		if strings.HasPrefix(p, d) {
			return true
		}
	}
	return false
}

// RunsArgs is the line of the first command that runs the script's own
// arguments as a command (exec "$@", "$@", eval "$*"), 0 when none: such a
// script runs whatever its caller names, so a sudoers grant for it, with
// no arguments fixed, is a grant for every command.
func RunsArgs(calls []Call) int {
	own := func(a Arg) bool {
		return !a.Known && (a.Text == "$@" || a.Text == "$*")
	}
	for _, c := range calls {
		args, _ := Unwrap(c.Args)
		switch {
		case len(args) == 0:
		case own(args[0]):
			return c.Line
		case args[0].Known && args[0].Text == "eval" && len(args) > 1 && own(args[1]):
			return c.Line
		}
	}
	return 0
}
