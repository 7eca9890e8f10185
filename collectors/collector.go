// Package collectors discovers sandbox configuration under a root and hands
// each file to the collector that understands it. Collectors translate their
// format into the one sandbox model (package model).
package collectors

import (
	"context"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// Collector reads one kind of configuration file.
//
// Match is called with the path of every file found and must be cheap: it
// decides by name alone. The first collector of the registry that matches a
// file gets it, so each file is parsed once. Collect parses one file —
// path is relative to the scanned root, with forward slashes — and adds its
// facts to doc. A file that turns out not to be of its format (a YAML file
// without apiVersion/kind) adds nothing and returns nil. A malformed file
// returns an error naming the position; the scan records it in errors[] and
// goes on with the other files.
type Collector interface {
	Name() string
	Match(path string) bool
	Collect(ctx context.Context, path string, data []byte, doc *model.Document) error
}

// Linker is implemented by collectors whose facts join across files (a
// Kubernetes NetworkPolicy selecting pods declared in another file). Link
// runs once, after every file was collected, on the merged document.
type Linker interface {
	Link(doc *model.Document)
}

// Sniffer is implemented by a collector that claims some files by a name
// that does not settle their format: an extensionless file under bin/ may
// be a launcher script or a compiled program. Sniffs reports whether path
// is such a file; Sniff, given its content, whether it is of the format. A
// sniffed file that is not, or that is too large to be a configuration
// file, is no configuration file: not read, not listed, no error.
type Sniffer interface {
	Sniffs(path string) bool
	Sniff(data []byte) bool
}
