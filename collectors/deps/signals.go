package deps

import (
	"path"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// purl builds a package URL for entries syft did not report.
func purl(eco, name, version string) string {
	p := "pkg:" + eco + "/" + name
	if eco == ecoPyPI {
		p = "pkg:pypi/" + pep503(name)
	}
	if version != "" {
		p += "@" + version
	}
	return p
}

// manifestChanges fills the manifest-level signals.
func manifestChanges(d *model.Deps, base, head *side, changed map[string]bool) {
	for _, p := range d.ChangedFiles {
		k, _ := kindOf(p)
		_, inBase := base.files[p]
		_, inHead := head.files[p]
		if k.lockfile && inBase && !inHead {
			d.RemovedLockfiles = append(d.RemovedLockfiles, model.ManifestChange{
				Ecosystem: k.eco, Lockfile: p, Manifest: nearestManifest(p, head), Loc: model.Loc{File: p, Line: 1},
			})
		}
		if !k.manifest || !inHead {
			continue
		}
		hd := parseManifest(p, head.files[p])
		if hd == nil {
			continue
		}
		bd := parseManifest(p, base.files[p])
		widened, first, declChanged := manifestSignals(k.eco, p, bd, hd)
		d.WidenedRanges = append(d.WidenedRanges, widened...)
		if !declChanged || !isManifestName(p) {
			continue
		}
		for _, lf := range lockCandidates(p) {
			if _, ok := head.files[lf]; !ok && !head.present[lf] {
				continue
			}
			if !changed[lf] {
				d.ManifestsWithoutLockfile = append(d.ManifestsWithoutLockfile, model.ManifestChange{
					Ecosystem: k.eco, Lockfile: lf, Manifest: p, Loc: model.Loc{File: p, Line: first},
				})
			}
			break
		}
	}
}

func nearestManifest(lockfile string, head *side) string {
	for name, lf := range lockfilesFor {
		for _, n := range lf.names {
			if n == path.Base(lockfile) {
				m := path.Join(path.Dir(lockfile), name)
				if _, ok := head.files[m]; ok {
					return m
				}
			}
		}
	}
	return ""
}
