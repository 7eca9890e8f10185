package deps

import (
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/model"
)

var exactSemver = regexp.MustCompile(`^=?\s*v?\d+\.\d+\.\d+([-+][0-9A-Za-z.+-]*)?$`)

// rangeKind classifies a requirement as written in eco's manifest. skip is
// true for requirements that are not version ranges at all (git URLs, local
// paths, aliases): the source rules judge those.
func rangeKind(eco string, d decl) (pinned, unbounded, skip bool) {
	s := strings.TrimSpace(d.spec)
	if s == "" && d.bareOK {
		return false, false, false
	}
	if strings.HasPrefix(s, "@") || strings.HasPrefix(s, "git:") || strings.HasPrefix(s, "path:") || s == "workspace" {
		return false, false, true
	}
	switch eco {
	case ecoNPM, ecoComposer:
		if strings.Contains(s, ":") || strings.Contains(s, "/") {
			return false, false, true // git+, file:, npm: alias, workspace:, user/repo
		}
		if exactSemver.MatchString(s) {
			return true, false, false
		}
		return false, s == "" || s == "*" || s == "x" || s == "X" || isTag(s) || strings.HasPrefix(s, "dev-") || onlyLower(s), false
	case ecoPyPI:
		if d.exact && exactSemver.MatchString(s) { // Poetry: "1.2.3" means ==1.2.3
			return true, false, false
		}
		if pinnedVersion(s) != "" {
			return true, false, false
		}
		return false, s == "" || s == "*" || onlyLower(s), false
	case ecoCargo:
		if strings.HasPrefix(s, "=") && !strings.HasPrefix(s, "==") && !strings.Contains(s, ",") {
			return true, false, false
		}
		return false, s == "" || s == "*" || onlyLower(s), false
	case ecoGem:
		if !strings.Contains(s, ",") && (exactSemver.MatchString(strings.TrimPrefix(s, "= ")) || exactSemver.MatchString(s)) {
			return true, false, false
		}
		return false, onlyLower(s), false
	}
	return false, false, true // Go: go.mod has no ranges
}

// isTag: an npm dist-tag such as "latest" or "next" follows whatever the
// publisher tags next.
func isTag(s string) bool {
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' || r == '_') {
			return false
		}
	}
	return s != "x" && s != "X" && !strings.HasPrefix(s, "v")
}

// onlyLower: lower bounds or exclusions only (">=1.2", ">1, !=1.5"): any
// future release satisfies it.
func onlyLower(s string) bool {
	if strings.Contains(s, "||") || strings.Contains(s, "<") || strings.TrimSpace(s) == "" {
		return false
	}
	has := false
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		switch {
		case strings.HasPrefix(part, ">"):
			has = true
		case strings.HasPrefix(part, "!="):
		default:
			return false
		}
	}
	return has
}

// manifestSignals compares the declarations of one manifest between the
// sides: ranges widened, and whether anything it declares changed.
func manifestSignals(eco, file string, base, head decls) (widened []model.WidenedRange, firstChange int, changed bool) {
	keys := make([]string, 0, len(head))
	for k := range head {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	firstChange = 0
	for _, k := range keys {
		h := head[k]
		b, had := base[k]
		if had && b.spec == h.spec {
			continue
		}
		changed = true
		if firstChange == 0 || h.line < firstChange {
			firstChange = h.line
		}
		hp, hu, hs := rangeKind(eco, h)
		if hs {
			continue
		}
		bp, bu, bs := rangeKind(eco, b)
		if (had && !bs && bp && !hp) || (hu && (!had || !bu)) {
			widened = append(widened, model.WidenedRange{
				Ecosystem: eco, Name: declName(k), From: b.spec, To: h.spec,
				Loc: model.Loc{File: file, Line: h.line},
			})
		}
	}
	for k := range base {
		if _, ok := head[k]; !ok {
			changed = true
		}
	}
	if changed && firstChange == 0 {
		firstChange = 1
	}
	return widened, firstChange, changed
}

// isManifestName reports whether a base name is a manifest with a lockfile.
func isManifestName(p string) bool {
	_, ok := lockfilesFor[path.Base(p)]
	return ok
}
