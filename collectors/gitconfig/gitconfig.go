// Package gitconfig reads git config files — a repository's .git/config and
// .gitconfig files in the tree — for the credentials they leave readable:
// credential helpers, checkout tokens persisted as http extraheaders,
// passwords in remote URLs, and the files they include.
//
// It parses with its own small tokenizer that follows git's config.c rather
// than go-git's plumbing/format/config: go-git's decoder drops line numbers
// (every fact here needs one) and would pull a large module into the build
// for a grammar of a few rules.
package gitconfig

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// Collector reads git config files.
type Collector struct{}

var _ collectors.Collector = Collector{}

// Name implements collectors.Collector.
func (Collector) Name() string { return "gitconfig" }

// Match accepts a repository's .git/config (the walker hands it over though
// it skips the rest of .git) and files named .gitconfig or *.gitconfig.
func (Collector) Match(p string) bool {
	return p == ".git/config" || strings.HasSuffix(p, "/.git/config") || strings.HasSuffix(path.Base(p), ".gitconfig")
}

// Collect implements collectors.Collector. Variables read before a syntax
// error still count: git refuses such a file, but the tokens in it are on
// disk all the same.
func (Collector) Collect(ctx context.Context, p string, data []byte, doc *model.Document) error {
	entries, err := parse(data)
	c := &collector{path: p, doc: doc, gc: model.GitConfig{Loc: model.Loc{File: p, Line: 1}}, seenSub: map[string]bool{}}
	for _, e := range entries {
		c.entry(e)
	}
	doc.GitConfigs = append(doc.GitConfigs, c.gc)
	return err
}

type collector struct {
	path    string
	doc     *model.Document
	gc      model.GitConfig
	helpers []string // canonical key of each CredentialHelpers entry
	seenSub map[string]bool
}

func (c *collector) loc(line int) model.Loc { return model.Loc{File: c.path, Line: line} }

// key is the variable's canonical name, section[.subsection].name, with
// any credential in a URL subsection redacted: keys end up in facts.
func key(e entry) string {
	if e.subsection != "" {
		return e.section + "." + secrets.Redact(e.subsection) + "." + e.name
	}
	return e.section + "." + e.name
}

func (c *collector) credential(r model.SecretRef, context string, line int) {
	c.doc.Credentials = append(c.doc.Credentials, model.Credential{
		SecretRef: r, Where: "git-config", Context: context,
		// A config file in the tree or the checkout's .git is readable by
		// the agent working in it.
		ReadableByAgent: true,
		Loc:             c.loc(line),
	})
}

// urlKeys are variables whose value is a URL that may embed a password.
var urlKeys = map[string]bool{"url": true, "pushurl": true, "insteadof": true, "pushinsteadof": true, "proxy": true}

// urlSections take a URL as subsection: [url "https://user:pw@host/"].
var urlSections = map[string]bool{"url": true, "http": true, "credential": true}

func (c *collector) entry(e entry) {
	if urlSections[e.section] && strings.Contains(e.subsection, "://") && !c.seenSub[e.section+"\x00"+e.subsection] {
		c.seenSub[e.section+"\x00"+e.subsection] = true
		sub := secrets.Redact(e.subsection)
		c.checkURL(e.subsection, fmt.Sprintf("git config [%s %q]", e.section, sub), e.header)
	}
	switch {
	case e.section == "credential" && e.name == "helper":
		c.helper(e)
	case e.section == "http" && e.name == "extraheader":
		c.extraHeader(e)
	case (e.section == "include" || e.section == "includeif") && e.name == "path":
		if e.value != "" {
			c.gc.Includes = append(c.gc.Includes, model.Str{Value: e.value, Loc: c.loc(e.line)})
		}
	case urlKeys[e.name]:
		c.checkURL(e.value, "git config "+key(e), e.line)
	default:
		if r := secrets.DetectNamed(e.name, e.value); r != nil {
			c.credential(*r, "git config "+key(e), e.line)
		}
	}
}

// helper records a credential helper. An empty value resets the helpers
// configured before it for the same URL scope, as git does.
func (c *collector) helper(e entry) {
	if strings.TrimSpace(e.value) == "" {
		var keep []model.Str
		var keys []string
		for i, h := range c.gc.CredentialHelpers {
			if c.helpers[i] != key(e) {
				keep, keys = append(keep, h), append(keys, c.helpers[i])
			}
		}
		c.gc.CredentialHelpers, c.helpers = keep, keys
		return
	}
	// An inline helper (`!f() { echo password=…; }; f`) may carry the token.
	redacted, found := secrets.Hide(e.value)
	for _, f := range found {
		c.credential(f.SecretRef, "git config "+key(e), e.line)
	}
	c.gc.CredentialHelpers = append(c.gc.CredentialHelpers, model.Str{Value: redacted, Loc: c.loc(e.line)})
	c.helpers = append(c.helpers, key(e))
}

// extraHeader records an http extraheader and the token it carries.
func (c *collector) extraHeader(e entry) {
	c.gc.ExtraHeaders = append(c.gc.ExtraHeaders, model.Str{Value: key(e), Loc: c.loc(e.line)})
	if r := headerSecret(e.value); r != nil {
		c.credential(*r, "git config "+key(e), e.line)
	}
}

// checkURL records a URL whose user info holds a password or a token.
func (c *collector) checkURL(raw, context string, line int) {
	redacted, refs := secrets.Hide(raw)
	for _, r := range refs {
		c.credential(r.SecretRef, context, line)
	}
	if len(refs) > 0 {
		c.gc.CredentialURLs = append(c.gc.CredentialURLs, model.Str{Value: redacted, Loc: c.loc(line)})
	}
}
