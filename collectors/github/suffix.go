package github

import (
	"net"
	"strings"

	"golang.org/x/net/publicsuffix"
)

// publicSuffixes are the entries of an allowlist that open it to a public
// suffix (com, co.uk, github.io): a domain under which anyone can register
// a host, so an entry for it, or for every host under it (*.co.uk), lets
// the agent reach a host an attacker picked. A domain whose every direct
// child is a public suffix (the list's wildcard rules: *.compute.amazonaws.com)
// is as broad. The list is the Public Suffix List as golang.org/x/net
// embeds it, its ICANN and private sections both: an entry of the private
// section (github.io, herokuapp.com) is a domain whose owner hands out
// hosts under it to anyone.
func publicSuffixes(entries []string) []string {
	out := []string{}
	for _, e := range entries {
		h := allowHost(e)
		if h == "" {
			continue
		}
		if isPublicSuffix(h) || isPublicSuffix("x."+h) {
			out = append(out, e)
		}
	}
	return out
}

// allowHost is an allowlist entry's domain: scheme, path, port, a leading
// "*." or "." and a trailing dot removed, lower case ("" : no domain, or an
// IP address).
func allowHost(e string) string {
	h := strings.ToLower(strings.TrimSpace(e))
	if i := strings.Index(h, "://"); i >= 0 {
		h = h[i+3:]
	}
	if i := strings.IndexAny(h, "/?#"); i >= 0 {
		h = h[:i]
	}
	if host, _, err := net.SplitHostPort(h); err == nil {
		h = host
	}
	h = strings.TrimSuffix(h, ".")
	for strings.HasPrefix(h, "*.") {
		h = h[2:]
	}
	h = strings.TrimPrefix(h, ".")
	if h == "" || h == "*" || net.ParseIP(h) != nil || strings.ContainsAny(h, "*[]") {
		return ""
	}
	return h
}

func isPublicSuffix(h string) bool {
	s, _ := publicsuffix.PublicSuffix(h)
	return s == h
}
