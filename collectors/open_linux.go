package collectors

import (
	"errors"
	"os"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// noOpenat2 is set once openat2 proved missing (kernels before 5.6,
// sandboxes such as gVisor or an old seccomp profile that refuse it).
var noOpenat2 atomic.Bool

// openBeneath opens rel below the folder dirfd with one openat2: the kernel
// refuses a symlink in any component and any way out of the folder, so
// nothing swapped in after the walk listed the file is followed.
// O_NONBLOCK: opening a FIFO for reading would wait for a writer; the
// descriptor's mode check then refuses it.
func openBeneath(dirfd int, rel string) (*os.File, error) {
	if !noOpenat2.Load() {
		fd, err := unix.Openat2(dirfd, rel, &unix.OpenHow{
			Flags:   unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_CLOEXEC | unix.O_NOCTTY,
			Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
		})
		if err == nil {
			return os.NewFile(uintptr(fd), rel), nil
		}
		if !errors.Is(err, unix.ENOSYS) && !errors.Is(err, unix.EPERM) {
			return nil, err
		}
		noOpenat2.Store(true)
	}
	return openWalk(dirfd, rel)
}
