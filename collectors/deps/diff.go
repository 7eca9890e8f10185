package deps

import (
	"sort"
	"strings"

	gem "github.com/aquasecurity/go-gem-version"
	npm "github.com/aquasecurity/go-npm-version/pkg"
	pep440 "github.com/aquasecurity/go-pep440-version"
	"github.com/aquasecurity/go-version/pkg/version"
	"golang.org/x/mod/semver"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// rec is one package version on one side, with what its lockfile says.
type rec struct {
	eco, name, version, purl, file string
	e                              entry
}

// pkgKey groups versions of one package in one file: a lockfile in another
// folder is another project, whose packages are new to it.
type pkgKey struct{ file, eco, name string }

func group(rs []rec) map[pkgKey][]rec {
	m := map[pkgKey][]rec{}
	for _, r := range rs {
		k := pkgKey{r.file, r.eco, r.name}
		dup := false
		for _, o := range m[k] {
			dup = dup || o.version == r.version
		}
		if !dup {
			m[k] = append(m[k], r)
		}
	}
	// A versionless entry beside versioned ones of the same name is a link
	// to them (npm workspace links): one package, not two.
	for k, rs := range m {
		if len(rs) < 2 {
			continue
		}
		kept := rs[:0]
		for _, r := range rs {
			if r.version != "" {
				kept = append(kept, r)
			}
		}
		m[k] = kept
	}
	return m
}

// diff compares the two sides by ecosystem and name. Versions present on
// both sides are unchanged unless their source or registry host moved;
// the other versions pair up in version order (a lockfile can hold several
// versions of one name) into upgrades and downgrades, the rest are added or
// removed.
func diff(base, head []rec) []model.DepPackage {
	bg, hg := group(base), group(head)
	keys := map[pkgKey]bool{}
	for k := range bg {
		keys[k] = true
	}
	for k := range hg {
		keys[k] = true
	}
	var out []model.DepPackage
	for k := range keys {
		bs, hs := bg[k], hg[k]
		byVer := map[string]rec{}
		for _, b := range bs {
			byVer[b.version] = b
		}
		var added, removed []rec
		inHead := map[string]bool{}
		for _, h := range hs {
			inHead[h.version] = true
			b, ok := byVer[h.version]
			switch {
			case !ok:
				added = append(added, h)
			case b.e.source != h.e.source || b.e.host != h.e.host:
				out = append(out, pair(&b, &h, "source-changed"))
			}
		}
		for _, b := range bs {
			if !inHead[b.version] {
				removed = append(removed, b)
			}
		}
		less := func(rs []rec) func(i, j int) bool {
			return func(i, j int) bool { return compareVersions(k.eco, rs[i].version, rs[j].version) < 0 }
		}
		sort.SliceStable(added, less(added))
		sort.SliceStable(removed, less(removed))
		for i := 0; i < len(added) || i < len(removed); i++ {
			switch {
			case i >= len(removed):
				out = append(out, pair(nil, &added[i], "added"))
			case i >= len(added):
				out = append(out, pair(&removed[i], nil, "removed"))
			case added[i].version == "" || removed[i].version == "":
				// A local replace or link has no version to order by; an
				// unpinned requirement is a widened range, reported as such.
				if added[i].e.source != removed[i].e.source || added[i].e.host != removed[i].e.host {
					out = append(out, pair(&removed[i], &added[i], "source-changed"))
				}
			case compareVersions(k.eco, added[i].version, removed[i].version) < 0:
				out = append(out, pair(&removed[i], &added[i], "downgraded"))
			default:
				out = append(out, pair(&removed[i], &added[i], "upgraded"))
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.Version < b.Version
	})
	return out
}

func pair(b, h *rec, change string) model.DepPackage {
	p := model.DepPackage{Change: change, Vulnerabilities: []model.DepVuln{}}
	if b != nil {
		p.Ecosystem, p.Name, p.PURL = b.eco, b.name, b.purl
		p.PreviousVersion = b.version
		p.PreviousInstallScript = b.e.installScript
		p.PreviousSource = b.e.source
		p.PreviousResolvedHost = b.e.host
		p.Loc = model.Loc{File: b.file, Line: b.e.line}
	}
	if h != nil {
		p.Ecosystem, p.Name, p.PURL = h.eco, h.name, h.purl
		p.Version = h.version
		p.InstallScript = h.e.installScript
		p.Source = h.e.source
		p.ResolvedHost = h.e.host
		p.Loc = model.Loc{File: h.file, Line: h.e.line}
	}
	return p
}

// compareVersions orders two versions with the ecosystem's own rules, and
// falls back to a plain string order for versions those rules reject.
func compareVersions(eco, a, b string) int {
	if c, ok := compareEco(eco, a, b); ok {
		return c
	}
	return strings.Compare(a, b)
}

func compareEco(eco, a, b string) (int, bool) {
	switch eco {
	case ecoGo:
		va, vb := "v"+strings.TrimPrefix(a, "v"), "v"+strings.TrimPrefix(b, "v")
		if semver.IsValid(va) && semver.IsValid(vb) {
			return semver.Compare(va, vb), true
		}
	case ecoNPM:
		va, e1 := npm.NewVersion(a)
		vb, e2 := npm.NewVersion(b)
		if e1 == nil && e2 == nil {
			return va.Compare(vb), true
		}
	case ecoPyPI:
		va, e1 := pep440.Parse(a)
		vb, e2 := pep440.Parse(b)
		if e1 == nil && e2 == nil {
			return va.Compare(vb), true
		}
	case ecoGem:
		va, e1 := gem.NewVersion(a)
		vb, e2 := gem.NewVersion(b)
		if e1 == nil && e2 == nil {
			return va.Compare(vb), true
		}
	}
	va, e1 := version.Parse(a)
	vb, e2 := version.Parse(b)
	if e1 == nil && e2 == nil {
		return va.Compare(vb), true
	}
	return 0, false
}
