// Package baseimage knows what some widely used base images set up for
// their non-root user, which the configuration that uses them does not
// repeat: the Dev Containers images (mcr.microsoft.com/devcontainers/*)
// are built with the common-utils feature, which gives that user
// passwordless sudo for every command.
package baseimage

import (
	"strings"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// devcontainerUsers maps a Dev Containers image name to its non-root user;
// every other image of the family uses vscode.
var devcontainerUsers = map[string]string{
	"javascript-node": "node",
	"typescript-node": "node",
	"universal":       "codespace",
}

// DevcontainerUser returns the non-root user of a Dev Containers image
// (mcr.microsoft.com/devcontainers/<name>, or the older
// mcr.microsoft.com/vscode/devcontainers/<name>), and whether ref is one.
func DevcontainerUser(ref string) (string, bool) {
	r := strings.ToLower(strings.TrimSpace(ref))
	var name string
	switch {
	case strings.HasPrefix(r, "mcr.microsoft.com/devcontainers/"):
		name = strings.TrimPrefix(r, "mcr.microsoft.com/devcontainers/")
	case strings.HasPrefix(r, "mcr.microsoft.com/vscode/devcontainers/"):
		name = strings.TrimPrefix(r, "mcr.microsoft.com/vscode/devcontainers/")
	default:
		return "", false
	}
	name = strings.SplitN(strings.SplitN(name, "@", 2)[0], ":", 2)[0]
	if name == "" {
		return "", false
	}
	if u, ok := devcontainerUsers[name]; ok {
		return u, true
	}
	return "vscode", true
}

// Sudo is the grant a Dev Containers image gives its user, when user is
// that user; nil otherwise.
func Sudo(ref, user string, loc model.Loc) *model.SudoRule {
	u, ok := DevcontainerUser(ref)
	if !ok || user != u {
		return nil
	}
	return &model.SudoRule{
		Who: u, RunAs: "(root)", NoPasswd: true, Commands: []string{"ALL"},
		Via: "image " + strings.SplitN(ref, "@", 2)[0] + " (common-utils: passwordless sudo for its user)", Loc: loc,
	}
}
