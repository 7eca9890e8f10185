// Package compose collects Docker Compose services as workloads: their
// privileges, host namespaces, mounts, environment (secret classification
// only) and what their networks say about egress.
package compose

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/yamlpos"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// Collector reads docker-compose*.yml / compose*.yaml files.
type Collector struct{}

var _ collectors.Collector = Collector{}

// New returns the compose collector.
func New() Collector { return Collector{} }

// Name implements collectors.Collector.
func (Collector) Name() string { return "compose" }

// Match accepts docker-compose*.yml|yaml and compose*.yml|yaml in any
// directory, except under .github/workflows where a "compose.yml" is a
// workflow.
func (Collector) Match(p string) bool {
	if strings.HasPrefix(p, ".github/workflows/") || strings.Contains(p, "/.github/workflows/") {
		return false
	}
	base := strings.ToLower(path.Base(p))
	ext := path.Ext(base)
	if ext != ".yml" && ext != ".yaml" {
		return false
	}
	return strings.HasPrefix(base, "docker-compose") || strings.HasPrefix(base, "compose")
}

// Collect parses one compose file. A service that is not a mapping is
// reported after the others were collected, so one bad entry does not hide
// the rest of the file.
func (Collector) Collect(ctx context.Context, p string, data []byte, doc *model.Document) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("collect compose file: %w", err)
	}
	roots, err := parse(data)
	if err != nil {
		return err
	}
	var bad []*collectors.ParseError
	for _, root := range roots {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("collect compose file: %w", err)
		}
		bad = append(bad, collectDoc(p, root, doc)...)
	}
	if len(bad) == 0 {
		return nil
	}
	first := bad[0]
	if len(bad) > 1 {
		first.Err = fmt.Errorf("%w (and %d more)", first.Err, len(bad)-1)
	}
	return first
}

// parse reads every YAML document of the stream as a node tree. Each tree is
// checked once as yaml.v3 would decode it into plain values (check): that
// pass applies yaml.v3's limits on alias expansion (an alias bomb fails
// fast here instead of in our walk) and rejects duplicate keys, as compose
// itself does.
func parse(data []byte) ([]*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var roots []*yaml.Node
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return roots, nil
		}
		if err != nil {
			return nil, &collectors.ParseError{Line: yamlpos.ErrLine(err, data), Err: fmt.Errorf("parse compose file: %w", err)}
		}
		if err := check(&n); err != nil {
			return nil, err
		}
		if len(n.Content) > 0 {
			roots = append(roots, n.Content[0])
		}
	}
}

// collectDoc turns one YAML document into workloads.
func collectDoc(file string, top *yaml.Node, doc *model.Document) []*collectors.ParseError {
	if top.Kind == yaml.ScalarNode && top.Tag == "!!null" {
		return nil // an empty document, e.g. after a trailing "---"
	}
	if top.Kind != yaml.MappingNode {
		return []*collectors.ParseError{{Line: top.Line, Err: fmt.Errorf("top level is %s, not a mapping", kindName(top))}}
	}
	es := mapping(top)
	if get(es, "apiVersion") != nil && get(es, "kind") != nil {
		return nil // a Kubernetes manifest that happens to be named compose.yaml
	}
	internal := internalNetworks(es)
	services := get(es, "services")
	if services == nil {
		return nil
	}
	if services.Kind != yaml.MappingNode {
		if services.Kind == yaml.ScalarNode && services.Tag == "!!null" {
			return nil // "services:" with nothing under it
		}
		return []*collectors.ParseError{{Line: services.Line, Err: fmt.Errorf("services is %s, not a mapping", kindName(services))}}
	}
	var bad []*collectors.ParseError
	names := map[string]bool{}
	for _, e := range mapping(services) {
		names[e.key.Value] = true
	}
	for _, e := range mapping(services) {
		name := e.key.Value
		if strings.HasPrefix(name, "x-") {
			continue // extension field, not a service
		}
		if e.val.Kind != yaml.MappingNode {
			bad = append(bad, &collectors.ParseError{Line: e.key.Line, Err: fmt.Errorf("service %s is %s, not a mapping", name, kindName(e.val))})
			continue
		}
		s := newService(file, name, e.key.Line)
		s.read(mapping(e.val))
		s.egress(internal, names)
		doc.Workloads = append(doc.Workloads, s.w)
		doc.Credentials = append(doc.Credentials, s.creds...)
	}
	return bad
}

// internalNetworks maps each top-level network declared internal: true to
// where it says so.
func internalNetworks(top []entry) map[string]model.Loc {
	out := map[string]model.Loc{}
	for _, e := range mapping(get(top, "networks")) {
		def := mapping(e.val)
		if v := get(def, "internal"); v != nil {
			if b, ok := boolean(v); ok && b {
				out[e.key.Value] = model.Loc{Line: v.Line}
			}
		}
	}
	return out
}
