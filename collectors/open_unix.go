//go:build unix

package collectors

import (
	"os"
	"strings"

	"golang.org/x/sys/unix"
)

// openNoFollow opens path for reading without following its last
// component.
func openNoFollow(path string) (*os.File, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC|unix.O_NOCTTY, 0)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), path), nil
}

// openWalk opens rel below dirfd one component at a time, each with
// O_NOFOLLOW: what openat2 does in one call where it is missing.
func openWalk(dirfd int, rel string) (*os.File, error) {
	parts := strings.Split(rel, "/")
	fd := dirfd
	for i, p := range parts {
		if p == "" || p == "." || p == ".." {
			if fd != dirfd {
				unix.Close(fd)
			}
			return nil, unix.EXDEV
		}
		flags := unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_CLOEXEC | unix.O_NOCTTY
		if i < len(parts)-1 {
			flags |= unix.O_DIRECTORY
		} else {
			flags |= unix.O_NONBLOCK
		}
		next, err := unix.Openat(fd, p, flags, 0)
		if err == unix.ENOTDIR {
			// O_DIRECTORY|O_NOFOLLOW on a symlink says ENOTDIR; say
			// what openat2 says.
			var st unix.Stat_t
			if unix.Fstatat(fd, p, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK {
				err = unix.ELOOP
			}
		}
		if fd != dirfd {
			unix.Close(fd)
		}
		if err != nil {
			return nil, err
		}
		fd = next
	}
	return os.NewFile(uintptr(fd), rel), nil
}

func (d *Dir) open(rel string) (*os.File, error) { return openBeneath(d.fd, rel) }
