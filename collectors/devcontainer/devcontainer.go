// Package devcontainer collects a devcontainer.json as one workload: the
// container's privileges, mounts, networking, forwarded host variables,
// features that reach the host's Docker daemon, and lifecycle commands
// (initializeCommand runs on the host).
package devcontainer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"regexp"
	"strconv"

	"github.com/tailscale/hujson"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/textpos"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// maxDepth bounds nesting before the recursive JSONC parser runs: a
// devcontainer.json is a few levels deep, and a hostile file nested a
// million levels would otherwise exhaust the stack.
const maxDepth = 256

// Collector reads devcontainer.json files.
type Collector struct{}

var _ collectors.Collector = Collector{}

// New returns the devcontainer collector.
func New() Collector { return Collector{} }

// Name implements collectors.Collector.
func (Collector) Name() string { return "devcontainer" }

// Match accepts .devcontainer.json and every devcontainer.json: the
// devcontainer CLI looks in .devcontainer.json, .devcontainer/ and
// .devcontainer/<name>/, but templates meant to be copied there (a
// repository root, templates/x/) are the same format and the same sandbox.
func (Collector) Match(p string) bool {
	base := path.Base(p)
	return base == ".devcontainer.json" || base == "devcontainer.json"
}

// Collect parses one devcontainer.json (JSON with comments and trailing
// commas) into one workload.
func (Collector) Collect(ctx context.Context, p string, data []byte, doc *model.Document) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("collect devcontainer: %w", err)
	}
	src := bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	lines := textpos.New(src)
	if off := tooDeep(src); off >= 0 {
		return &collectors.ParseError{Line: lines.Line(off), Err: fmt.Errorf("parse devcontainer.json: nested deeper than %d levels", maxDepth)}
	}
	// hujson's values alias the buffer they parse; work on a copy so the
	// caller's bytes stay as read.
	root, err := hujson.Parse(bytes.Clone(src))
	if err != nil {
		return &collectors.ParseError{Line: hujsonLine(err), Err: fmt.Errorf("parse devcontainer.json: %w", err)}
	}
	std := root.Clone()
	std.Standardize()
	var decoded any
	if err := json.Unmarshal(std.Pack(), &decoded); err != nil {
		var se *json.SyntaxError
		line := 0
		if errors.As(err, &se) {
			line = lines.Line(int(se.Offset))
		}
		return &collectors.ParseError{Line: line, Err: fmt.Errorf("decode devcontainer.json: %w", err)}
	}
	obj, ok := root.Value.(*hujson.Object)
	if !ok {
		return &collectors.ParseError{Line: lines.Line(root.StartOffset), Err: fmt.Errorf("top level is %s, not an object", kindName(&root))}
	}
	r := newReader(p, lines, lines.Line(root.StartOffset))
	r.read(obj)
	r.finish()
	doc.Workloads = append(doc.Workloads, r.w)
	doc.Credentials = append(doc.Credentials, r.creds...)
	doc.Agents = append(doc.Agents, r.agents...)
	return nil
}

var hujsonLineRe = regexp.MustCompile(`^hujson: line (\d+)`)

// hujsonLine reads the line hujson puts in its error text, its only
// structured position.
func hujsonLine(err error) int {
	if m := hujsonLineRe.FindStringSubmatch(err.Error()); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}

// tooDeep returns the offset where nesting passes maxDepth, or -1. It
// skips strings and comments so brackets inside them do not count.
func tooDeep(b []byte) int {
	depth := 0
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			end := bytes.Index(b[i+2:], []byte("*/"))
			if end < 0 {
				return -1 // unterminated: the parser reports it
			}
			i += end + 3
		case c == '[' || c == '{':
			if depth++; depth > maxDepth {
				return i
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return -1
}
