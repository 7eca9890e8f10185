package live

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"io/fs"
	"path"
	"strings"
	"time"

	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// claims are the JWT claims worth reporting; none of them is secret.
type claims struct {
	Exp *float64        `json:"exp"`
	Iat *float64        `json:"iat"`
	Iss string          `json:"iss"`
	Sub string          `json:"sub"`
	Aud json.RawMessage `json:"aud"`
	K8s *struct {
		WarnAfter *float64 `json:"warnafter"`
	} `json:"kubernetes.io"`
}

// decodeJWT reads a JWT's claims without verifying it: the audit judges
// what a token grants, it does not use it.
func decodeJWT(tok string) (*claims, bool) {
	parts := strings.Split(strings.TrimSpace(tok), ".")
	if len(parts) != 3 || len(parts[1]) == 0 {
		return nil, false
	}
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil {
		return nil, false
	}
	var cl claims
	if json.Unmarshal(raw, &cl) != nil {
		return nil, false
	}
	return &cl, true
}

// jwtClaims adds expiry, audience, issuer and subject when v is a JWT, and
// derives the lifetime from exp − iat.
func (c *collector) jwtClaims(lc *model.LiveCred, v string) bool {
	cl, ok := decodeJWT(v)
	if !ok {
		return false
	}
	lc.Issuer, lc.Subject = clipStr(cl.Iss, 200), clipStr(cl.Sub, 200)
	var one string
	var many []string
	if json.Unmarshal(cl.Aud, &one) == nil && one != "" {
		lc.Audience = []string{clipStr(one, 200)}
	} else if json.Unmarshal(cl.Aud, &many) == nil {
		for _, a := range many {
			lc.Audience = append(lc.Audience, clipStr(a, 200))
		}
	}
	if cl.Exp == nil {
		lc.Lifetime = "long"
		lc.Note = "no expiry (exp claim absent)"
		return true
	}
	exp := time.Unix(int64(*cl.Exp), 0).UTC()
	lc.ExpiresAt = exp.Format(time.RFC3339)
	lc.Expired = !exp.After(c.now)
	lc.Lifetime = "short"
	if cl.Iat != nil && exp.Sub(time.Unix(int64(*cl.Iat), 0)) > 48*time.Hour {
		lc.Lifetime = "long"
	}
	if cl.K8s != nil && cl.K8s.WarnAfter != nil {
		lc.Note = "extended expiry: the API server accepts it until exp although kubelet rotates it after " + time.Unix(int64(*cl.K8s.WarnAfter), 0).UTC().Format(time.RFC3339)
	}
	return true
}

// saTokenDirs hold service-account and projected workload-identity tokens.
var saTokenDirs = []string{
	"/var/run/secrets/kubernetes.io/serviceaccount/token", "/run/secrets/kubernetes.io/serviceaccount/token",
	"/var/run/secrets/eks.amazonaws.com/serviceaccount/token", "/var/run/secrets/azure/tokens/azure-identity-token",
	"/var/run/secrets/tokens",
}

// serviceAccountTokens finds Kubernetes (and cloud workload identity)
// tokens and decodes their claims for expiry and audience.
func (c *collector) serviceAccountTokens(seen map[string]bool) {
	var files []string
	for _, p := range saTokenDirs {
		fi, err := c.fs.stat(p)
		if err != nil {
			continue
		}
		if !fi.IsDir() {
			files = append(files, p)
			continue
		}
		ents, _ := c.fs.readDir(p)
		for _, e := range ents {
			if !e.IsDir() && !strings.HasPrefix(e.Name(), "..") {
				files = append(files, path.Join(p, e.Name()))
			}
		}
	}
	for _, p := range files {
		c.tokenFile(p, seen)
	}
}

// tokenFile reports a file that holds one token (a service-account or
// workload-identity JWT), once per token however many paths lead to it.
func (c *collector) tokenFile(p string, seen map[string]bool) {
	data, err := c.fs.readFile(p)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			c.miss("credentials", p, err)
		}
		return
	}
	tok := strings.TrimSpace(string(data))
	fp := secrets.Fingerprint(tok)
	if tok == "" || seen[fp] {
		return
	}
	seen[fp] = true
	lc := model.LiveCred{Source: "service-account", Name: p,
		SecretRef: model.SecretRef{Kind: "kubernetes-service-account-token", Lifetime: "unknown", Fingerprint: fp}}
	if !c.jwtClaims(&lc, tok) {
		lc.Note = "not a JWT"
	} else if !kubeAudience(lc.Audience) {
		// Projected for a cloud (sts.amazonaws.com, api://AzureADTokenExchange):
		// it buys cloud credentials, not Kubernetes API access.
		lc.Kind = "workload-identity-token"
	}
	c.addCred(lc, "service-account token file "+p)
}

// kubeAudience tells a token for the Kubernetes API server (the default
// audience, or none on legacy tokens) from one projected for a cloud.
func kubeAudience(aud []string) bool {
	if len(aud) == 0 {
		return true
	}
	for _, a := range aud {
		if strings.Contains(a, "kubernetes") || strings.Contains(a, ".svc") {
			return true
		}
	}
	return false
}
