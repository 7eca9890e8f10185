package mcp

import (
	"regexp"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/collectors/codex/mcpcmd"
	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

func marker(r *model.SecretRef) string {
	return "[REDACTED:" + r.Kind + ":" + r.Fingerprint + "]"
}

// refRE matches the references MCP clients expand: ${VAR}, ${env:VAR},
// ${input:id} (VS Code prompts), ${VAR:-default} (Claude Code). A bare $VAR
// is not expanded by any of them: it reaches the server as written.
var refRE = regexp.MustCompile(`\$\{(env:|input:|config:|command:)?([^}:]*)(?::-([^}]*))?\}`)

// references returns the first variable value refers to, as FromHost wants
// it ("GITHUB_TOKEN", "input:token"), and value with every reference
// replaced by its default: a literal default is as much a secret as a
// literal value.
func references(value string) (first, literal string) {
	literal = refRE.ReplaceAllStringFunc(value, func(m string) string {
		g := refRE.FindStringSubmatch(m)
		name := g[2]
		if g[1] == "input:" {
			name = "input:" + g[2]
		}
		if first == "" {
			first = name
		}
		return g[3]
	})
	return first, literal
}

// classify tells whether a named value holds a literal secret, looking past
// references, and which host variable it forwards otherwise.
func classify(name, value string) (*model.SecretRef, string) {
	ref, literal := references(value)
	if strings.TrimSpace(literal) == "" {
		return nil, ref
	}
	if r := secrets.DetectNamed(name, literal); r != nil {
		return r, ""
	}
	return nil, ref
}

// headerSecret classifies an HTTP header value. Any literal credential in
// Authorization counts, whatever its format: it is sent on every request.
func headerSecret(name, value string) *model.SecretRef {
	if !strings.EqualFold(name, "authorization") {
		r, _ := classify(name, value)
		return r
	}
	_, literal := references(value)
	return mcpcmd.AuthorizationSecret(literal)
}

// found is a literal secret in args or a URL, with what held it.
type found struct {
	ref  model.SecretRef
	what string // flag, variable or query key
}

var envArg = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

// splitArg names the value an argument carries: --flag=VALUE, -e KEY=VALUE,
// KEY=VALUE, or the argument after a flag (--token VALUE).
func splitArg(a, prev string) (name, value string) {
	switch {
	case strings.HasPrefix(a, "-") && strings.Contains(a, "="):
		name, value, _ = strings.Cut(a, "=")
		if (name == "-e" || name == "--env") && envArg.MatchString(value) {
			name, value, _ = strings.Cut(value, "=")
		}
	case (prev == "-e" || prev == "--env") && envArg.MatchString(a):
		name, value, _ = strings.Cut(a, "=")
	case prev != "" && !strings.HasPrefix(a, "-"):
		name, value = prev, a
	case envArg.MatchString(a):
		name, value, _ = strings.Cut(a, "=")
	}
	return strings.TrimLeft(name, "-"), value
}

// redactArgs replaces literal secrets in args: --token VALUE,
// --api-key=VALUE, -e KEY=VALUE, KEY=VALUE, --header "Authorization: …",
// secrets inside URLs and any known token format.
func redactArgs(args []string) ([]string, []found) {
	out := make([]string, len(args))
	var finds []found
	prev := ""
	for i, a := range args {
		name, value := splitArg(a, prev)
		prefix := a[:len(a)-len(value)]
		var r *model.SecretRef
		switch {
		case (name == "header" || name == "H") && strings.Contains(value, ":"):
			h, v, _ := strings.Cut(value, ":")
			r = headerSecret(strings.TrimSpace(h), strings.TrimSpace(v))
		case name != "" && !strings.Contains(value, "://"):
			r, _ = classify(name, value)
		}
		switch {
		case r != nil:
			finds = append(finds, found{*r, name})
			out[i] = prefix + marker(r)
		case strings.Contains(value, "://"):
			red, fs := redactURL(value)
			out[i], finds = prefix+red, append(finds, fs...)
		case strings.Contains(a, "://"):
			red, fs := redactURL(a)
			out[i], finds = red, append(finds, fs...)
		default:
			for _, m := range secrets.Scan(a) {
				finds = append(finds, found{m.SecretRef, name})
			}
			out[i] = secrets.Redact(a)
		}
		prev = ""
		if strings.HasPrefix(a, "-") && !strings.Contains(a, "=") {
			prev = a
		}
	}
	return out, finds
}
