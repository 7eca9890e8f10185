package compose

import (
	"net/url"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/sandbox-audit/sandbox-audit/collectors/internal/agentcli"
	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// environment reads the list ("KEY=VAL", "KEY") and map syntax. A name
// without a value, like ${X} or $X, takes the variable from the host that
// runs compose: that is what FromHost records.
func (s *service) environment(n *yaml.Node) {
	if its := items(n); its != nil {
		for _, it := range its {
			kv, ok := scalar(it)
			if !ok {
				continue
			}
			name, value, hasValue := strings.Cut(kv, "=")
			s.envVar(name, value, hasValue, s.loc(it))
		}
		return
	}
	for _, e := range mapping(n) {
		value, hasValue := scalar(e.val)
		s.envVar(e.key.Value, value, hasValue, s.loc(e.key))
	}
}

// buildArgs records literal secrets in build.args: they are baked into the
// image history, so they are credentials although not in the environment.
func (s *service) buildArgs(n *yaml.Node) {
	args := get(mapping(n), "args")
	check := func(name, value string, line *yaml.Node) {
		if ref := secrets.DetectNamed(name, value); ref != nil {
			s.credential(*ref, "arg", "compose service "+s.w.Name+" build arg "+name, s.loc(line))
		}
	}
	if its := items(args); its != nil {
		for _, it := range its {
			if kv, ok := scalar(it); ok {
				if name, value, ok := strings.Cut(kv, "="); ok {
					check(name, value, it)
				}
			}
		}
		return
	}
	for _, e := range mapping(args) {
		if value, ok := scalar(e.val); ok {
			check(e.key.Value, value, e.key)
		}
	}
}

// commandSecrets records literal secrets written in command or entrypoint;
// the text itself is not kept.
func (s *service) commandSecrets(key string, n *yaml.Node) {
	parts := items(n)
	if parts == nil {
		parts = []*yaml.Node{resolve(n)}
	}
	for _, p := range parts {
		if text, ok := scalar(p); ok {
			_, found := secrets.Hide(text)
			for _, f := range found {
				s.credential(f.SecretRef, "arg", "compose service "+s.w.Name+" "+key, s.loc(p))
			}
		}
	}
}

func (s *service) credential(ref model.SecretRef, where, context string, loc model.Loc) {
	s.creds = append(s.creds, model.Credential{
		SecretRef: ref, Where: where, Context: context, Workload: s.w.ID,
		// The compose file is in the repository the agent works on.
		ReadableByAgent: true, Loc: loc,
	})
}

func (s *service) envVar(name, value string, hasValue bool, loc model.Loc) {
	name = strings.TrimSpace(name)
	if name == "" {
		return
	}
	ev := model.EnvVar{Name: name, SensitiveName: secrets.SensitiveEnv(name, value, hasValue), Loc: loc}
	if hasValue {
		ev.Switch = agentcli.EnvSwitch(name, value)
		switch strings.ToUpper(name) {
		case "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY":
			if u, err := url.Parse(strings.TrimSpace(value)); err == nil && s.proxy == "" {
				s.proxy, s.proxyAt = u.Hostname(), loc
			}
		}
	}
	switch {
	case !hasValue:
		ev.FromHost = name
	default:
		ev.FromHost = firstVar(value)
		ev.Secret = secrets.DetectNamed(name, value)
		if ev.Secret == nil && ev.FromHost != "" {
			// ${TOKEN:-ghp_…}: the default is a literal token.
			ev.Secret = secrets.Detect(value)
		}
		if ev.Secret != nil && ev.Secret.Kind == "url-password" && devURL(value) {
			// postgres://app:app@db:5432/app: a guessable password for a
			// service of the compose network is a dev default, not a leak.
			ev.Secret, ev.Weak = nil, true
			if u, err := url.Parse(strings.TrimSpace(value)); err == nil {
				ev.URLHost = u.Hostname()
			}
		}
		// POSTGRES_PASSWORD: postgres, ${DB_PASSWORD:-changeme}.
		ev.Weak = ev.Weak || ev.Secret == nil && secrets.WeakSecret(name, value)
	}
	if ev.Secret != nil {
		s.credential(*ev.Secret, "env", "compose service "+s.w.Name+" environment "+name, loc)
	}
	// The host variable's name, as for the container's: a default that is a
	// setting (${X_TOKEN_ISOLATION:-false}) says it holds none.
	ev.HostSensitive = ev.FromHost != "" && secrets.SensitiveName(ev.FromHost)
	if def, ok := secrets.Default(strings.TrimSpace(value)); ok && def != "" && ev.HostSensitive {
		ev.HostSensitive = secrets.SensitiveEnv(ev.FromHost, value, true)
	}
	s.w.Env = append(s.w.Env, ev)
}

// devURL reports a connection URL to a host of the compose network or this
// machine (a name with no dot: db, postgres; localhost) whose password is
// guessable: the user name again, or a weak password.
func devURL(value string) bool {
	u, err := url.Parse(strings.TrimSpace(value))
	if err != nil || u.User == nil {
		return false
	}
	pass, ok := u.User.Password()
	host := u.Hostname()
	if !ok || host == "" || strings.Contains(host, ".") && host != "127.0.0.1" {
		return false
	}
	return pass == u.User.Username() || secrets.WeakSecret("PASSWORD", pass)
}

// firstVar returns the first variable interpolated in a compose value:
// ${NAME}, ${NAME:-default}, ${NAME?err} or $NAME; "$$" is a literal dollar.
func firstVar(v string) string {
	for i := 0; i+1 < len(v); i++ {
		if v[i] != '$' {
			continue
		}
		switch c := v[i+1]; {
		case c == '$':
			i++
		case c == '{':
			end := strings.IndexAny(v[i+2:], ":-?+}")
			if end > 0 {
				return v[i+2 : i+2+end]
			}
		case c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z':
			j := i + 1
			for j < len(v) && (v[j] == '_' || v[j] >= 'A' && v[j] <= 'Z' || v[j] >= 'a' && v[j] <= 'z' || v[j] >= '0' && v[j] <= '9') {
				j++
			}
			return v[i+1 : j]
		}
	}
	return ""
}
