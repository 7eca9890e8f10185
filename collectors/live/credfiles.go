package live

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io/fs"
	"net/url"
	"sort"
	"strings"
	"syscall"

	"go.yaml.in/yaml/v3"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// knownKeys are keys whose value is a credential by the file's own
// format, even when no token pattern matches and the value is short.
var knownKeys = []struct{ suffix, kind, lifetime string }{
	{"aws_secret_access_key", "aws-secret-access-key", "long"},
	{"aws_session_token", "aws-session-token", "short"},
	{"_authtoken", "npm-token", "long"},
	{"npmauthtoken", "npm-token", "long"},
	{"_auth", "basic-auth", "long"},
	{"_password", "password", "long"},
	{"password", "password", "long"},
	{"client-key-data", "kubernetes-client-key", "long"},
	{"refresh_token", "oauth-refresh-token", "long"},
	{"refreshtoken", "oauth-refresh-token", "long"},
	{"access_token", "oauth-access-token", "short"},
	{"accesstoken", "oauth-access-token", "short"},
	{"oauth_token", "oauth-token", "long"},
	{"private_key", "private-key", "long"},
	{"client_secret", "client-secret", "long"},
	{"identitytoken", "registry-identity-token", "long"},
	{"rubygems_api_key", "rubygems-api-key", "long"},
	{"api_key", "api-key", "long"},
	{"token", "api-token", "unknown"},
	{"secret", "secret", "unknown"},
}

// classify returns the credential a key/value pair holds, or nil.
func classify(key, value string) *model.SecretRef {
	value = strings.TrimSpace(value)
	if value == "" || secrets.IsReference(value) {
		return nil
	}
	// A token pattern names the kind best; a generic entropy hit says less
	// than the key the file format gives it (aws_secret_access_key).
	r := secrets.DetectNamed(key, value)
	if r != nil && !isGeneric(r.Kind) {
		return r
	}
	if looksJWT(value) {
		return &model.SecretRef{Kind: "jwt", Lifetime: "unknown", Fingerprint: secrets.Fingerprint(value)}
	}
	k := strings.ToLower(key)
	if i := strings.LastIndexAny(k, ".:/ "); i >= 0 {
		k = k[i+1:]
	}
	for _, kk := range knownKeys {
		if strings.HasSuffix(k, kk.suffix) && len(value) >= 6 {
			return &model.SecretRef{Kind: kk.kind, Lifetime: kk.lifetime, Fingerprint: secrets.Fingerprint(value)}
		}
	}
	return r
}

func isGeneric(kind string) bool { return strings.HasPrefix(kind, "generic") }

func looksJWT(v string) bool {
	_, ok := decodeJWT(v)
	return ok && strings.HasPrefix(v, "eyJ")
}

// credFile reads one candidate credential file. A missing file is normal;
// one that exists and cannot be read is reported, never skipped silently.
func (c *collector) credFile(p, parser string) {
	data, err := c.fs.readFile(p)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			c.miss("credentials", p, err)
		}
		return
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return
	}
	found := func(key string, ref *model.SecretRef, lc model.LiveCred) {
		if ref == nil {
			return
		}
		lc.SecretRef, lc.Source, lc.Name = *ref, "file", p
		ctx := "file " + p
		if key != "" {
			lc.Name += " [" + key + "]"
			ctx += " key " + key
		}
		c.addCred(lc, ctx)
	}
	switch parser {
	case "kv":
		section := ""
		for _, line := range strings.Split(string(data), "\n") {
			line = strings.TrimSpace(line)
			if strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") {
				section = line
				continue
			}
			k, v, ok := strings.Cut(line, "=")
			if !ok || strings.HasPrefix(line, "#") || strings.HasPrefix(line, ";") {
				continue
			}
			k, v = strings.TrimSpace(k), strings.Trim(strings.TrimSpace(v), `"'`)
			ref := classify(k, v)
			if section != "" {
				k = strings.Trim(section, "[] ") + "." + k
			}
			found(k, ref, model.LiveCred{})
		}
	case "json", "yaml":
		var doc any
		var err error
		if parser == "json" {
			err = json.Unmarshal(data, &doc)
		} else {
			err = yaml.Unmarshal(data, &doc)
		}
		if err != nil {
			_, why := collectors.SafeReason(err)
			c.addError("credentials", "parse "+p+": "+why)
			return
		}
		walk(doc, "", "", 0, func(key, last, v string) {
			if last == "auth" {
				// Docker's auths.<registry>.auth is base64("user:password").
				if dec, err := base64.StdEncoding.DecodeString(v); err == nil {
					if _, pw, ok := strings.Cut(string(dec), ":"); ok && pw != "" {
						ref := secrets.Detect(pw)
						if ref == nil {
							ref = &model.SecretRef{Kind: "registry-auth", Lifetime: "long", Fingerprint: secrets.Fingerprint(pw)}
						}
						found(key, ref, model.LiveCred{})
						return
					}
				}
			}
			ref := classify(last, v)
			lc := model.LiveCred{}
			if ref != nil {
				c.jwtClaims(&lc, v)
			}
			found(key, ref, lc)
		})
	case "netrc":
		f := strings.Fields(string(data))
		machine := ""
		for i := 0; i+1 < len(f); i++ {
			switch f[i] {
			case "machine":
				machine = f[i+1]
			case "default":
				machine = "default"
			case "password":
				ref := classify("password", f[i+1])
				push := strings.Contains(machine, "github") || strings.Contains(machine, "gitlab") || strings.Contains(machine, "bitbucket")
				found("machine "+machine, ref, model.LiveCred{CanPush: push})
			}
		}
	case "git-credentials":
		for _, line := range strings.Split(string(data), "\n") {
			u, err := url.Parse(strings.TrimSpace(line))
			if err != nil || u.User == nil {
				continue
			}
			pw, _ := u.User.Password()
			ref := classify("password", pw)
			if ref != nil && ref.Kind == "password" {
				ref.Kind = "git-credential"
			}
			found(u.Host, ref, model.LiveCred{CanPush: true})
		}
	case "whole":
		kind := strings.TrimPrefix(strings.TrimSuffix(baseName(p), ".db"), ".")
		if strings.Contains(p, "gcloud") {
			kind = "gcloud-credentials"
		}
		ref := secrets.Detect(string(data))
		if ref == nil {
			ref = &model.SecretRef{Kind: kind, Lifetime: "long", Fingerprint: secrets.Fingerprint(string(bytes.TrimSpace(data)))}
		}
		found("", ref, model.LiveCred{})
	}
}

// walk visits every string leaf of a decoded JSON or YAML document with
// its dotted key path and its own key.
func walk(v any, key, last string, depth int, fn func(key, last, v string)) {
	if depth > 32 {
		return
	}
	join := func(k string) string {
		if key == "" {
			return k
		}
		return key + "." + k
	}
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			walkLeaf(x[k], join(k), k, depth, fn)
		}
	case map[any]any:
		for k, e := range x {
			if ks, ok := k.(string); ok {
				walkLeaf(e, join(ks), ks, depth, fn)
			}
		}
	case []any:
		for _, e := range x {
			walkLeaf(e, key, last, depth+1, fn)
		}
	}
}

func walkLeaf(v any, key, last string, depth int, fn func(key, last, v string)) {
	if s, ok := v.(string); ok {
		fn(key, last, s)
		return
	}
	walk(v, key, last, depth+1, fn)
}

func baseName(p string) string {
	if i := strings.LastIndex(p, "/"); i >= 0 {
		return p[i+1:]
	}
	return p
}
