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

// sharedLists are the published address lists of networks anyone can
// serve from (a site behind a CDN, a function, a VM of a public cloud), by
// a part of the URL they are fetched from. An allowlist of such a list
// lets the agent reach hosts nobody named: an attacker's site is one free
// account away.
var sharedLists = []struct{ url, name string }{
	{"cloudflare.com/ips", "Cloudflare"},
	{"api.cloudflare.com/client/v4/ips", "Cloudflare"},
	{"ip-ranges.amazonaws.com", "AWS"},
	{"gstatic.com/ipranges", "Google"},
	{"api.fastly.com/public-ip-list", "Fastly"},
}

// sharedList names the network whose published list a URL fetches, or "".
func sharedList(url string) string {
	for _, l := range sharedLists {
		if strings.Contains(url, l.url) {
			return l.name
		}
	}
	return ""
}

// cloudflareV4 are Cloudflare's published IPv4 ranges (cloudflare.com/ips-v4),
// written out in scripts that copy the list instead of fetching it.
var cloudflareV4 = func() []netip.Prefix {
	var out []netip.Prefix
	for _, p := range []string{
		"173.245.48.0/20", "103.21.244.0/22", "103.22.200.0/22", "103.31.4.0/22", "141.101.64.0/18",
		"108.162.192.0/18", "190.93.240.0/20", "188.114.96.0/20", "197.234.240.0/22", "198.41.128.0/17",
		"162.158.0.0/15", "104.16.0.0/13", "104.24.0.0/14", "172.64.0.0/13", "131.0.72.0/22",
	} {
		out = append(out, netip.MustParsePrefix(p))
	}
	return out
}()

// sharedRange names the shared network a literal prefix of a /24 or wider
// overlaps ("" when none): a copy of Cloudflare's ranges, or a large part
// of one. A single address (one a host name resolved to) is not reported.
func sharedRange(s string) string {
	p, err := netip.ParsePrefix(s)
	if err != nil || !p.Addr().Is4() || p.Bits() > 24 {
		return ""
	}
	for _, c := range cloudflareV4 {
		if c.Overlaps(p) {
			return "Cloudflare"
		}
	}
	return ""
}
