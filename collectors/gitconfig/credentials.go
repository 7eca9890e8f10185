package gitconfig

import (
	"encoding/base64"
	"net/url"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

func marker(r *model.SecretRef) string {
	return "[REDACTED:" + r.Kind + ":" + r.Fingerprint + "]"
}

// opaque classifies a token whose format secrets.Detect does not know.
// x-access-token is the user name actions/checkout persists the job's
// GITHUB_TOKEN under: it expires with the job.
func opaque(user, token, fallback string) *model.SecretRef {
	if r := secrets.Detect(token); r != nil {
		return r
	}
	if user == "x-access-token" {
		return &model.SecretRef{Kind: "github-checkout-token", Lifetime: "short", Fingerprint: secrets.Fingerprint(token)}
	}
	return &model.SecretRef{Kind: fallback, Lifetime: "unknown", Fingerprint: secrets.Fingerprint(token)}
}

// headerSecret finds the credential an http extraheader carries, e.g.
// "AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hzXy4uLg==" as persisted by
// actions/checkout (base64 of "x-access-token:TOKEN").
func headerSecret(v string) *model.SecretRef {
	name, val, ok := strings.Cut(v, ":")
	if !ok {
		return secrets.Detect(v)
	}
	name, val = strings.TrimSpace(name), strings.TrimSpace(val)
	if !strings.EqualFold(name, "authorization") {
		return secrets.DetectNamed(name, val)
	}
	scheme, cred, _ := strings.Cut(val, " ")
	cred = strings.TrimSpace(cred)
	if cred == "" || secrets.IsReference(cred) {
		return secrets.Detect(val)
	}
	switch strings.ToLower(scheme) {
	case "basic":
		dec, err := base64.StdEncoding.DecodeString(cred)
		if err != nil {
			if dec, err = base64.RawStdEncoding.DecodeString(cred); err != nil {
				return secrets.Detect(cred)
			}
		}
		user, pass, ok := strings.Cut(string(dec), ":")
		if !ok {
			user, pass = "", user
		}
		if pass == "" {
			return nil
		}
		return opaque(user, pass, "http-basic-password")
	case "bearer", "token":
		return opaque("", cred, "http-bearer-token")
	}
	return secrets.DetectNamed(name, val)
}

// redactURL hides the password (or token used as user name) and the secret
// query values of a URL, and returns what it hid. URLs without a scheme
// (scp-like git@host:path) carry no password.
func redactURL(raw string) (string, []model.SecretRef) {
	var refs []model.SecretRef
	i := strings.Index(raw, "://")
	if i < 0 {
		for _, m := range secrets.Scan(raw) {
			refs = append(refs, m.SecretRef)
		}
		return secrets.Redact(raw), refs
	}
	head, rest := raw[:i+3], raw[i+3:]
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	if at := strings.LastIndex(rest[:end], "@"); at >= 0 {
		user, pass, hasPass := strings.Cut(rest[:at], ":")
		plainUser, plainPass := unescape(user), unescape(pass)
		if r := secrets.Detect(plainUser); r != nil {
			refs = append(refs, *r)
			user = marker(r)
		}
		if hasPass && plainPass != "" && !secrets.IsReference(plainPass) {
			r := opaque(plainUser, plainPass, "url-password")
			refs = append(refs, *r)
			pass = marker(r)
		}
		if hasPass {
			user += ":" + pass
		}
		rest = user + "@" + rest[at+1:]
	}
	rest, qrefs := redactQuery(rest)
	refs = append(refs, qrefs...)
	for _, m := range secrets.Scan(rest) {
		refs = append(refs, m.SecretRef)
	}
	return head + secrets.Redact(rest), refs
}

// redactQuery replaces query values that are secrets under their names
// (?access_token=…).
func redactQuery(s string) (string, []model.SecretRef) {
	q := strings.Index(s, "?")
	if q < 0 {
		return s, nil
	}
	query, frag, hasFrag := strings.Cut(s[q+1:], "#")
	var refs []model.SecretRef
	parts := strings.Split(query, "&")
	for i, p := range parts {
		k, v, ok := strings.Cut(p, "=")
		if !ok {
			continue
		}
		if r := secrets.DetectNamed(unescape(k), unescape(v)); r != nil {
			refs = append(refs, *r)
			parts[i] = k + "=" + marker(r)
		}
	}
	out := s[:q+1] + strings.Join(parts, "&")
	if hasFrag {
		out += "#" + frag
	}
	return out, refs
}

func unescape(s string) string {
	if u, err := url.PathUnescape(s); err == nil {
		return u
	}
	return s
}
