// Package secrets recognises credentials in values and free text. It never
// returns a secret: only its kind, likely lifetime and a short fingerprint.
//
// Recognisers are gitleaks' default rule set (the kind is the gitleaks rule
// ID, e.g. "stripe-access-token") plus our own, which win for the kind name
// because they know the lifetime: github-pat-classic, github-pat-fine-grained,
// github-oauth-token, github-refresh-token (long); github-app-user-token,
// github-app-installation-token (short); aws-access-key-id (long),
// aws-temporary-access-key (short); openai-api-key, anthropic-api-key,
// gitlab-pat, npm-token, pypi-token, google-api-key, private-key (long);
// slack-bot-token, slack-user-token, slack-workspace-token,
// slack-refresh-token (long), slack-session-token (session); jwt (short when
// exp-iat <= 24h, long without exp, else unknown); url-password,
// basic-auth, bearer-token (unknown; a known token inside takes its kind);
// and generic-secret from DetectNamed. Lifetimes are long | short | session
// | unknown.
package secrets

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// Fingerprint is a short, non-reversible identifier of a secret value, so the
// same token can be recognised across files and runs without being shown.
func Fingerprint(value string) string {
	sum := sha256.Sum256([]byte("sandbox-audit/secret/v1\x00" + value))
	return hex.EncodeToString(sum[:6])
}

var refPattern = regexp.MustCompile(`^\s*(\$\{[^}]*\}|\$\{\{[^}]*\}\}|\$[A-Za-z_][A-Za-z0-9_]*|\$\([^)]*\))\s*$`)

// IsReference reports whether value only refers to a secret held elsewhere
// (${VAR}, ${input:x}, ${{ secrets.X }}, $VAR, $(cmd)) rather than holding one.
func IsReference(value string) bool {
	return refPattern.MatchString(value)
}

// Default returns the default of a value that is one reference with a
// default, ${NAME:-default} or ${NAME-default} (compose, Claude Code and
// shell syntax): the literal used when NAME is unset. ok is false for
// anything else.
func Default(value string) (string, bool) {
	v := strings.TrimSpace(value)
	if !strings.HasPrefix(v, "${") || !strings.HasSuffix(v, "}") || strings.HasPrefix(v, "${{") {
		return "", false
	}
	inner := v[2 : len(v)-1]
	i := 0
	for i < len(inner) && (isWordByte(inner[i]) || i > 0 && inner[i] == '.') {
		i++
	}
	if i == 0 || i == len(inner) || inner[i] != '-' && inner[i] != ':' {
		return "", false
	}
	rest := inner[i:]
	switch {
	case strings.HasPrefix(rest, ":-"):
		rest = rest[2:]
	case strings.HasPrefix(rest, "-"):
		rest = rest[1:]
	default:
		return "", false // ${X:?err}, ${X:+alt}
	}
	if strings.ContainsAny(rest, "{}") {
		return "", false // a nested reference
	}
	return rest, true
}

// Match is one secret found in a text: its kind and where it lies. Start and
// End are byte offsets of the secret itself (not the "KEY=" before it).
type Match struct {
	model.SecretRef
	Start, End int
}

// Detect classifies a literal value. It returns nil when the value is not a
// credential (or is only a reference to one). When the value holds several,
// the first is described.
func Detect(value string) *model.SecretRef {
	ms := Scan(value)
	if len(ms) == 0 {
		return nil
	}
	r := ms[0].SecretRef
	return &r
}

// DetectNamed classifies value knowing the name it is assigned to:
//   - a known token format anywhere in the value wins (even the default of a
//     reference, ${GH_TOKEN:-ghp_…});
//   - a reference or placeholder ("${TOKEN}", "changeme", "<your-token>") is
//     not a secret, but the default of a reference (${TOKEN:-…}) is a
//     literal: it is judged like one;
//   - gitleaks' vendor rules that need the name ("ADAFRUIT_KEY=…") get it;
//   - a random-looking one-word literal under a sensitive name (SensitiveName)
//     is a "generic-secret" with an unknown lifetime. Words, URLs, paths,
//     hosts, versions and image names are not.
func DetectNamed(name, value string) *model.SecretRef {
	if r := Detect(value); r != nil {
		return r
	}
	v := strings.TrimSpace(value)
	if def, ok := Default(v); ok {
		v, value = def, def
	}
	if v == "" || IsReference(v) || isPlaceholder(v) {
		return nil
	}
	if name != "" && !strings.ContainsAny(name, "\r\n") {
		prefix := name + "="
		for _, m := range scan(prefix+value, false) {
			if m.Start >= len(prefix) {
				r := m.SecretRef
				return &r
			}
		}
	}
	if SensitiveName(name) && looksSecret(name, v) {
		return &model.SecretRef{Kind: "generic-secret", Lifetime: "unknown", Fingerprint: Fingerprint(v)}
	}
	return nil
}
