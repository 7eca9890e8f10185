package live

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"time"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// maxWalk bounds the old-file walk so the audit stays fast on a machine
// with large homes; a truncated walk says so.
const maxWalk = 4000

// walkSkip are directories not descended into: caches (reported on their
// own), VCS internals and dependency trees that a checkout or install
// rewrites anyway.
var walkSkip = map[string]bool{
	".git": true, "node_modules": true, ".cache": true, "go": true, ".npm": true, ".cargo": true,
	".rustup": true, ".m2": true, ".gradle": true, ".pnpm-store": true, ".venv": true, "venv": true,
	"__pycache__": true, ".nuget": true, ".bun": true, ".local": true, "snap": true,
}

// oldFiles counts regular files in the workspace, homes and temp
// directories that were modified inside this environment before the task.
func (c *collector) oldFiles(before func(time.Time) bool) {
	r := &c.live.Reuse
	roots := append(c.workspaces(), c.homeDirs()...)
	// Workspace first: when the walk budget runs out, what matters most was seen.
	roots = append(roots, "/tmp", "/var/tmp")
	var examples []string
	visited := map[string]bool{}
	for _, root := range roots {
		if visited[root] || r.Truncated {
			continue
		}
		hp, err := c.fs.resolve(root, true)
		if err != nil {
			continue
		}
		visited[root] = true
		_ = filepath.WalkDir(hp, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if r.Walked >= maxWalk {
				r.Truncated = true
				return fs.SkipAll
			}
			r.Walked++
			rel, _ := filepath.Rel(hp, p)
			inRoot := path.Join(root, filepath.ToSlash(rel))
			if d.IsDir() {
				if p != hp && (walkSkip[d.Name()] || visited[inRoot]) {
					return fs.SkipDir
				}
				visited[inRoot] = true
				return nil
			}
			if !d.Type().IsRegular() {
				return nil
			}
			fi, err := d.Info()
			if err != nil || !before(fi.ModTime()) {
				return nil
			}
			r.OldFiles++
			examples = append(examples, inRoot)
			return nil
		})
	}
	sort.Strings(examples)
	if len(examples) > 5 {
		examples = examples[:5]
	}
	r.OldFileExamples = examples
}

// canaryTool marks a file as ours, so a stray file at the path is not
// taken for proof of reuse.
const canaryTool = "sandbox-audit-canary/v1"

// canaryMarker is what --canary leaves behind. It holds no secret: the
// nonce only tells one run's marker from another's.
type canaryMarker struct {
	Tool      string `json:"tool"`
	Nonce     string `json:"nonce"`
	WrittenAt string `json:"written_at"`
	BootID    string `json:"boot_id"`
}

// canary reads a marker left by an earlier run, then leaves a new one.
// Finding one proves that this filesystem outlived an earlier task.
func (c *collector) canary() {
	if c.opt.Canary == "" {
		return
	}
	p := path.Clean("/" + c.opt.Canary)
	cn := &model.Canary{Path: p, Loc: loc("reuse")}
	c.live.Reuse.Canary = cn
	if data, err := c.fs.readFile(p); err == nil {
		var m canaryMarker
		if json.Unmarshal(data, &m) == nil && m.Tool == canaryTool {
			cn.FoundPrevious = true
			cn.PreviousNonce, cn.PreviousWrittenAt, cn.PreviousBootID = m.Nonce, m.WrittenAt, m.BootID
		} else {
			cn.Error = "a file that is not a canary marker is in the way; not overwritten"
			return
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		cn.Error = "read marker: " + reason(err)
		return
	}
	var nonce [16]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		cn.Error = "make nonce: " + err.Error()
		return
	}
	m := canaryMarker{Tool: canaryTool, Nonce: hex.EncodeToString(nonce[:]), WrittenAt: c.now.UTC().Format(time.RFC3339Nano), BootID: c.live.Reuse.BootID}
	data, _ := json.Marshal(m)
	if err := c.writeMarker(p, data); err != nil {
		cn.Error = "write marker: " + reason(err)
		return
	}
	cn.Written, cn.Nonce = true, m.Nonce
}

// writeMarker writes atomically (temp file + rename) inside the root, so
// two concurrent runs never leave half a marker.
func (c *collector) writeMarker(p string, data []byte) error {
	dir := path.Dir(p)
	hd, err := c.fs.resolve(dir, true)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(c.fs.join(dir), 0o700); err != nil {
			return err
		}
		hd, err = c.fs.resolve(dir, true)
	}
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(hd, ".canary-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), filepath.Join(hd, path.Base(p)))
}
