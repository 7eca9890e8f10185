package github

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/internal/ghtest"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// collectFiles reads a repository (its files too) through c.
func collectFiles(t *testing.T, s *ghtest.Server, repo, tok string, c *Cache) (*model.Repository, map[string]string) {
	t.Helper()
	dir := t.TempDir()
	r, errs, err := Collect(context.Background(), Options{Owner: "o", Repo: repo, APIURL: s.APIURL(), Token: tok, Cache: c,
		Files: dir, Match: func(string) bool { return true }})
	if err != nil || len(errs) > 0 {
		t.Fatalf("%s: %v %v", repo, err, errs)
	}
	files := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			files[filepath.ToSlash(rel)] = string(b)
		}
		return nil
	})
	return r, files
}

// TestCacheConditionalRequests: the second audit of a repository sends
// each request with the ETag of the first's answer, gets 304 for every
// one, asks for no blob at all, and reads the same facts; an answer that
// changed (a new ETag) is used, and so is a changed file (a new blob).
// Nothing of the token is written.
func TestCacheConditionalRequests(t *testing.T) {
	repo := *bypassed
	repo.Files = map[string]string{".github/workflows/a.yml": "on: push\n", ".mcp.json": "{}\n"}
	s := ghtest.New(t, token, map[string]*ghtest.Repo{"o/r": &repo})
	s.Installations["o"] = `{"total_count": 0, "installations": []}`
	dir := t.TempDir()
	c, err := OpenCache(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	first, firstFiles := collectFiles(t, s, "r", token, c)
	n1 := s.Total
	if s.NotModified != 0 || c.Stats().Stored == 0 {
		t.Fatalf("first run: %d not modified, %+v", s.NotModified, c.Stats())
	}

	// A second process: the cache is read from the directory.
	c2, _ := OpenCache(dir, 0)
	second, secondFiles := collectFiles(t, s, "r", token, c2)
	n2 := s.Total - n1
	if d := cmp.Diff(first, second); d != "" {
		t.Errorf("the cached audit differs (-first +second):\n%s", d)
	}
	if d := cmp.Diff(firstFiles, secondFiles); d != "" {
		t.Errorf("the cached files differ (-first +second):\n%s", d)
	}
	if st := c2.Stats(); s.NotModified != n2 || int64(n2) != st.NotModified || st.Fresh != 2 || n2 != n1-2 {
		t.Errorf("second run: %d requests (first %d), %d answered 304; cache %+v (want every request a 304 and both blobs without one)", n2, n1, s.NotModified, st)
	}

	// The settings and a file change: the new answers are used.
	repo.WorkflowPermissions = `{"default_workflow_permissions": "write", "can_approve_pull_request_reviews": true}`
	repo.Files[".mcp.json"] = `{"mcpServers": {}}` + "\n"
	third, thirdFiles := collectFiles(t, s, "r", token, c2)
	if third.Actions.DefaultPermissions != "write" || !*third.Actions.CanApprovePRs {
		t.Errorf("a changed answer was not used: %+v", third.Actions)
	}
	if thirdFiles[".mcp.json"] != `{"mcpServers": {}}`+"\n" {
		t.Errorf("a changed file was not used: %q", thirdFiles[".mcp.json"])
	}

	// Another token shares nothing: every answer is asked for whole.
	other := "ghp_An0therT0kenNeverPrinted0123456789ab"
	s.Token = other
	before, nm := s.Total, s.NotModified
	collectFiles(t, s, "r", other, c2)
	if s.NotModified != nm || s.Total-before != n1 {
		t.Errorf("another token: %d requests, %d answered 304 (want %d, none)", s.Total-before, s.NotModified-nm, n1)
	}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if st, _ := d.Info(); st.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s is readable by others: %v", p, st.Mode())
		}
		b, _ := os.ReadFile(p)
		for _, tok := range []string{token, other, strings.TrimPrefix(token, "ghp_"), "/repos/o/r"} {
			if strings.Contains(string(b), tok) {
				t.Errorf("%s holds %q", p, tok)
			}
		}
		return nil
	})
}

// TestCacheBounded: past its size the entries used least recently go.
func TestCacheBounded(t *testing.T) {
	repos := map[string]*ghtest.Repo{}
	names := strings.Split("abcdefghij", "")
	for _, n := range names {
		r := *hardened
		r.Files = map[string]string{"big.json": strings.Repeat(n, 3900)}
		repos["o/"+n] = &r
	}
	s := ghtest.New(t, token, repos)
	s.Installations["o"] = `{"total_count": 0, "installations": []}`
	dir := t.TempDir()
	c, _ := OpenCache(dir, 8*4096) // an entry may take an eighth: 4 KiB
	for _, n := range names {
		collectFiles(t, s, n, token, c)
	}
	var total, files int64
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			st, _ := d.Info()
			total += st.Size()
			files++
		}
		return nil
	})
	if total > 8*4096 || files >= c.Stats().Stored {
		t.Errorf("the cache holds %d bytes in %d files (bound %d bytes, %d stored)", total, files, 8*4096, c.Stats().Stored)
	}
	// The newest repository's answers are kept, the oldest's are not (but
	// for the organisation's installations, which every one uses).
	before := s.NotModified
	collectFiles(t, s, "j", token, c)
	newest := s.NotModified - before
	before = s.NotModified
	collectFiles(t, s, "a", token, c)
	oldest := s.NotModified - before
	if newest < 5 || oldest > 1 {
		t.Errorf("304s: %d for the repository used last, %d for the one used first", newest, oldest)
	}
}
