// Command sandbox-audit audits the sandboxes that AI coding agents run in.
package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/sandbox-audit/sandbox-audit/internal/cli"
)

// softMemoryLimit is when the garbage collector runs. A CLI run is short
// and allocates mostly garbage (Rego compilation and evaluation, the secret
// rules' regexes): with the default pacing (GOGC=100 from a 4 MB heap) a
// small scan spent ~80 ms of CPU in the collector, more than in the scan.
// So the GC runs only as the process nears this limit: a small scan never
// collects, and the 5,000-file bench corpus (~45 MB live) peaks at about
// 120 MB. A scan whose live heap exceeds the limit slows down (the runtime
// caps GC CPU) rather than fails; gcPacer hands a large scan to
// proportional pacing before that, with a GOGC that follows its live heap
// (between 50 and 100). GOMEMLIMIT or GOGC set in the environment
// restore Go's own pacing with the user's values; a cgroup memory limit
// under twice this lowers it to half the cgroup's.
const softMemoryLimit = 96 << 20

// shutdownGrace is how long a run cancelled by SIGINT or SIGTERM has to
// stop on its own before the process exits without it.
const shutdownGrace = 2 * time.Second

func main() {
	if os.Getenv("GOMEMLIMIT") == "" && os.Getenv("GOGC") == "" {
		limit, ceiling := int64(softMemoryLimit), int64(math.MaxInt64)
		// In a cgroup allowed less (a small sandbox), collect by half of it.
		if cg := cgroupMemoryLimit("/"); cg > 0 {
			limit, ceiling = min(limit, cg/2), cg-cg/10
		}
		debug.SetMemoryLimit(limit)
		debug.SetGCPercent(-1)
		(&gcPacer{limit: limit, ceiling: ceiling, live: liveHeap}).watch()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := runUntilStopped(ctx, shutdownGrace, os.Stderr, func() int {
		return cli.Run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	})
	stop()
	os.Exit(code)
}

// runUntilStopped runs the command and returns its exit code; once ctx is
// cancelled (a signal) the command gets grace to return, then the run is
// given up with exit 2. Everything the tool waits on honours the context,
// but a read blocked in the kernel (a mount that never answers), a child
// that ignores SIGKILL in uninterruptible sleep or a parser deep in one
// large document may not: none of them keeps the process alive.
func runUntilStopped(ctx context.Context, grace time.Duration, stderr io.Writer, run func() int) int {
	done := make(chan int, 1)
	go func() { done <- run() }()
	select {
	case code := <-done:
		return code
	case <-ctx.Done():
	}
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-done:
		// cli.Run says "interrupted" and exits 2 itself.
	case <-t.C:
		fmt.Fprintf(stderr, "sandbox-audit: interrupted; the run did not stop within %v, exiting\n", grace)
	}
	return cli.ExitCannotRun
}
