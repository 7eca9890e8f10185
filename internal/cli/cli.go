// Package cli is sandbox-audit's command line: flags live in one options
// struct per command, validated once; errors map to exit codes in one place.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"

	"github.com/spf13/cobra"

	"github.com/sandbox-audit/sandbox-audit/audit"
	"github.com/sandbox-audit/sandbox-audit/internal/version"
	"github.com/sandbox-audit/sandbox-audit/policies"
	"github.com/sandbox-audit/sandbox-audit/rules"
)

// Exit codes (README, --help).
const (
	ExitOK        = 0 // gate passed
	ExitGate      = 1 // gate failed: findings at or above the threshold
	ExitCannotRun = 2 // could not audit: bad usage, unreadable target, a rule that failed or timed out, strict with errors
)

// errGate is returned when the audit ran and the gate failed.
var errGate = errors.New("gate failed")

const exitHelp = `Exit codes:
  0  the gate passed
  1  the gate failed: findings at or above --fail-on, a required property not passing,
     or a score below its minimum
  2  could not audit: bad usage, unreadable target, a file target no collector reads,
     invalid policy file, a rule that failed to compile, evaluate or finish in time
     (--rule-timeout), interrupted (SIGINT, SIGTERM); with --strict (or strict: true),
     anything in errors[]`

// Run executes the command line and returns the exit code.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	slog.SetDefault(slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	root := newRoot(stdout, stderr)
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	switch {
	case ctx.Err() != nil:
		// Interrupted (SIGINT, SIGTERM): whatever the run got to, it did
		// not audit everything, and an interrupted gate never passes.
		fmt.Fprintln(stderr, "sandbox-audit: interrupted")
		return ExitCannotRun
	case err == nil:
		return ExitOK
	case errors.Is(err, errGate):
		return ExitGate
	default:
		fmt.Fprintf(stderr, "sandbox-audit: %v\n", err)
		return ExitCannotRun
	}
}

func newRoot(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "sandbox-audit",
		Short: "Audit the sandboxes AI coding agents run in: security boundary or convenience feature?",
		Long: `sandbox-audit reads a sandbox's configuration (Dockerfile, compose, Kubernetes,
devcontainer.json, agent workflows, Claude Code / Codex / Gemini / Cursor settings, MCP
configs, git config) and, with --live, the environment it runs in, and judges four
properties: disposable, constrained network, minimal credentials, reviewed output.
A sandbox is a security boundary only when all four hold.

` + exitHelp,
		Version:       version.String(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(newScanCmd(), newDepsCmd(), newRulesCmd(), newFleetCmd(), newVersionCmd())
	return root
}

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintf(cmd.OutOrStdout(), "sandbox-audit %s\n", version.String())
			return err
		},
	}
}

// usageError wraps a flag problem so it exits 2 with a clear message.
func usageError(format string, a ...any) error {
	return fmt.Errorf("%w: %s", audit.ErrUsage, fmt.Sprintf(format, a...))
}

// severityFlag validates a --fail-on value.
func severityFlag(v string) error {
	if v == "" || v == "none" || rules.SeverityRank(v) >= 0 {
		return nil
	}
	return usageError("--fail-on %q is not one of none, critical, high, medium, low, info", v)
}

var _ = policies.ConfigFileName
