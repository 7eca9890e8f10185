// Package registry is the one explicit list of config collectors.
package registry

import (
	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/claude"
	"github.com/sandbox-audit/sandbox-audit/collectors/codex"
	"github.com/sandbox-audit/sandbox-audit/collectors/compose"
	"github.com/sandbox-audit/sandbox-audit/collectors/cursor"
	"github.com/sandbox-audit/sandbox-audit/collectors/devcontainer"
	"github.com/sandbox-audit/sandbox-audit/collectors/dockerfile"
	"github.com/sandbox-audit/sandbox-audit/collectors/firewall"
	"github.com/sandbox-audit/sandbox-audit/collectors/gemini"
	"github.com/sandbox-audit/sandbox-audit/collectors/gitconfig"
	"github.com/sandbox-audit/sandbox-audit/collectors/kubernetes"
	"github.com/sandbox-audit/sandbox-audit/collectors/mcp"
	"github.com/sandbox-audit/sandbox-audit/collectors/opencode"
	"github.com/sandbox-audit/sandbox-audit/collectors/workflows"
)

// All is the one explicit list of config collectors, in match order:
// the first collector whose Match accepts a path gets the file. Specific
// names come before the catch-all Kubernetes YAML collector.
func All() []collectors.Collector {
	return []collectors.Collector{
		workflows.New(),
		devcontainer.New(),
		compose.New(),
		dockerfile.New(),
		claude.New(),
		codex.New(),
		gemini.New(),
		cursor.New(),
		opencode.New(),
		&mcp.Collector{},
		&gitconfig.Collector{},
		// It reads any YAML file with apiVersion and kind, so no collector
		// that claims YAML may come after it.
		&kubernetes.Collector{},
		// Shell scripts only; its Link joins scripts to the workloads that
		// run them, after the Kubernetes and Dockerfile links.
		firewall.New(),
	}
}
