package live

import (
	"encoding/base64"
	"net/url"
	"path"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// gitEntry is one key of a git config file: section.subsection.key.
type gitEntry struct {
	section, sub, key, value string
}

// parseGitConfig reads git-config(1) syntax: [section "sub"] headers
// (and the legacy [section.sub]), key = value lines, # and ; comments,
// quoted values. It is enough for the keys the audit needs.
func parseGitConfig(data string) []gitEntry {
	var out []gitEntry
	var section, sub string
	for _, line := range strings.Split(data, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			end := strings.LastIndex(line, "]")
			if end < 0 {
				continue
			}
			h := strings.TrimSpace(line[1:end])
			section, sub = h, ""
			if i := strings.IndexAny(h, " \t"); i >= 0 {
				section, sub = h[:i], strings.Trim(strings.TrimSpace(h[i:]), `"`)
			} else if i := strings.Index(h, "."); i >= 0 {
				section, sub = h[:i], h[i+1:]
			}
			section = strings.ToLower(section)
			continue
		}
		k, v, _ := strings.Cut(line, "=")
		v = strings.TrimSpace(v)
		if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
			v = v[1 : len(v)-1]
		}
		out = append(out, gitEntry{section: section, sub: sub, key: strings.ToLower(strings.TrimSpace(k)), value: v})
	}
	return out
}

// gitCredentials reads the git configs an agent's git would use: the
// workspace repositories', the users', the system's, every file they
// include (actions/checkout v6 keeps the token in
// $RUNNER_TEMP/git-credentials-*.config through includeIf), and any such
// file left in RUNNER_TEMP.
func (c *collector) gitCredentials() {
	var configs []string
	for _, ws := range c.workspaces() {
		configs = append(configs, c.repoConfig(ws))
	}
	for _, h := range c.homeDirs() {
		configs = append(configs, path.Join(h, ".gitconfig"), path.Join(h, ".config/git/config"))
	}
	configs = append(configs, "/etc/gitconfig")
	seen := map[string]bool{}
	for _, p := range configs {
		c.gitConfig(p, "", seen, 0)
	}
	if rt := c.env.get("RUNNER_TEMP"); path.IsAbs(rt) {
		ents, _ := c.fs.readDir(rt)
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), "git-credentials-") && strings.HasSuffix(e.Name(), ".config") {
				c.gitConfig(path.Join(rt, e.Name()), "", seen, 0)
			}
		}
	}
}

// workspaces are the task's working trees: the option, then the
// environment's GITHUB_WORKSPACE and PWD, then the usual mount points.
func (c *collector) workspaces() []string {
	var out []string
	for _, w := range []string{c.opt.Workspace, c.env.get("GITHUB_WORKSPACE"), c.env.get("PWD"), "/workspace"} {
		// "/" is no workspace: every mount and file would be "in" it.
		if path.IsAbs(w) && path.Clean(w) != "/" {
			out = append(out, path.Clean(w))
		}
	}
	if ents, err := c.fs.readDir("/workspaces"); err == nil {
		for _, e := range ents {
			out = append(out, "/workspaces/"+e.Name())
		}
	}
	return out
}

// repoConfig finds a working tree's config, following a .git file
// ("gitdir: …") as worktrees and submodules use.
func (c *collector) repoConfig(ws string) string {
	gd := path.Join(ws, ".git")
	if data, err := c.fs.readFile(gd); err == nil {
		if dir, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:"); ok {
			dir = strings.TrimSpace(dir)
			if !path.IsAbs(dir) {
				dir = path.Join(ws, dir)
			}
			return path.Join(dir, "config")
		}
	}
	return path.Join(gd, "config")
}

func (c *collector) gitConfig(p, from string, seen map[string]bool, depth int) {
	if seen[p] || depth > 5 {
		return
	}
	seen[p] = true
	data, err := c.fs.readFile(p)
	if err != nil {
		return
	}
	via := ""
	if from != "" {
		via = " (included from " + from + ")"
	}
	subs := map[string]bool{}
	for _, e := range parseGitConfig(string(data)) {
		// A section's URL ([url "https://u:pw@h/"], [http "…"],
		// [credential "…"]) is shown in names: redacted, and its password
		// is a credential git sends to that host.
		sub := secrets.Redact(e.sub)
		if strings.Contains(e.sub, "://") && !subs[e.section+"\x00"+e.sub] {
			subs[e.section+"\x00"+e.sub] = true
			c.urlPassword(p, e.section, e.sub, sub, via)
		}
		switch {
		case e.section == "http" && e.key == "extraheader":
			c.extraHeader(p, e, sub, via)
		case e.section == "remote" && e.key == "url":
			c.urlPassword(p, e.section, e.value, sub, via)
		case (e.section == "include" || e.section == "includeif") && e.key == "path":
			inc := e.value
			if h, ok := strings.CutPrefix(inc, "~/"); ok {
				inc = path.Join(c.env.home(), h)
			} else if !path.IsAbs(inc) {
				inc = path.Join(path.Dir(p), inc)
			}
			c.gitConfig(inc, p, seen, depth+1)
		}
	}
}

// urlPassword reports the password of a git URL (a remote's, or a
// section's); name is the section as shown, already redacted.
func (c *collector) urlPassword(p, section, raw, name, via string) {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return
	}
	pw, ok := u.User.Password()
	if !ok {
		return
	}
	ref := classify("password", pw)
	if ref == nil {
		return
	}
	if ref.Kind == "password" {
		ref.Kind = "git-credential"
	}
	c.addCred(model.LiveCred{SecretRef: *ref, Source: "git-config", Name: p + " [" + section + "." + name + "]", CanPush: true},
		"git config "+p+" "+section+" URL with a password"+via)
}

// extraHeader decodes http.<url>.extraheader, where actions/checkout puts
// "AUTHORIZATION: basic base64(x-access-token:<token>)".
func (c *collector) extraHeader(p string, e gitEntry, sub, via string) {
	_, val, ok := strings.Cut(e.value, ":")
	if !ok {
		return
	}
	scheme, cred, _ := strings.Cut(strings.TrimSpace(val), " ")
	secret := strings.TrimSpace(cred)
	if strings.EqualFold(scheme, "basic") {
		if dec, err := base64.StdEncoding.DecodeString(secret); err == nil {
			if _, pw, ok := strings.Cut(string(dec), ":"); ok {
				secret = pw
			}
		}
	}
	if secret == "" || secrets.IsReference(secret) {
		return
	}
	ref := secrets.Detect(secret)
	if ref == nil {
		ref = &model.SecretRef{Kind: "git-http-token", Lifetime: "unknown", Fingerprint: secrets.Fingerprint(secret)}
	}
	note := "git sends it to " + sub
	if strings.Contains(p, "git-credentials-") || strings.Contains(e.value, "basic") {
		note = "actions/checkout persisted credentials; " + note
	}
	key := "http." + sub + ".extraheader"
	c.addCred(model.LiveCred{SecretRef: *ref, Source: "git-config", Name: p + " [" + key + "]", CanPush: true, Note: note},
		"git config "+p+" "+key+via)
}
