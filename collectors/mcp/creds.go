package mcp

import (
	"regexp"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

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
	return secrets.Authorization(literal)
}
