package shell

import "strings"

// wrapperValueOpts lists, per wrapper, the options that take a value in
// the next word, so the value is not mistaken for the command.
var wrapperValueOpts = map[string]map[string]bool{
	"sudo":    {"-u": true, "-g": true, "-h": true, "-p": true, "-C": true, "-D": true, "-r": true, "-t": true, "-U": true, "-T": true, "--user": true, "--group": true, "--chdir": true},
	"doas":    {"-u": true, "-C": true},
	"env":     {"-u": true, "--unset": true, "-C": true, "--chdir": true, "-S": true, "--split-string": true},
	"nice":    {"-n": true, "--adjustment": true},
	"ionice":  {"-c": true, "-n": true, "-p": true},
	"timeout": {"-s": true, "--signal": true, "-k": true, "--kill-after": true},
	"xargs":   {"-L": true, "-n": true, "-I": true, "-P": true, "-d": true, "-E": true, "-s": true, "-a": true, "--max-lines": true, "--max-args": true, "--max-procs": true, "--delimiter": true, "--arg-file": true},
	"stdbuf":  {"-i": true, "-o": true, "-e": true},
	"command": {}, "exec": {"-a": true}, "nohup": {}, "time": {}, "setsid": {}, "builtin": {},
}

func isWrapper(name string) bool {
	_, ok := wrapperValueOpts[name]
	return ok
}

// Unwrap drops the commands that only run the next one (sudo -E, env
// VAR=x, exec, nohup, nice -n 5, timeout 30, xargs -L 1, stdbuf -o0…)
// with their options, and returns the command that runs and whether sudo
// or doas raised it.
func Unwrap(args []Arg) (rest []Arg, sudo bool) {
	for len(args) > 0 && args[0].Known {
		name := baseName(args[0].Text)
		opts, ok := wrapperValueOpts[name]
		if !ok {
			break
		}
		sudo = sudo || name == "sudo" || name == "doas"
		args = args[1:]
		if name == "command" && len(args) > 0 && (args[0].Text == "-v" || args[0].Text == "-V") {
			return nil, false // command -v x looks x up; nothing runs
		}
		for len(args) > 0 {
			a := args[0].Text
			switch {
			case a == "--":
				args = args[1:]
			case strings.HasPrefix(a, "-") && len(a) > 1:
				args = args[1:]
				if opts[a] && len(args) > 0 {
					args = args[1:]
				}
				continue
			case (name == "env" || name == "sudo" || name == "doas") && strings.Contains(a, "=") && !strings.HasPrefix(a, "=") && !strings.HasPrefix(a, "/"):
				args = args[1:]
				continue
			case name == "timeout" && isDuration(a):
				args = args[1:]
			}
			break
		}
	}
	return args, sudo
}

func isDuration(s string) bool {
	s = strings.TrimRight(s, "smhd")
	if s == "" {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && c != '.' {
			return false
		}
	}
	return true
}
