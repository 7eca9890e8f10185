package deps

import (
	"sort"
	"strings"
)

// isRequirements matches syft's "**/*requirements*.txt".
func isRequirements(base string) bool {
	return strings.HasSuffix(base, ".txt") && strings.Contains(base, "requirements")
}

// pyReq is one requirement line of a requirements file (or a PEP 508 string).
type pyReq struct {
	name string // as written
	spec string // version specifiers, e.g. "==1.2.3", ">=2,<3"; "" when none
	url  string // direct reference (name @ url, git+…, a path)
	line int
}

// parseRequirements reads a pip requirements file: one requirement per
// logical line (backslash continuations joined), options such as
// --index-url and --extra-index-url collected, comments dropped.
func parseRequirements(text []byte) (reqs []pyReq, index, extra []string) {
	lines := strings.Split(string(text), "\n")
	for i := 0; i < len(lines); i++ {
		start := i + 1
		l := strings.TrimRight(lines[i], "\r")
		for strings.HasSuffix(l, `\`) && i+1 < len(lines) {
			i++
			l = strings.TrimSuffix(l, `\`) + " " + strings.TrimRight(lines[i], "\r")
		}
		if j := strings.Index(l, " #"); j >= 0 {
			l = l[:j]
		}
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if strings.HasPrefix(l, "-") {
			opt, val := splitOption(l)
			switch opt {
			case "-i", "--index-url":
				if h := urlHost(val); h != "" {
					index = append(index, h)
				}
			case "--extra-index-url":
				if h := urlHost(val); h != "" {
					extra = append(extra, h)
				}
			case "-e", "--editable":
				if r := parseReq(val); r.url != "" || r.name != "" {
					r.line = start
					reqs = append(reqs, r)
				}
			}
			continue
		}
		if j := strings.Index(l, " --"); j >= 0 { // per-requirement options (--hash)
			l = strings.TrimSpace(l[:j])
		}
		r := parseReq(l)
		r.line = start
		if r.name != "" || r.url != "" {
			reqs = append(reqs, r)
		}
	}
	return reqs, index, extra
}

func splitOption(l string) (string, string) {
	opt, val, ok := strings.Cut(l, "=")
	if !ok || strings.ContainsAny(opt, " \t") {
		opt, val, _ = strings.Cut(l, " ")
	}
	return strings.TrimSpace(opt), strings.TrimSpace(val)
}

// parseReq parses "name[extra]>=1,<2 ; marker", "name @ url" or a bare URL
// or path (name from #egg=).
func parseReq(s string) pyReq {
	if j := strings.Index(s, ";"); j >= 0 {
		s = strings.TrimSpace(s[:j])
	}
	if isDirectRef(s) {
		r := pyReq{url: s}
		if _, frag, ok := strings.Cut(s, "#egg="); ok {
			r.name, _, _ = strings.Cut(frag, "&")
		}
		return r
	}
	n := 0
	for n < len(s) && (isAlnum(s[n]) || (n > 0 && strings.IndexByte("._-", s[n]) >= 0)) {
		n++
	}
	r := pyReq{name: s[:n]}
	rest := strings.TrimSpace(s[n:])
	if strings.HasPrefix(rest, "[") {
		if j := strings.Index(rest, "]"); j >= 0 {
			rest = strings.TrimSpace(rest[j+1:])
		}
	}
	if strings.HasPrefix(rest, "@") {
		r.url = strings.TrimSpace(rest[1:])
		return r
	}
	r.spec = strings.Join(strings.Fields(strings.Trim(rest, "()")), "")
	return r
}

func isDirectRef(s string) bool {
	for _, p := range []string{"git+", "hg+", "svn+", "bzr+", "http://", "https://", "file:", ".", "/"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

func isAlnum(b byte) bool {
	return (b >= '0' && b <= '9') || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z')
}

// pySource classifies a direct reference. Building from a VCS checkout or an
// sdist runs the package's setup.py or build backend on the installing machine.
func pySource(u string) (src, host string, script bool) {
	switch {
	case u == "":
		return srcRegistry, "", false
	case strings.HasPrefix(u, "git+"), strings.HasPrefix(u, "hg+"), strings.HasPrefix(u, "svn+"), strings.HasPrefix(u, "bzr+"):
		return srcGit, urlHost(strings.SplitN(u, "+", 2)[1]), true
	case strings.HasPrefix(u, "http://"), strings.HasPrefix(u, "https://"):
		p, _, _ := strings.Cut(u, "#")
		return srcTarball, urlHost(u), !strings.HasSuffix(p, ".whl")
	}
	return srcPath, "", false
}

// indexRequirements indexes a requirements file: pinned entries by
// name@version, every entry by name. Registry entries resolve from the
// file's index URLs (pip's default index unless --index-url replaces it),
// joined: an --extra-index-url beside the default is how dependency
// confusion gets in.
func indexRequirements(text []byte) (*lockIndex, error) {
	ix := newLockIndex(text)
	ix.fold = pep503
	reqs, index, extra := parseRequirements(text)
	if len(index) == 0 { // --extra-index-url adds to pip's default index
		index = []string{pypiHost}
	}
	hosts := append(index, extra...)
	sort.Strings(hosts)
	host := strings.Join(uniq(hosts), ",")
	for _, r := range reqs {
		src, h, script := pySource(r.url)
		if src == srcRegistry {
			h = host
		}
		e := entry{line: r.line, installScript: script, source: src, host: h}
		if r.name == "" { // a bare path or URL: placed, not listed
			ix.add(r.name, pinnedVersion(r.spec), e)
			continue
		}
		ix.addOwn(ecoPyPI, r.name, pinnedVersion(r.spec), e)
	}
	return ix, nil
}

// pinnedVersion returns X of "==X" / "===X", "" otherwise.
func pinnedVersion(spec string) string {
	if strings.Contains(spec, ",") || strings.Contains(spec, "*") {
		return ""
	}
	if v, ok := strings.CutPrefix(spec, "==="); ok {
		return v
	}
	if v, ok := strings.CutPrefix(spec, "=="); ok {
		return v
	}
	return ""
}

func uniq(ss []string) []string {
	var out []string
	for i, s := range ss {
		if i == 0 || s != ss[i-1] {
			out = append(out, s)
		}
	}
	return out
}
