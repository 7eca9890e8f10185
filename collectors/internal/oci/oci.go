// Package oci holds what the container formats (compose, devcontainer, a
// running container read from the Docker Engine) name alike: runtimes,
// capabilities and security options.
package oci

import "strings"

// Runtime maps OCI runtime and containerd shim names to the isolation they
// provide: gvisor, kata, runc, or the name as given.
func Runtime(r string) string {
	l := strings.ToLower(strings.TrimSpace(r))
	switch {
	case strings.Contains(l, "runsc") || l == "gvisor":
		return "gvisor"
	case strings.Contains(l, "kata"):
		return "kata"
	case l == "runc" || l == "io.containerd.runc.v2":
		return "runc"
	}
	return r
}

// Cap normalizes a capability name: upper case without the CAP_ prefix.
func Cap(c string) string {
	return strings.TrimPrefix(strings.ToUpper(strings.TrimSpace(c)), "CAP_")
}

// SplitOpt splits a security option, "seccomp:unconfined" or
// "seccomp=unconfined", into its lower-cased key and its value.
func SplitOpt(o string) (string, string) {
	if i := strings.IndexAny(o, ":="); i >= 0 {
		return strings.ToLower(o[:i]), o[i+1:]
	}
	return strings.ToLower(o), ""
}
