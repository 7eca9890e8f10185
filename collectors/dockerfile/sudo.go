package dockerfile

import (
	"path"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/collectors/internal/shell"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// privileges reads, from the commands of one RUN, the sudoers lines they
// write (echo/printf > /etc/sudoers.d/x, … | tee /etc/sudoers.d/x, a
// here-document, sed -i on /etc/sudoers) and the group memberships they add.
func (b *builder) privileges(script string, loc model.Loc) {
	calls, err := shell.CallsWith([]byte(script), loc.Line, b.vars())
	if err != nil {
		return
	}
	st := b.cur()
	if st == nil {
		return
	}
	printed := "" // what the last echo/printf wrote, for a following tee
	for _, c := range calls {
		args, _ := shell.Unwrap(c.Args)
		if len(args) == 0 || !args[0].Known {
			continue
		}
		name := path.Base(args[0].Text)
		rest := texts(args[1:])
		var text string
		switch name {
		case "echo":
			text = echoText(rest)
			printed = text
		case "printf":
			text = printfText(rest)
			printed = text
		case "cat":
			if c.HasStdin {
				text = c.Stdin
			}
		case "tee":
			for _, a := range rest {
				if isSudoers(a) {
					st.sudoers = append(st.sudoers, parseSudoers(printed+"\n"+c.Stdin, loc)...)
				}
			}
		case "sed":
			if sudoersTarget(rest) {
				for _, a := range rest {
					if repl := sedReplacement(a); repl != "" {
						st.sudoers = append(st.sudoers, parseSudoers(repl, loc)...)
					}
				}
			}
		case "rm":
			for _, a := range rest {
				if a == "/etc/sudoers.d" || strings.HasPrefix(a, "/etc/sudoers.d/") {
					st.removed = append(st.removed, model.Str{Value: a, Loc: loc})
				}
			}
		case "apt-get", "apt", "apk", "dnf", "yum":
			if removesSudo(rest) {
				st.removed = append(st.removed, model.Str{Value: "sudo", Loc: loc})
			}
		case "usermod", "gpasswd", "adduser", "addgroup", "useradd":
			for _, g := range memberships(name, rest) {
				g.Loc = loc
				st.groups = append(st.groups, g)
			}
		}
		for _, o := range c.Out {
			if isSudoers(o) && text != "" {
				st.sudoers = append(st.sudoers, parseSudoers(text, loc)...)
			}
		}
	}
}

func texts(args []shell.Arg) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a.Text
	}
	return out
}

func isSudoers(p string) bool {
	return p == "/etc/sudoers" || strings.HasPrefix(p, "/etc/sudoers.d/")
}

func sudoersTarget(args []string) bool {
	for _, a := range args {
		if isSudoers(a) {
			return true
		}
	}
	return false
}

// echoText is what echo prints: its words, with -e escapes for newlines.
func echoText(args []string) string {
	escapes := false
	for len(args) > 0 && (args[0] == "-e" || args[0] == "-n" || args[0] == "-en" || args[0] == "-ne" || args[0] == "-E") {
		escapes = escapes || strings.Contains(args[0], "e")
		args = args[1:]
	}
	s := strings.Join(args, " ")
	if escapes {
		s = strings.ReplaceAll(s, `\n`, "\n")
	}
	return s
}

// printfText approximates printf: %s takes the next argument, \n is a newline.
func printfText(args []string) string {
	if len(args) == 0 {
		return ""
	}
	format, rest := args[0], args[1:]
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		switch {
		case format[i] == '%' && i+1 < len(format) && format[i+1] == 's':
			if len(rest) > 0 {
				b.WriteString(rest[0])
				rest = rest[1:]
			}
			i++
		case format[i] == '\\' && i+1 < len(format) && format[i+1] == 'n':
			b.WriteByte('\n')
			i++
		default:
			b.WriteByte(format[i])
		}
	}
	return b.String()
}

// sedReplacement returns the replacement of an s/pattern/replacement/
// expression, the line such an edit writes into sudoers.
func sedReplacement(expr string) string {
	if len(expr) < 4 || expr[0] != 's' {
		return ""
	}
	parts := strings.Split(expr[2:], expr[1:2])
	if len(parts) < 2 {
		return ""
	}
	return parts[1]
}

// parseSudoers reads user and group grants: "node ALL=(root) NOPASSWD:
// /usr/local/bin/init-firewall.sh", "%sudo ALL=(ALL:ALL) NOPASSWD:ALL".
// Defaults, aliases and include lines grant nothing themselves.
func parseSudoers(text string, loc model.Loc) []model.SudoRule {
	var out []model.SudoRule
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "@") || strings.HasPrefix(line, "Defaults") || strings.HasSuffix(strings.Fields(line)[0], "_Alias") {
			continue
		}
		who, rest, ok := strings.Cut(line, " ")
		if !ok {
			who, rest, ok = strings.Cut(line, "\t")
		}
		if !ok {
			continue
		}
		_, spec, ok := strings.Cut(rest, "=")
		if !ok {
			continue
		}
		spec = strings.TrimSpace(spec)
		r := model.SudoRule{Who: who, Via: "sudoers", Loc: loc}
		if strings.HasPrefix(spec, "(") {
			if end := strings.IndexByte(spec, ')'); end > 0 {
				r.RunAs = spec[:end+1]
				spec = strings.TrimSpace(spec[end+1:])
			}
		}
		for {
			tag, after, found := strings.Cut(spec, ":")
			tag = strings.TrimSpace(tag)
			if !found || !isTag(tag) {
				break
			}
			switch tag {
			case "NOPASSWD":
				r.NoPasswd = true
			case "SETENV":
				r.SetEnv = true
			}
			spec = strings.TrimSpace(after)
		}
		for _, c := range strings.Split(spec, ",") {
			if c = strings.TrimSpace(c); c != "" {
				r.Commands = append(r.Commands, c)
			}
		}
		if len(r.Commands) > 0 {
			out = append(out, r)
		}
	}
	return out
}

func isTag(t string) bool {
	switch t {
	case "NOPASSWD", "PASSWD", "SETENV", "NOSETENV", "EXEC", "NOEXEC", "LOG_INPUT", "NOLOG_INPUT", "LOG_OUTPUT", "NOLOG_OUTPUT", "MAIL", "NOMAIL", "FOLLOW", "NOFOLLOW", "INTERCEPT", "NOINTERCEPT":
		return true
	}
	return false
}

// memberships reads the group memberships a user-management command adds:
// usermod -aG a,b user, gpasswd -a user group, adduser/addgroup user group,
// useradd -G a,b user.
func memberships(cmd string, args []string) []model.UserGroup {
	var groups []string
	var positional []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-G" || a == "--groups":
			if i+1 < len(args) {
				i++
				groups = append(groups, strings.Split(args[i], ",")...)
			}
		case strings.HasPrefix(a, "-aG") || strings.HasPrefix(a, "-Ga"):
			v := a[3:]
			if v == "" && i+1 < len(args) {
				i++
				v = args[i]
			}
			groups = append(groups, strings.Split(v, ",")...)
		case cmd == "gpasswd" && (a == "-a" || a == "--add"):
			if i+1 < len(args) {
				i++
				positional = append(positional, args[i])
			}
		case a == "-a" || a == "--append":
		case strings.HasPrefix(a, "-"):
			if optTakesValue(a) && i+1 < len(args) {
				i++
			}
		default:
			positional = append(positional, a)
		}
	}
	var out []model.UserGroup
	switch cmd {
	case "usermod", "useradd":
		if len(positional) > 0 {
			for _, g := range groups {
				out = append(out, model.UserGroup{User: positional[len(positional)-1], Group: g})
			}
		}
	case "gpasswd", "adduser", "addgroup":
		if len(positional) == 2 {
			out = append(out, model.UserGroup{User: positional[0], Group: positional[1]})
		}
		for _, g := range groups { // adduser -G group user (BusyBox)
			if len(positional) > 0 {
				out = append(out, model.UserGroup{User: positional[len(positional)-1], Group: g})
			}
		}
	}
	return out
}

// optTakesValue lists the options of useradd/usermod/adduser that take a
// value in the next word.
func optTakesValue(opt string) bool {
	switch opt {
	case "-u", "--uid", "-g", "--gid", "-s", "--shell", "-d", "--home", "--home-dir", "-c", "--comment", "--gecos", "-k", "--skel", "-e", "--expiredate", "-f", "--inactive", "-l", "--login", "-p", "--password", "-K", "--key", "--ingroup", "-h", "-R", "--root", "-Z":
		return true
	}
	return false
}

// removesSudo reports a package-manager call that uninstalls sudo.
func removesSudo(args []string) bool {
	remove := false
	for _, a := range args {
		switch a {
		case "remove", "purge", "del", "erase", "autoremove":
			remove = true
		case "sudo":
			if remove {
				return true
			}
		}
	}
	return false
}
