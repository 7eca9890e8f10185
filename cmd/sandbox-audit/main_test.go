package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// TestRunUntilStopped: a run that ignores its cancelled context (blocked
// where no context reaches) is given up after the grace period with exit
// 2; one that stops in time exits 2 at once; an uninterrupted run keeps
// its own code.
func TestRunUntilStopped(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	var stderr bytes.Buffer
	start := time.Now()
	code := runUntilStopped(ctx, 300*time.Millisecond, &stderr, func() int { <-release; return 0 })
	if took := time.Since(start); code != 2 || took < 300*time.Millisecond || took > 5*time.Second {
		t.Errorf("stuck run: exit %d after %v, want 2 after the grace period", code, took)
	}
	if !strings.Contains(stderr.String(), "did not stop within 300ms") {
		t.Errorf("stderr %q", stderr.String())
	}

	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	stderr.Reset()
	start = time.Now()
	code = runUntilStopped(ctx, time.Minute, &stderr, func() int { <-ctx.Done(); return 0 })
	if took := time.Since(start); code != 2 || took > 5*time.Second || stderr.Len() != 0 {
		t.Errorf("run that stops: exit %d after %v, stderr %q", code, took, stderr.String())
	}

	if code := runUntilStopped(context.Background(), time.Minute, &stderr, func() int { return 1 }); code != 1 {
		t.Errorf("uninterrupted run: exit %d, want 1", code)
	}
}
