package mcp

import (
	"net"
	"net/url"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// redactURL hides a URL's password (or a token used as user name), the
// query values that are secrets under their names (?api_key=…), and any
// known token format elsewhere in it, and returns what it hid. Values that
// are references (${input:key}) stay.
func redactURL(raw string) (string, []found) {
	var finds []found
	i := strings.Index(raw, "://")
	if i < 0 {
		for _, m := range secrets.Scan(raw) {
			finds = append(finds, found{m.SecretRef, ""})
		}
		return secrets.Redact(raw), finds
	}
	head, rest := raw[:i+3], raw[i+3:]
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	if at := strings.LastIndex(rest[:end], "@"); at >= 0 {
		user, pass, hasPass := strings.Cut(rest[:at], ":")
		if r := secrets.Detect(unescape(user)); r != nil {
			finds = append(finds, found{*r, "user"})
			user = marker(r)
		}
		if r := password(unescape(pass)); hasPass && r != nil {
			finds = append(finds, found{*r, "password"})
			pass = marker(r)
		}
		if hasPass {
			user += ":" + pass
		}
		rest = user + "@" + rest[at+1:]
	}
	if q := strings.Index(rest, "?"); q >= 0 {
		query, frag, hasFrag := strings.Cut(rest[q+1:], "#")
		parts := strings.Split(query, "&")
		for j, p := range parts {
			k, v, ok := strings.Cut(p, "=")
			if !ok {
				continue
			}
			if r, _ := classify(unescape(k), unescape(v)); r != nil {
				finds = append(finds, found{*r, unescape(k)})
				parts[j] = k + "=" + marker(r)
			}
		}
		rest = rest[:q+1] + strings.Join(parts, "&")
		if hasFrag {
			rest += "#" + frag
		}
	}
	for _, m := range secrets.Scan(rest) {
		finds = append(finds, found{m.SecretRef, ""})
	}
	return head + secrets.Redact(rest), finds
}

// password classifies a URL password: any literal one is a credential.
func password(p string) *model.SecretRef {
	_, literal := references(p)
	if literal == "" {
		return nil
	}
	if r := secrets.Detect(literal); r != nil {
		return r
	}
	return &model.SecretRef{Kind: "url-password", Lifetime: "unknown", Fingerprint: secrets.Fingerprint(literal)}
}

func unescape(s string) string {
	if u, err := url.QueryUnescape(s); err == nil {
		return u
	}
	return s
}

// plainHTTP reports an http:// URL to a host other than this machine: the
// traffic, tokens included, crosses the network unencrypted.
func plainHTTP(raw string) bool {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || !strings.EqualFold(u.Scheme, "http") {
		return false
	}
	host := strings.ToLower(u.Hostname())
	if host == "" || host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return false
	}
	if ip := net.ParseIP(host); ip != nil && (ip.IsLoopback() || ip.IsUnspecified()) {
		return false
	}
	return true
}
