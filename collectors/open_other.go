//go:build !unix

package collectors

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// Without openat (Windows, Plan 9) a path is checked with Lstat, component
// by component, before it is opened: the window between the two stays.

var errSymlink = errors.New("symlink not followed")

func openNoFollow(path string) (*os.File, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if st.Mode()&os.ModeSymlink != 0 {
		return nil, errSymlink
	}
	return os.Open(path)
}

func (d *Dir) open(rel string) (*os.File, error) {
	p := d.path
	for _, c := range strings.Split(rel, "/") {
		if c == "" || c == "." || c == ".." {
			return nil, errors.New("path leaves the folder")
		}
		p = filepath.Join(p, c)
		if st, err := os.Lstat(p); err == nil && st.Mode()&os.ModeSymlink != 0 {
			return nil, errSymlink
		}
	}
	return os.Open(p)
}
