package gitconfig

import (
	"strings"

	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// headerSecret finds the credential an http extraheader carries, e.g.
// "AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hzXy4uLg==" as persisted by
// actions/checkout (base64 of "x-access-token:TOKEN").
func headerSecret(v string) *model.SecretRef {
	name, val, ok := strings.Cut(v, ":")
	if !ok {
		return secrets.Detect(v)
	}
	name, val = strings.TrimSpace(name), strings.TrimSpace(val)
	if strings.EqualFold(name, "authorization") {
		return secrets.Authorization(val)
	}
	return secrets.DetectNamed(name, val)
}
