package shell

import "strings"

// Drop is where a script hands its work to another user.
type Drop struct {
	User string // as written: node, "$USERNAME", 1000:1000
	Line int
}

// DropsTo finds the first command that runs what follows as another,
// non-root user: gosu USER, su-exec USER, runuser -u USER, setpriv
// --reuid USER, chpst -u USER, s6-setuidgid USER, su [-] USER -c …, sudo
// -u USER (an entrypoint that starts as root to set up and then drops);
// nil when none does.
func DropsTo(calls []Call) *Drop {
	for _, c := range calls {
		words := c.Texts()
		for len(words) > 0 && (words[0] == "exec" || words[0] == "command" || strings.Contains(words[0], "=") && !strings.HasPrefix(words[0], "-")) {
			words = words[1:]
		}
		if len(words) < 2 {
			continue
		}
		if u := dropUser(baseName(words[0]), words[1:]); u != "" && !rootName(u) {
			return &Drop{User: u, Line: c.Line}
		}
	}
	return nil
}

// dropUser is the user a privilege-dropping command switches to, "" when
// the command is none.
func dropUser(cmd string, args []string) string {
	switch cmd {
	case "gosu", "su-exec", "s6-setuidgid":
		return args[0]
	case "runuser", "chpst", "sudo":
		return optValue(args, "-u", "--user")
	case "setpriv":
		return optValue(args, "", "--reuid")
	case "su":
		// su [options] [-] USER [-c command]; options with a value: -c -s -g -G -w
		for i := 0; i < len(args); i++ {
			a := args[i]
			switch {
			case a == "-" || a == "-l" || a == "--login" || a == "-m" || a == "-p":
			case a == "-c" || a == "-s" || a == "-g" || a == "-G" || a == "-w" || a == "--command" || a == "--shell":
				i++
			case strings.HasPrefix(a, "-"):
			default:
				return a
			}
		}
	}
	return ""
}

// optValue is the value of an option written -u USER, -uUSER or
// --user=USER; "" when absent.
func optValue(args []string, short, long string) string {
	for i, a := range args {
		switch {
		case short != "" && a == short || long != "" && a == long:
			if i+1 < len(args) {
				return args[i+1]
			}
		case long != "" && strings.HasPrefix(a, long+"="):
			return strings.TrimPrefix(a, long+"=")
		case len(short) == 2 && len(a) > 2 && strings.HasPrefix(a, short) && !strings.HasPrefix(a, "--"):
			return a[2:]
		}
	}
	return ""
}

func rootName(u string) bool {
	name, _, _ := strings.Cut(strings.Trim(u, `"'`), ":")
	return name == "root" || name == "0"
}
