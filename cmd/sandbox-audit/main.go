// Command sandbox-audit audits the sandboxes that AI coding agents run in.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/sandbox-audit/sandbox-audit/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
