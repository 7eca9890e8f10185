package deps

import (
	"bytes"
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io/fs"
	"slices"
	"strconv"
	"strings"
)

// workChanges lists the dependency files that differ between base and the
// work tree without git ever looking at the work tree, which would hash
// files through the repository's clean filters (gitenv.go). Base's files
// come from its tree (ls-tree), the work tree's names from the index and
// the untracked files git does not ignore (ls-files: it reads .gitignore,
// hashes nothing), their content from the files, read here and hashed as a
// git blob. Git's own view is kept where it has one: a tracked file git does
// not look for in the work tree (skip-worktree, assume-unchanged) is its
// index blob; a file tracked at base but neither tracked nor untracked now
// was deleted.
//
// One difference stays: git would store a file through its attributes
// (eol conversion, working-tree-encoding, filters) and this hashes the
// bytes on disk. A file whose only difference is CRLF line ends (a checkout
// with core.autocrlf) is unchanged here too; any other conversion makes a
// file changed, and the comparison of its content (the same packages on
// both sides) then finds nothing.
func (r *repo) workChanges(ctx context.Context, base string) ([]string, error) {
	tree, err := r.git(ctx, "ls-tree", "-r", "-z", base, "--")
	if err != nil {
		return nil, fmt.Errorf("list files at base: %w", err)
	}
	baseIDs := map[string]string{}
	for _, ent := range bytes.Split(tree, []byte{0}) {
		// "<mode> <type> <oid>\t<path>"
		meta, p, ok := strings.Cut(string(ent), "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 || f[1] != "blob" {
			continue
		}
		if _, dep := kindOf(p); dep {
			baseIDs[p] = f[2]
		}
	}
	listed, err := r.git(ctx, "ls-files", "-z", "-v", "--stage", "--cached", "--others", "--exclude-standard", "--", ".")
	if err != nil {
		return nil, fmt.Errorf("list work-tree files: %w", err)
	}
	onDisk := map[string]bool{} // tracked or untracked, to be read from disk
	r.indexOnly = map[string]string{}
	for _, ent := range bytes.Split(listed, []byte{0}) {
		// "<tag> <mode> <oid> <stage>\t<path>" for the index, "? <path>" for others
		tag, rest, ok := strings.Cut(string(ent), " ")
		if !ok {
			continue
		}
		p := rest
		var f []string
		if tag != "?" {
			meta, path, ok := strings.Cut(rest, "\t")
			if f = strings.Fields(meta); !ok || len(f) != 3 {
				continue
			}
			p = path
		}
		if _, dep := kindOf(p); !dep {
			continue
		}
		switch {
		case tag == "?":
			onDisk[p] = true
		case f[0] == "160000":
			// a submodule: not a file
		case (tag == "S" || tag == "s" || tag != strings.ToUpper(tag)) && f[2] == "0":
			r.indexOnly[p] = f[1]
		default:
			onDisk[p] = true
			delete(r.indexOnly, p) // an unmerged path's other stages
		}
	}
	names := make([]string, 0, len(baseIDs)+len(onDisk)+len(r.indexOnly))
	for _, m := range []map[string]string{baseIDs, r.indexOnly} {
		for p := range m {
			names = append(names, p)
		}
	}
	for p := range onDisk {
		names = append(names, p)
	}
	slices.Sort(names)
	names = slices.Compact(names)

	r.worktree = map[string][]byte{}
	var changed []string
	for _, p := range names {
		b, inBase := baseIDs[p]
		if oid, ok := r.indexOnly[p]; ok && !onDisk[p] {
			if oid != b {
				changed = append(changed, p)
			}
			continue
		}
		if !onDisk[p] {
			changed = append(changed, p) // tracked at base, not now
			continue
		}
		data, err := r.work.ReadFile(ctx, p, maxFileSize)
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case errors.Is(err, fs.ErrNotExist):
			if inBase {
				changed = append(changed, p) // deleted from the work tree
			}
			continue
		case err != nil:
			// A symlink, a FIFO, a file over the cap: changed, so that
			// reading it names the fault in errors[].
			changed = append(changed, p)
			continue
		}
		if inBase && sameBlob(data, b) {
			continue
		}
		changed = append(changed, p)
		r.worktree[p] = data
	}
	return changed, nil
}

// sameBlob says whether data, stored by git, would be the blob oid — as it
// is, or with CRLF line ends made LF (core.autocrlf, eol attributes).
func sameBlob(data []byte, oid string) bool {
	if blobID(data, len(oid)) == oid {
		return true
	}
	if bytes.Contains(data, []byte("\r\n")) {
		return blobID(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")), len(oid)) == oid
	}
	return false
}

// blobID is the object id git gives data as a blob, in the repository's
// object format (told by the length of its ids: SHA-1 or SHA-256).
func blobID(data []byte, hexLen int) string {
	var h hash.Hash
	if hexLen == 64 {
		h = sha256.New()
	} else {
		h = sha1.New()
	}
	h.Write([]byte("blob " + strconv.Itoa(len(data)) + "\x00"))
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}

// blob reads one blob by id (an index entry's), capped.
func (r *repo) blob(ctx context.Context, oid string) ([]byte, error) {
	out, err := r.git(ctx, "cat-file", "blob", oid)
	if err != nil {
		return nil, fmt.Errorf("read blob %s: %w", short(oid), err)
	}
	if len(out) > maxFileSize {
		return nil, fmt.Errorf("larger than %d MB", maxFileSize>>20)
	}
	return out, nil
}
