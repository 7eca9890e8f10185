package live

import (
	"context"
	"net/url"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// credentials finds every credential the agent can read: environment
// variables, credential files in home directories, Kubernetes
// service-account tokens, git configs (the checkout token) and a forwarded
// SSH agent. Only kinds, fingerprints and places are kept.
func (c *collector) credentials(ctx context.Context) {
	c.envCredentials()
	for _, h := range c.homeDirs() {
		c.homeCredentials(h)
	}
	seen := map[string]bool{}
	c.serviceAccountTokens(seen)
	c.fileVarCredentials(seen)
	c.gitCredentials()
	c.sshAgent(ctx)
}

// addCred records one credential twice: in live.credentials with its
// details, and as a model.Credential for the report's credentials[].
func (c *collector) addCred(lc model.LiveCred, context string) {
	for _, prev := range c.live.Credentials {
		if prev.Name == lc.Name && prev.Fingerprint == lc.Fingerprint {
			return
		}
	}
	lc.Loc = loc("credentials")
	lc.CanPush = lc.CanPush || canPush(lc.Kind)
	c.live.Credentials = append(c.live.Credentials, lc)
	where := "live-file"
	if lc.Source == "env" || lc.Source == "ssh-agent" {
		where = "live-env"
	}
	c.creds = append(c.creds, model.Credential{SecretRef: lc.SecretRef, Where: where, Context: context, ReadableByAgent: true, Loc: loc("credentials")})
}

// canPush tells the credential kinds that can push code to a forge.
func canPush(kind string) bool {
	for _, p := range []string{"github-", "gitlab-", "bitbucket-", "git-", "ssh-private-key", "ssh-agent", "gitea-"} {
		if strings.HasPrefix(kind, p) {
			return true
		}
	}
	return false
}

// envCredentials checks every variable of the judged environment.
func (c *collector) envCredentials() {
	for _, name := range c.env.names {
		v := c.env.vars[name]
		ref := envSecret(name, v)
		if ref == nil {
			continue
		}
		lc := model.LiveCred{SecretRef: *ref, Source: "env", Name: name}
		c.jwtClaims(&lc, v)
		c.addCred(lc, "environment variable "+name)
	}
}

// envSecret classifies one variable. Paths (SSH_AUTH_SOCK,
// AWS_WEB_IDENTITY_TOKEN_FILE) and URLs (…_TOKEN_REQUEST_URL) are judged by
// token patterns and embedded passwords only: their names say "token" or
// "auth", and a long path is random enough to pass for a secret.
func envSecret(name, v string) *model.SecretRef {
	if strings.HasPrefix(v, "/") && !strings.ContainsAny(v, " \t") {
		return secrets.Detect(v)
	}
	if u, err := url.Parse(v); err == nil && u.Scheme != "" && u.Host != "" && strings.Contains(v, "://") {
		if r := secrets.Detect(v); r != nil {
			return r
		}
		if pw, ok := u.User.Password(); ok {
			return classify("password", pw)
		}
		return nil
	}
	return classify(name, v)
}

// fileVarCredentials follows variables that name a credential file.
func (c *collector) fileVarCredentials(seenTokens map[string]bool) {
	for _, v := range []struct{ name, parser string }{
		{"GOOGLE_APPLICATION_CREDENTIALS", "json"}, {"AWS_SHARED_CREDENTIALS_FILE", "kv"},
		{"KUBECONFIG", "yaml"}, {"NETRC", "netrc"}, {"NPM_CONFIG_USERCONFIG", "kv"},
		{"AWS_WEB_IDENTITY_TOKEN_FILE", "token"}, {"AZURE_FEDERATED_TOKEN_FILE", "token"},
	} {
		for _, p := range strings.Split(c.env.get(v.name), ":") {
			switch {
			case p == "" || !path.IsAbs(p):
			case v.parser == "token":
				c.tokenFile(p, seenTokens)
			default:
				c.credFile(p, v.parser)
			}
		}
	}
	if d := c.env.get("DOCKER_CONFIG"); path.IsAbs(d) {
		c.credFile(path.Join(d, "config.json"), "json")
	}
}

// homeDirs computes homes once (several checks, one of them in the
// background, search them) and hands out copies.
func (c *collector) homeDirs() []string {
	c.homeOnce.Do(func() { c.homeList = c.homes() })
	return slices.Clone(c.homeList)
}

// homes lists the home directories to search: root's, /home/*, $HOME and
// those of login users in /etc/passwd.
func (c *collector) homes() []string {
	set := map[string]bool{"/root": true}
	if h := c.env.home(); path.IsAbs(h) && h != "/" {
		set[path.Clean(h)] = true
	}
	if ents, err := c.fs.readDir("/home"); err == nil {
		for _, e := range ents {
			if e.IsDir() {
				set["/home/"+e.Name()] = true
			}
		}
	}
	if data, err := c.fs.readFile("/etc/passwd"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			f := strings.Split(line, ":")
			if len(f) < 7 {
				continue
			}
			uid, err := strconv.Atoi(f[2])
			if err != nil || uid != 0 && (uid < 1000 || uid >= 65534) || !path.IsAbs(f[5]) || f[5] == "/" {
				continue
			}
			set[path.Clean(f[5])] = true
		}
	} else {
		c.miss("credentials", "/etc/passwd", err)
	}
	var out []string
	for h := range set {
		if fi, err := c.fs.stat(h); err == nil && fi.IsDir() {
			out = append(out, h)
		}
	}
	sort.Strings(out)
	return out
}

// homeFiles are credential files relative to a home directory, with the
// parser that reads them.
var homeFiles = []struct{ rel, parser string }{
	{".aws/credentials", "kv"}, {".aws/config", "kv"}, {".docker/config.json", "json"},
	{".git-credentials", "git-credentials"}, {".config/git/credentials", "git-credentials"},
	{".netrc", "netrc"}, {"_netrc", "netrc"}, {".npmrc", "kv"}, {".yarnrc.yml", "yaml"}, {".pypirc", "kv"},
	{".config/gh/hosts.yml", "yaml"}, {".config/hub", "yaml"}, {".kube/config", "yaml"},
	{".config/gcloud/application_default_credentials.json", "json"},
	{".config/gcloud/credentials.db", "whole"}, {".config/gcloud/access_tokens.db", "whole"},
	{".azure/msal_token_cache.json", "json"}, {".azure/accessTokens.json", "json"},
	{".azure/service_principal_entries.json", "json"}, {".claude/.credentials.json", "json"},
	{".codex/auth.json", "json"}, {".config/github-copilot/apps.json", "json"},
	{".config/github-copilot/hosts.json", "json"}, {".cargo/credentials.toml", "kv"},
	{".cargo/credentials", "kv"}, {".gem/credentials", "yaml"}, {".vault-token", "whole"},
	{".terraform.d/credentials.tfrc.json", "json"}, {".config/op/config", "json"},
}

func (c *collector) homeCredentials(home string) {
	for _, f := range homeFiles {
		c.credFile(path.Join(home, f.rel), f.parser)
	}
	c.sshKeys(home)
}
