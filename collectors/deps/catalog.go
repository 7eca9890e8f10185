package deps

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/anchore/syft/syft/pkg"
	"github.com/anchore/syft/syft/pkg/cataloger/javascript"
	"github.com/anchore/syft/syft/pkg/cataloger/ruby"
	"github.com/anchore/syft/syft/source"
	"github.com/anchore/syft/syft/source/directorysource"
)

// syftPkg is one package syft found, with the side and file it came from.
type syftPkg struct {
	side    string // "base" | "head"
	file    string // slash path relative to the scanned directory
	eco     string
	name    string
	version string
	purl    string
}

// catalogers are syft's lockfile catalogers for the ecosystems it reads
// here (bySyft): nothing that reads installed trees, binaries or images,
// nothing that reaches a network.
func catalogers() []pkg.Cataloger {
	jscfg := javascript.DefaultCatalogerConfig()
	jscfg.SearchRemoteLicenses = false
	jscfg.IncludeDevDependencies = true // dev dependencies install (and run scripts) too
	return []pkg.Cataloger{
		javascript.NewLockCataloger(jscfg),
		ruby.NewGemFileLockCataloger(),
	}
}

// catalog runs the catalogers once over root, which holds base/ and head/
// copies of the dependency files to compare, and returns the packages found
// in files (side -> slash paths).
//
// The catalogers run directly on the directory source's resolver rather
// than through syft.CreateSBOM: CreateSBOM always adds a relationships task
// that enumerates the catalog several times, deep-copying every package by
// reflection — more than half the time of a 2,000-package diff — to build
// relationships this scan never reads. Without CreateSBOM no license
// scanner is built up front (the ~1.3 s that syft.SetContextLicenseScanner
// saves per CreateSBOM call): catalogers build one only on meeting a license
// file, and the tree cataloged here holds dependency files only. Importing
// the syft package for it would also link every cataloger and image source.
func catalog(ctx context.Context, root string, files map[string][]string, cs []pkg.Cataloger) ([]syftPkg, error) {
	// directorysource, not syft.GetSource: GetSource tries image and
	// registry providers before it gives up on a path.
	src, err := directorysource.New(directorysource.Config{Path: root, Base: root})
	if err != nil {
		return nil, fmt.Errorf("open catalog source: %w", err)
	}
	defer src.Close()
	res, err := src.FileResolver(source.SquashedScope)
	if err != nil {
		return nil, fmt.Errorf("open catalog source: %w", err)
	}
	want := map[string][2]string{}
	for side, paths := range files {
		for _, p := range paths {
			want["/"+side+"/"+p] = [2]string{side, p}
		}
	}
	var out []syftPkg
	for _, c := range cs {
		// Parse errors come back as syft "unknowns"; the lockfile parsers
		// of this package already reported them with their lines.
		pkgs, _, _ := c.Catalog(ctx, res)
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("catalog dependencies: %w", err)
		}
		for _, p := range pkgs {
			if p.Name == "" {
				continue
			}
			for _, l := range p.Locations.ToSlice() {
				w, ok := want[filepath.ToSlash(l.RealPath)]
				if !ok {
					continue
				}
				out = append(out, syftPkg{
					side: w[0], file: w[1], eco: p.Type.PackageURLType(),
					name: p.Name, version: p.Version, purl: p.PURL,
				})
			}
		}
	}
	return out, nil
}

// writeTree writes files (slash path -> content) under dir.
func writeTree(dir string, files map[string][]byte) error {
	for p, data := range files {
		abs := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
			return fmt.Errorf("write catalog copy: %w", err)
		}
		if err := os.WriteFile(abs, data, 0o600); err != nil {
			return fmt.Errorf("write catalog copy: %w", err)
		}
	}
	return nil
}
