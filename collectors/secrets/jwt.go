package secrets

import (
	"encoding/base64"
	"encoding/json"
	"strings"
)

// jwtShortLived is the longest exp-iat span still called "short": a token
// that dies within a day does not outlive a task by much.
const jwtShortLived = 24 * 60 * 60

// refineJWT keeps a JWT whose header decodes to a JSON object and reads its
// lifetime from the claims. The signature is never checked: a token's
// lifetime is what it claims, valid or not.
func refineJWT(f *find) bool {
	parts := strings.SplitN(f.secret(), ".", 3)
	if len(parts) < 2 {
		return false
	}
	hdr, err := decodeSegment(parts[0])
	if err != nil || !json.Valid(hdr) || hdr[0] != '{' {
		return false
	}
	f.ref.Lifetime = jwtLifetime(parts[1])
	return true
}

// jwtLifetime: no exp claim means the token never expires (long); exp and
// iat within a day, short; exp without iat, or an undecodable payload,
// unknown.
func jwtLifetime(payload string) string {
	raw, err := decodeSegment(payload)
	if err != nil {
		return "unknown"
	}
	var claims struct {
		Exp *float64 `json:"exp"`
		Iat *float64 `json:"iat"`
	}
	if err := json.Unmarshal(raw, &claims); err != nil {
		return "unknown"
	}
	switch {
	case claims.Exp == nil:
		return "long"
	case claims.Iat == nil:
		return "unknown"
	case *claims.Exp-*claims.Iat <= jwtShortLived:
		return "short"
	default:
		return "long"
	}
}

func decodeSegment(s string) ([]byte, error) {
	return base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
}
