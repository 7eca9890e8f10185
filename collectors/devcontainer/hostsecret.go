package devcontainer

import (
	"regexp"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
)

// hostSources are commands that print a credential of the machine they run
// on: the GitHub CLI's token, cloud CLIs' session tokens, password
// managers and keychains.
var hostSources = regexp.MustCompile(`\bgh auth token\b|\bgh auth status\b[^|;&]*(-t|--show-token)|\baws configure export-credentials\b|\baws sts get-session-token\b|\bgcloud auth (application-default )?print-access-token\b|\baz account get-access-token\b|\bop read\b|\bsecurity find-(generic|internet)-password\b[^|;&]*-w\b|\bdocker-credential-[a-z-]+ get\b`)

// hostFiles are credential files of the user's home a command may copy.
var hostFiles = regexp.MustCompile(`(?:~|\$\{?HOME\}?|\$\{localEnv:HOME\})/(\.config/gh/hosts\.yml|\.aws/credentials|\.npmrc|\.docker/config\.json|\.netrc|\.git-credentials|\.kube/config|\.ssh/id_[a-z0-9]+|\.config/gcloud/[^\s'"]*)`)

var envRef = regexp.MustCompile(`\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?`)

// workspaceDest is an output redirect or a cp/tee destination inside the
// workspace: a relative path or one under ${localWorkspaceFolder}.
var workspaceDest = regexp.MustCompile(`(?:>>?|\btee(?: -a)?|\bcp\b[^;&|]*\s)\s*["']?((?:\$\{localWorkspaceFolder\}|\.{1,2})?/?[A-Za-z0-9_.${}][^\s;&|'"]*)`)

// hostSecretWrite says what host credential an initializeCommand (run on
// the host, in the local folder) writes into the workspace the container
// mounts, and where: "gh auth token into .devcontainer/.env"; "" when it
// writes none.
func hostSecretWrite(cmd string) string {
	src := ""
	if m := hostSources.FindString(cmd); m != "" {
		src = m
	} else if m := hostFiles.FindString(cmd); m != "" {
		src = m
	} else {
		for _, m := range envRef.FindAllStringSubmatch(cmd, -1) {
			if m[1] != "localWorkspaceFolder" && secrets.SensitiveName(m[1]) {
				src = "$" + m[1]
				break
			}
		}
	}
	if src == "" {
		return ""
	}
	for _, m := range workspaceDest.FindAllStringSubmatch(cmd, -1) {
		d := m[1]
		switch {
		case strings.HasPrefix(d, "/dev/"), strings.HasPrefix(d, "/tmp/"), strings.HasPrefix(d, "/"), strings.HasPrefix(d, "~"), strings.HasPrefix(d, "$HOME"), strings.HasPrefix(d, "${HOME"), strings.HasPrefix(d, "${localEnv:HOME"):
			continue
		case strings.HasPrefix(d, "&"):
			continue
		}
		if hostFiles.MatchString(d) {
			continue // the source of a cp, not its destination
		}
		return src + " into " + strings.TrimPrefix(strings.TrimPrefix(d, "${localWorkspaceFolder}/"), "./")
	}
	return ""
}
