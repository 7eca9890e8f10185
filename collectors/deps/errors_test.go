package deps

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// npmChange is a repository whose work tree adds lodash@4.17.20 (vulnerable).
func npmChange(t *testing.T) *gitRepo {
	t.Helper()
	g := newGitRepo(t)
	g.copyDir(filepath.Join(fixtureDir, "npm", "base"), "")
	g.commit("base")
	lock := strings.Replace(readFixture(t, "npm/base/package-lock.json"), `"version": "1.3.0"`, `"version": "1.3.1"`, 1)
	g.write(map[string]string{"package-lock.json": lock})
	return g
}

// TestDBMissing: no database anywhere -> matching marked not done, the
// packages still reported, no error, nothing created on disk.
func TestDBMissing(t *testing.T) {
	g := npmChange(t)
	empty := t.TempDir()
	t.Setenv("TRIVY_CACHE_DIR", empty)
	for _, dir := range []string{"", filepath.Join(empty, "nowhere")} {
		d, errs, err := Scan(context.Background(), Options{Repo: g.dir, Base: "main", DBDir: dir})
		if err != nil || len(errs) > 0 {
			t.Fatal(err, errs)
		}
		if d.VulnMatched || !strings.HasPrefix(d.DBStatus, "missing: no trivy database at ") {
			t.Errorf("dir %q: matched=%v status=%q", dir, d.VulnMatched, d.DBStatus)
		}
		if want := filepath.Join(empty, "db", "trivy.db"); dir == "" && d.DBPath != want {
			t.Errorf("default db path = %q, want %q (from TRIVY_CACHE_DIR)", d.DBPath, want)
		}
		if len(d.Packages) != 1 || d.Packages[0].Change != "upgraded" {
			t.Errorf("packages = %v", summaries(d))
		}
	}
	if ents, _ := os.ReadDir(empty); len(ents) != 0 {
		t.Errorf("scan created %v in the cache dir", ents)
	}
}

// TestDBCacheLayout: --db accepts a trivy cache dir (db/trivy.db) as well
// as the db dir itself, and TRIVY_CACHE_DIR is trivy's default.
func TestDBCacheLayout(t *testing.T) {
	g := npmChange(t)
	dbDir := fixtureDB(t)
	cache := t.TempDir()
	if err := os.Symlink(dbDir, filepath.Join(cache, "db")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TRIVY_CACHE_DIR", cache)
	for _, dir := range []string{dbDir, cache, ""} {
		d, _, err := Scan(context.Background(), Options{Repo: g.dir, Base: "main", DBDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		if !d.VulnMatched || d.DBStatus != "ok" {
			t.Errorf("dir %q: matched=%v status=%q path=%q", dir, d.VulnMatched, d.DBStatus, d.DBPath)
		}
	}
}

// TestDBCorrupt: a damaged database is an errors[] entry and a plain status,
// never a crash, and the user's file is left where it was.
func TestDBCorrupt(t *testing.T) {
	g := npmChange(t)
	good, err := os.ReadFile(filepath.Join(fixtureDB(t), "trivy.db"))
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string][]byte{
		"garbage":   bytes.Repeat([]byte("not a bolt database\n"), 400),
		"truncated": good[:len(good)/3],
		"empty":     {},
		"zeroed":    make([]byte, len(good)),
	}
	for name, data := range tests {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "trivy.db")
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			d, errs, err := Scan(context.Background(), Options{Repo: g.dir, Base: "main", DBDir: dir})
			if err != nil {
				t.Fatal(err)
			}
			if d.VulnMatched || !strings.HasPrefix(d.DBStatus, "error: ") {
				t.Errorf("matched=%v status=%q", d.VulnMatched, d.DBStatus)
			}
			if len(errs) != 1 || errs[0].File != p || !strings.HasPrefix(errs[0].Message, "vulnerability database: ") {
				t.Errorf("errors = %+v", errs)
			}
			if after, err := os.ReadFile(p); err != nil || !bytes.Equal(after, data) {
				t.Errorf("database file changed or removed: %v", err)
			}
			if len(d.Packages) != 1 {
				t.Errorf("packages = %v", summaries(d))
			}
		})
	}
}

// TestDBSchemaMismatch: a database written for another schema is refused.
func TestDBSchemaMismatch(t *testing.T) {
	g := npmChange(t)
	dir := fixtureDB(t)
	if err := os.WriteFile(filepath.Join(dir, "metadata.json"), []byte(`{"Version":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	d, errs, _ := Scan(context.Background(), Options{Repo: g.dir, Base: "main", DBDir: dir})
	if d.VulnMatched || !strings.Contains(d.DBStatus, "schema version 1") || len(errs) != 1 {
		t.Errorf("status=%q errs=%v", d.DBStatus, errs)
	}
}

// TestBadLockfiles: unreadable and malformed files are errors[] entries
// naming file and line; the file is left out of both sides (so its packages
// are not all "removed") and the other files are still compared.
func TestBadLockfiles(t *testing.T) {
	cargoLock := readFixture(t, "cargo/head/Cargo.lock")
	tests := []struct {
		name  string
		write map[string]string
		dir   string // replace this path with a directory: unreadable even as root
		link  string // replace package-lock.json with a symlink to this
		want  []model.Error
	}{
		{
			name:  "package-lock not JSON",
			write: map[string]string{"package-lock.json": "{\n  \"lockfileVersion\": 3,\n  \"packages\": {\n    \"node_modules/a\": {,\n"},
			want:  []model.Error{{File: "package-lock.json", Line: 4, Message: "parse JSON: invalid character ',' looking for beginning of object key string"}},
		},
		{
			name:  "package-lock truncated",
			write: map[string]string{"package-lock.json": "{\n  \"packages\": {\n"},
			want:  []model.Error{{File: "package-lock.json", Line: 2, Message: "parse JSON: unexpected end of JSON"}},
		},
		{
			name:  "Cargo.lock not TOML",
			write: map[string]string{"Cargo.lock": strings.Replace(cargoLock, `name = "serde"`, `name = "serde`, 1)},
			want:  []model.Error{{File: "Cargo.lock", Line: 21, Message: "parse Cargo.lock: strings cannot contain newlines"}},
		},
		{
			name:  "poetry.lock not TOML",
			write: map[string]string{"poetry.lock": "[[package]]\nname = \"a\"\nversion = \n"},
			want:  []model.Error{{File: "poetry.lock", Line: 3, Message: "parse poetry.lock: expected value but found instead"}},
		},
		{
			name:  "pnpm-lock not YAML",
			write: map[string]string{"pnpm-lock.yaml": "lockfileVersion: '9.0'\npackages:\n  a@1.0.0: [\n"},
			want:  []model.Error{{File: "pnpm-lock.yaml", Line: 3, Message: "parse YAML: did not find expected node content"}},
		},
		{
			name:  "go.mod unknown directive",
			write: map[string]string{"go.mod": "module x\n\nrequire golang.org/x/text v0.3.7\nbogus line\n"},
			want:  []model.Error{{File: "go.mod", Line: 4, Message: "parse go.mod: unknown directive"}},
		},
		{
			name: "unreadable lockfile",
			dir:  "package-lock.json",
			want: []model.Error{{File: "package-lock.json", Message: "cannot read: a directory, not a regular file"}},
		},
		{
			name: "lockfile symlinked out of the repository",
			link: "/dev/zero",
			want: []model.Error{{File: "package-lock.json", Message: "cannot read: symlink not followed"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newGitRepo(t)
			g.copyDir(filepath.Join(fixtureDir, "npm", "base"), "")
			g.copyDir(filepath.Join(fixtureDir, "cargo", "base"), "")
			g.write(map[string]string{"go.mod": "module x\n\nrequire golang.org/x/text v0.3.8\n", "poetry.lock": "", "pnpm-lock.yaml": "lockfileVersion: '9.0'\n"})
			g.commit("base")
			g.write(map[string]string{"requirements.txt": "requests==2.30.0\n"}) // a good change beside the bad one
			g.write(tt.write)
			if tt.link != "" {
				g.remove("package-lock.json")
				if err := os.Symlink(tt.link, filepath.Join(g.dir, "package-lock.json")); err != nil {
					t.Fatal(err)
				}
			}
			if tt.dir != "" {
				g.remove(tt.dir)
				if err := os.Mkdir(filepath.Join(g.dir, tt.dir), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			d, errs, err := Scan(context.Background(), Options{Repo: g.dir, Base: "main", DBDir: fixtureDB(t)})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, sortedErrs(errs)); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
			want := []string{"pypi requests >2.30.0 added requirements.txt:1 registry host=>pypi.org vulns=CVE-2023-32681/medium/fix=2.31.0"}
			if diff := cmp.Diff(want, summaries(d)); diff != "" {
				t.Errorf("packages (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRepoConfigRunsNothing: a work tree whose .git/config the agent wrote
// (fsmonitor hook, external diff, textconv) gets none of them run.
func TestRepoConfigRunsNothing(t *testing.T) {
	g := npmChange(t)
	marker := filepath.Join(t.TempDir(), "ran")
	script := filepath.Join(t.TempDir(), "hook.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	g.run("config", "core.fsmonitor", script)
	g.run("config", "diff.external", script)
	g.run("config", "diff.lock.textconv", script)
	g.write(map[string]string{".gitattributes": "*.json diff=lock\n"})
	if _, _, err := Scan(context.Background(), Options{Repo: g.dir, Base: "main", DBDir: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("a command from the repository's config ran")
	}
}
