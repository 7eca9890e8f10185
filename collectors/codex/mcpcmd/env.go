package mcpcmd

import (
	"net"
	"net/url"
	"regexp"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// Found is a literal secret met while redacting, with what held it.
type Found struct {
	model.SecretRef
	Name string // flag, variable or query key that held it ("" when none)
}

func marker(r *model.SecretRef) string {
	return "[REDACTED:" + r.Kind + ":" + r.Fingerprint + "]"
}

// RedactArgs returns args with literal secrets replaced by a marker:
// --token=VALUE, --api-key VALUE, -e KEY=VALUE and bare known token formats.
func RedactArgs(args []string) ([]string, []Found) {
	if len(args) == 0 {
		return nil, nil
	}
	out := make([]string, len(args))
	var found []Found
	prevFlag := ""
	for i, a := range args {
		out[i] = secrets.Redact(a)
		name, value := "", a
		switch {
		case strings.HasPrefix(a, "-") && strings.Contains(a, "="):
			name, value, _ = strings.Cut(a, "=")
		case prevFlag != "" && !strings.HasPrefix(a, "-"):
			name = prevFlag
			// -e KEY=VALUE passes an environment variable.
			if k, v, ok := strings.Cut(a, "="); ok && (prevFlag == "-e" || prevFlag == "--env") {
				name, value = k, v
			}
		}
		if r := secrets.DetectNamed(strings.TrimLeft(name, "-"), value); r != nil {
			found = append(found, Found{SecretRef: *r, Name: strings.TrimLeft(name, "-")})
			if name != "" {
				out[i] = a[:len(a)-len(value)] + marker(r)
			}
		}
		prevFlag = ""
		if strings.HasPrefix(a, "-") && !strings.Contains(a, "=") {
			prevFlag = a
		}
	}
	return out, found
}

// RedactURL hides a URL's password (or token used as user name) and every
// query value, and any known token format elsewhere in it.
func RedactURL(raw string) (string, []Found) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		var found []Found
		if r := secrets.Detect(raw); r != nil {
			found = append(found, Found{SecretRef: *r})
		}
		return secrets.Redact(raw), found
	}
	var found []Found
	if u.User != nil {
		user := u.User.Username()
		if pw, ok := u.User.Password(); ok {
			if r := secrets.DetectNamed("password", pw); r != nil {
				found = append(found, Found{SecretRef: *r, Name: "password"})
			}
			u.User = url.UserPassword(user, "REDACTED")
		} else {
			if r := secrets.DetectNamed("token", user); r != nil {
				found = append(found, Found{SecretRef: *r, Name: "user"})
				u.User = url.User("REDACTED")
			}
		}
	}
	if u.RawQuery != "" {
		q := u.Query()
		for k, vs := range q {
			for i, v := range vs {
				if r := secrets.DetectNamed(k, v); r != nil {
					found = append(found, Found{SecretRef: *r, Name: k})
				}
				if !secrets.IsReference(v) {
					vs[i] = "REDACTED"
				}
			}
		}
		u.RawQuery = q.Encode()
	}
	if r := secrets.Detect(u.Path); r != nil {
		found = append(found, Found{SecretRef: *r})
	}
	return secrets.Redact(u.String()), found
}

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
	ev := model.EnvVar{Name: name, SensitiveName: secrets.SensitiveName(name), Loc: loc}
	if m := hostRef.FindStringSubmatch(value); m != nil {
		ev.FromHost = m[1]
		return ev
	}
	ev.Secret = secrets.DetectNamed(name, value)
	return ev
}
