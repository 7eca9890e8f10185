package dockerfile

import (
	"path"
	"strings"
)

// fetchers download content to stdout; interpreters execute what they read.
var (
	fetchers = map[string]bool{
		"curl": true, "wget": true, "fetch": true,
		"iwr": true, "irm": true, "invoke-webrequest": true, "invoke-restmethod": true,
	}
	interpreters = map[string]bool{
		"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "ash": true, "fish": true,
		"perl": true, "ruby": true, "node": true, "php": true, "pwsh": true, "powershell": true,
		"iex": true, "invoke-expression": true,
	}
	// wrappers run the command named after them (and their own options).
	wrappers = map[string]bool{"sudo": true, "env": true, "exec": true, "time": true, "nohup": true, "command": true, "doas": true}
)

func isShell(name string) bool {
	switch name {
	case "sh", "bash", "zsh", "dash", "ksh", "ash":
		return true
	}
	return false
}

func isInterpreter(name string) bool {
	name = strings.ToLower(name)
	return interpreters[name] || strings.HasPrefix(name, "python")
}

// segment is one simple command of a shell list, with the operator that
// joined it to the previous one ("|" inside a pipeline).
type segment struct {
	text   string
	piped  bool // joined to the previous segment by a pipe
	start  int
	finish int
}

// pipeToShell returns the pipelines of a shell script that feed a
// downloader's output to an interpreter, as written, plus interpreters
// running a downloaded script through $(…), `…` or <(…).
func pipeToShell(script string) []string {
	var out []string
	segs := split(script)
	for i := 0; i < len(segs); {
		j := i + 1
		for j < len(segs) && segs[j].piped {
			j++
		}
		if hit := pipelineHit(segs[i:j]); hit {
			out = append(out, strings.TrimSpace(script[segs[i].start:segs[j-1].finish]))
		}
		i = j
	}
	return out
}

func pipelineHit(p []segment) bool {
	fetched := false
	for _, s := range p {
		name := commandName(s.text)
		if isInterpreter(name) && (fetched || substitutesFetch(s.text)) {
			return true
		}
		if fetchers[strings.ToLower(name)] {
			fetched = true
		}
	}
	return false
}

// substitutesFetch reports whether an interpreter's arguments run a
// downloader inside a command or process substitution:
// sh -c "$(curl -fsSL …)", bash <(wget -qO- …).
func substitutesFetch(text string) bool {
	for _, open := range []string{"$(", "<(", "`"} {
		for rest := text; ; {
			i := strings.Index(rest, open)
			if i < 0 {
				break
			}
			rest = rest[i+len(open):]
			if fetchers[strings.ToLower(commandName(rest))] {
				return true
			}
		}
	}
	return false
}

// commandName is the program a simple command runs, past variable
// assignments and wrappers such as sudo or env, without its directory.
func commandName(text string) string {
	words := strings.Fields(text)
	skipOpts, skipArg := false, false
	for _, w := range words {
		w = strings.Trim(w, `"'(){}`)
		switch {
		case skipArg:
			skipArg = false
			continue
		case w == "" || w == "!":
			continue
		case strings.HasPrefix(w, "-") && skipOpts:
			// sudo -u user, env -u NAME: the option's argument is no command.
			skipArg = w == "-u" || w == "-g" || w == "--user" || w == "--group" || w == "--unset"
			continue
		case strings.Contains(w, "=") && !strings.HasPrefix(w, "="):
			continue // VAR=value prefix
		}
		base := path.Base(w)
		if wrappers[base] {
			skipOpts = true
			continue
		}
		return base
	}
	return ""
}

// split cuts a shell script into simple commands at unquoted operators
// (|, ||, &&, ;, &, newline), outside quotes and $( ) / <( ) groups, so an
// operator inside sh -c "…" or a substitution does not split its command.
func split(s string) []segment {
	var segs []segment
	// groups holds, per open parenthesis, whether it is a substitution
	// ($( … ), <( … ), >( … )); depth counts those still open. A plain
	// ( subshell ) is split like the top level.
	var groups []bool
	start, depth := 0, 0
	var quote byte
	piped := false
	emit := func(end, next int, nextPiped bool) {
		if t := strings.TrimSpace(s[start:end]); t != "" {
			segs = append(segs, segment{text: t, piped: piped, start: start, finish: end})
			piped = nextPiped
		} else {
			piped = piped || nextPiped
		}
		start = next
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' && quote == '"' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '\\':
			i++
		case c == '\'' || c == '"' || c == '`':
			quote = c
		case c == '(':
			subst := depth > 0 || (i > 0 && strings.IndexByte("$<>", s[i-1]) >= 0)
			groups = append(groups, subst)
			if subst {
				depth++
			}
		case c == ')':
			if n := len(groups); n > 0 {
				if groups[n-1] {
					depth--
				}
				groups = groups[:n-1]
			}
		case depth > 0:
		case c == '|' && i+1 < len(s) && s[i+1] == '|', c == '&' && i+1 < len(s) && s[i+1] == '&':
			emit(i, i+2, false)
			i++
		case c == '|':
			next := i + 1
			if next < len(s) && s[next] == '&' {
				next++
			}
			emit(i, next, true)
			i = next - 1
		case c == ';' || c == '\n' || (c == '&' && (i == 0 || s[i-1] != '>') && (i+1 >= len(s) || s[i+1] != '>')):
			emit(i, i+1, false)
		}
	}
	emit(len(s), len(s), false)
	return segs
}
