package firewall

import (
	"net/netip"
	"regexp"
	"strings"
)

var domainRE = regexp.MustCompile(`^(?:\*\.)?(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,24}$`)

// fileSuffixes are name endings that make a dotted word a file, not a host.
var fileSuffixes = []string{".txt", ".sh", ".json", ".conf", ".yaml", ".yml", ".log", ".list", ".md", ".lst", ".cfg", ".ini", ".toml", ".py", ".js"}

// isDomain reports whether s looks like a DNS name (not a file name).
func isDomain(s string) bool {
	l := strings.ToLower(strings.TrimSuffix(s, "."))
	if !domainRE.MatchString(l) {
		return false
	}
	for _, suf := range fileSuffixes {
		if strings.HasSuffix(l, suf) {
			return false
		}
	}
	return true
}

// isCIDR reports whether s is an IP address or prefix.
func isCIDR(s string) bool {
	if _, err := netip.ParsePrefix(s); err == nil {
		return true
	}
	_, err := netip.ParseAddr(s)
	return err == nil
}
