package mcpcmd

import (
	"net"
	"net/url"
	"regexp"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// PlainHTTP reports an http:// URL to a host other than this machine: the
// server's traffic, tokens included, crosses the network unencrypted.
func PlainHTTP(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || !strings.EqualFold(u.Scheme, "http") {
		return false
	}
	host := strings.ToLower(u.Hostname())
	if host == "localhost" || strings.HasSuffix(host, ".localhost") || host == "" {
		return false
	}
	if ip := net.ParseIP(host); ip != nil && (ip.IsLoopback() || ip.IsUnspecified()) {
		return false
	}
	return true
}

var hostRef = regexp.MustCompile(`^\s*\$\{?(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}?\s*$`)

// EnvVar classifies one environment entry. A ${VAR} or $VAR value forwards
// the launching process's variable, recorded as FromHost.
func EnvVar(name, value string, loc model.Loc) model.EnvVar {
	ev := model.EnvVar{Name: name, SensitiveName: secrets.SensitiveEnv(name, value, true), Loc: loc}
	if m := hostRef.FindStringSubmatch(value); m != nil {
		ev.FromHost = m[1]
		return ev
	}
	ev.Secret = secrets.DetectNamed(name, value)
	return ev
}

var headerRef = regexp.MustCompile(`\$\{?(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}?`)

// Header classifies one HTTP header an MCP client sends, like EnvVar: a
// ${VAR} or $VAR in the value forwards that variable (FromHost); a literal
// credential is a secret (any literal Authorization value, else a value
// that looks like one for its name). The value itself is never kept.
func Header(name, value string, loc model.Loc) model.EnvVar {
	ev := model.EnvVar{Name: name, SensitiveName: secrets.SensitiveName(name) || strings.EqualFold(name, "authorization"), Loc: loc}
	if m := headerRef.FindStringSubmatch(value); m != nil {
		ev.FromHost = m[1]
	}
	literal := strings.TrimSpace(headerRef.ReplaceAllString(value, ""))
	if strings.EqualFold(name, "authorization") {
		ev.Secret = secrets.Authorization(literal)
	} else if literal != "" {
		ev.Secret = secrets.DetectNamed(name, literal)
	}
	return ev
}
