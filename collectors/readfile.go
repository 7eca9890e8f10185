package collectors

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync/atomic"
	"time"
)

// Every file the tool audits or is configured by is read here: opened once,
// never through a symlink, checked as a regular file on the open descriptor,
// read through a size cap and within a deadline. Checking a path and then
// reading it (Lstat, then ReadFile) leaves a window in which the file can
// be swapped for a symlink to /etc/shadow or for a FIFO that blocks the
// scan for ever; checking the descriptor that is read closes it.

// ReadTimeout is how long a read may go without progress before it is given
// up: a configuration file answers in microseconds, and a file on a FUSE or
// NFS mount that does not answer must not hang the scan. The read that was
// given up goes on in the background until the kernel answers.
var ReadTimeout = 10 * time.Second

var (
	// ErrNotRegular: the path is a FIFO, socket, device or directory.
	ErrNotRegular = errors.New("not a regular file")
	// ErrTimeout: the file system did not answer within ReadTimeout.
	ErrTimeout = errors.New("no answer from the file system (read timed out)")
)

// TooLargeError is a file over the size cap; Size is -1 when the file grew
// past the cap while it was read (its stat size said less).
type TooLargeError struct {
	Size, Limit int64
}

func (e *TooLargeError) Error() string {
	if e.Size < 0 {
		return fmt.Sprintf("more than the %d-byte limit", e.Limit)
	}
	return fmt.Sprintf("%d bytes is over the %d-byte limit", e.Size, e.Limit)
}

// ReadFile reads the regular file at path, at most max bytes. Its last
// component is never followed when it is a symlink; the folders above it are
// the caller's (a path the user typed). Errors are *fs.PathError naming the
// path; Reason gives their text.
func ReadFile(ctx context.Context, path string, max int64) ([]byte, error) {
	return readWithin(ctx, path, max, func() (*os.File, error) { return openNoFollow(path) })
}

// Dir is a folder files are read from by relative path: no component of
// the path may be a symlink, and nothing outside the folder is reached
// ("..", an absolute path), whatever changes in the folder while it is read.
type Dir struct {
	f    *os.File
	fd   int // f's descriptor, read once: Fd is not free
	path string
}

// OpenDir opens a folder to read files below it. The folder itself is
// opened as named: symlinks in path are followed, once.
func OpenDir(path string) (*Dir, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.IsDir() {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: path, Err: errors.New("not a directory")}
	}
	return &Dir{f: f, fd: int(f.Fd()), path: path}, nil
}

// Path is the folder as it was opened.
func (d *Dir) Path() string { return d.path }

// Close releases the folder.
func (d *Dir) Close() error { return d.f.Close() }

// ReadFile reads the regular file at rel (slash-separated, below d), at most
// max bytes. Errors are *fs.PathError naming rel.
func (d *Dir) ReadFile(ctx context.Context, rel string, max int64) ([]byte, error) {
	return readWithin(ctx, rel, max, func() (*os.File, error) { return d.open(rel) })
}

// readWithin opens and reads in a goroutine of its own, so that a file
// system that never answers (open or read blocked in the kernel, where no
// deadline reaches) costs the caller ReadTimeout, not the scan. The
// deadline is on progress: a large file on a slow mount keeps reading as
// long as bytes come.
func readWithin(ctx context.Context, name string, max int64, open func() (*os.File, error)) ([]byte, error) {
	return within(ctx, name, func(progress *atomic.Int64) ([]byte, error) { return readCapped(open, max, progress) })
}

// ReadOpened is the safe read for a file another package opens its own way
// (the live audit resolves paths inside a root it chose): open runs in a
// goroutine of its own under the progress deadline, anything but a regular
// file is refused on the descriptor, and at most max bytes are read.
func ReadOpened(ctx context.Context, name string, max int64, open func() (*os.File, error)) ([]byte, error) {
	return readWithin(ctx, name, max, open)
}

// within runs read under the progress deadline and ctx.
func within(ctx context.Context, name string, read func(progress *atomic.Int64) ([]byte, error)) ([]byte, error) {
	type result struct {
		data []byte
		err  error
	}
	var progress atomic.Int64
	done := make(chan result, 1)
	go func() {
		data, err := read(&progress)
		done <- result{data, err}
	}()
	t := time.NewTimer(ReadTimeout)
	defer t.Stop()
	last := int64(0)
	for {
		select {
		case r := <-done:
			if r.err != nil {
				return nil, &fs.PathError{Op: "read", Path: name, Err: r.err}
			}
			return r.data, nil
		case <-ctx.Done():
			return nil, &fs.PathError{Op: "read", Path: name, Err: ctx.Err()}
		case <-t.C:
			if p := progress.Load(); p != last {
				last = p
				t.Reset(ReadTimeout)
				continue
			}
			return nil, &fs.PathError{Op: "read", Path: name, Err: ErrTimeout}
		}
	}
}

// readChunk bounds one read call, so progress is seen on large files.
const readChunk = 1 << 20

// readCapped opens the file, refuses anything but a regular file (checked
// on the descriptor it reads), and reads at most max bytes: one byte more
// tells a file over the cap from one exactly at it.
func readCapped(open func() (*os.File, error), max int64, progress *atomic.Int64) ([]byte, error) {
	f, err := open()
	if err != nil {
		return nil, unwrapPath(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, unwrapPath(err)
	}
	if !st.Mode().IsRegular() {
		return nil, notRegular(st.Mode())
	}
	if st.Size() > max {
		return nil, &TooLargeError{Size: st.Size(), Limit: max}
	}
	return readAll(f, st.Size(), max, progress)
}

// readAll reads f to its end, at most max bytes, counting progress. The
// buffer is sized by stat, plus the byte that detects growth; files that
// report no size (proc, some FUSE) grow it as they read.
func readAll(f io.Reader, size, max int64, progress *atomic.Int64) ([]byte, error) {
	buf := make([]byte, 0, max64(size+1, 512))
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		end := min(cap(buf), len(buf)+readChunk)
		n, err := f.Read(buf[len(buf):end])
		buf = buf[:len(buf)+n]
		progress.Add(int64(n))
		if int64(len(buf)) > max {
			return nil, &TooLargeError{Size: -1, Limit: max}
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, unwrapPath(err)
		}
	}
}

func max64(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}

// unwrapPath drops the *fs.PathError the os package adds: readWithin names
// the file as its caller knows it.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// notRegular is ErrNotRegular, saying what the file is instead.
func notRegular(m fs.FileMode) error { return notRegularError(m) }

type notRegularError fs.FileMode

func (e notRegularError) Error() string        { return irregular(fs.FileMode(e)) }
func (e notRegularError) Is(target error) bool { return target == ErrNotRegular }
