package live

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/sandbox-audit/sandbox-audit/collectors"
)

// maxRead bounds one file read: live files are small (proc entries, configs,
// credential files), and a huge "credentials" file is either junk or a trap.
const maxRead = 4 << 20

var errNotRegular = errors.New("not a regular file")

// rootFS reads paths as the sandbox sees them ("/proc/self/status") from a
// root directory. For the real root "/" the kernel resolves paths; for any
// other root, symlinks are resolved inside the root the way chroot would, so
// an absolute link in a fixture or another container's filesystem
// (/var/run -> /run) never makes the audit read the host.
type rootFS struct {
	dir string // absolute, cleaned
}

func newRootFS(dir string) (rootFS, error) {
	if dir == "" {
		dir = "/"
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return rootFS{}, fmt.Errorf("resolve root: %w", err)
	}
	return rootFS{dir: abs}, nil
}

func (r rootFS) real() bool { return r.dir == "/" }

// join maps an in-root path to a host path without resolving links.
func (r rootFS) join(p string) string {
	return filepath.Join(r.dir, filepath.FromSlash(path.Clean("/"+p)))
}

// resolve maps an in-root path to a host path, resolving every symlink
// inside the root; the last component is followed only when followLast.
func (r rootFS) resolve(p string, followLast bool) (string, error) {
	if r.real() {
		return path.Clean("/" + p), nil
	}
	rest := strings.Split(path.Clean("/"+p), "/")
	cur := "/"
	for hops := 0; len(rest) > 0; {
		c := rest[0]
		rest = rest[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			cur = path.Dir(cur)
			continue
		}
		next := path.Join(cur, c)
		if len(rest) == 0 && !followLast {
			cur = next
			break
		}
		fi, err := os.Lstat(r.join(next))
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			cur = next
			continue
		}
		if hops++; hops > 40 {
			return "", syscall.ELOOP
		}
		target, err := os.Readlink(r.join(next))
		if err != nil {
			return "", err
		}
		if path.IsAbs(target) {
			cur = "/"
		}
		rest = append(strings.Split(target, "/"), rest...)
	}
	return r.join(cur), nil
}

// readFile reads a regular file (proc and sys entries included). Anything
// else — a FIFO that would block, a directory, a device — is refused, and a
// file system that stops answering costs collectors.ReadTimeout, not the
// audit.
func (r rootFS) readFile(p string) ([]byte, error) {
	hp, err := r.resolve(p, true)
	if err != nil {
		return nil, err
	}
	data, err := collectors.ReadOpened(context.Background(), hp, maxRead, func() (*os.File, error) {
		// O_NONBLOCK: opening a FIFO for reading would otherwise wait for
		// a writer; the mode check then refuses it.
		return os.OpenFile(hp, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	})
	if errors.Is(err, collectors.ErrNotRegular) {
		return nil, errNotRegular
	}
	return data, err
}

// stat follows the last symlink; sockets and FIFOs are checked by mode
// before anything opens them.
func (r rootFS) stat(p string) (fs.FileInfo, error) {
	hp, err := r.resolve(p, true)
	if err != nil {
		return nil, err
	}
	return os.Stat(hp)
}

func (r rootFS) lstat(p string) (fs.FileInfo, error) {
	hp, err := r.resolve(p, false)
	if err != nil {
		return nil, err
	}
	return os.Lstat(hp)
}

func (r rootFS) readDir(p string) ([]fs.DirEntry, error) {
	hp, err := r.resolve(p, true)
	if err != nil {
		return nil, err
	}
	return os.ReadDir(hp)
}

// reason is collectors.Reason with the errors the live reads meet besides.
func reason(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	case errors.Is(err, errNotRegular):
		return errNotRegular.Error()
	case errors.Is(err, syscall.EINVAL):
		return "not supported by the kernel"
	case errors.Is(err, syscall.ELOOP):
		return "too many symlinks"
	}
	return collectors.Reason(err)
}
