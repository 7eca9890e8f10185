// Package dockerfile collects the security-relevant facts of a Dockerfile or
// Containerfile: base images and their pinning, the user the final stage runs
// as, build-time variables that hold secrets, remote scripts piped to a shell
// and remote files added by URL.
package dockerfile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/moby/buildkit/frontend/dockerfile/command"
	"github.com/moby/buildkit/frontend/dockerfile/parser"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/agentcli"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// Collector reads Dockerfiles and Containerfiles into model.Image.
type Collector struct{}

var _ collectors.Collector = Collector{}

// New returns the Dockerfile collector.
func New() Collector { return Collector{} }

// Name implements collectors.Collector.
func (Collector) Name() string { return "dockerfile" }

// notDockerfile are suffixes of files named like "Dockerfile.*" that are
// something else: the per-Dockerfile ignore file, documentation, and source
// code about Dockerfiles (dockerfile.go, dockerfile_test.py…).
var notDockerfile = []string{".dockerignore", ".md", ".txt", ".rst", ".orig", ".bak",
	".go", ".py", ".js", ".ts", ".rs", ".java", ".rb", ".sh", ".json", ".yaml", ".yml", ".toml", ".html"}

// Match accepts Dockerfile, Containerfile, *.Dockerfile, *.dockerfile,
// Dockerfile.* and Containerfile.* in any directory.
func (Collector) Match(p string) bool {
	base := path.Base(p)
	lower := strings.ToLower(base)
	for _, suf := range notDockerfile {
		if strings.HasSuffix(lower, suf) {
			return false
		}
	}
	switch {
	case lower == "dockerfile" || lower == "containerfile":
		return true
	case strings.HasSuffix(lower, ".dockerfile") && len(lower) > len(".dockerfile"):
		return true
	case strings.HasPrefix(lower, "dockerfile.") && len(lower) > len("dockerfile."),
		strings.HasPrefix(lower, "containerfile.") && len(lower) > len("containerfile."):
		return true
	}
	return false
}

// Collect parses one Dockerfile and appends one model.Image to doc.
func (Collector) Collect(ctx context.Context, p string, data []byte, doc *model.Document) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("collect dockerfile: %w", err)
	}
	// The parser accepts any bytes as "unknown instructions"; a NUL byte
	// never belongs in a Dockerfile, so junk is refused with its line.
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return &collectors.ParseError{Line: 1 + bytes.Count(data[:i], []byte("\n")), Err: errors.New("binary data, not a Dockerfile")}
	}
	res, err := parser.Parse(bytes.NewReader(data))
	if err != nil {
		return &collectors.ParseError{Line: errorLine(err), Err: fmt.Errorf("parse dockerfile: %w", unwrapLocation(err))}
	}
	if err := validate(res.AST); err != nil {
		return err
	}
	b := newBuilder(p, res.EscapeToken)
	b.src = strings.Split(string(data), "\n")
	for _, n := range res.AST.Children {
		b.instruction(n)
	}
	b.finish()
	doc.Images = append(doc.Images, b.img)
	doc.Credentials = append(doc.Credentials, b.creds...)
	doc.MCPServers = append(doc.MCPServers, b.mcp...)
	// An alias the image defines (RUN echo "alias cc='claude
	// --dangerously-skip-permissions'" >> ~/.bashrc) is how it means the
	// agent to be run, in its containers.
	doc.Agents = append(doc.Agents, agentcli.AliasAgents(p, string(data), "image:"+p)...)
	return nil
}

// validate refuses what buildkit itself would refuse before building, so a
// text file that merely carries a Dockerfile name is reported, not audited
// as an image with no facts.
func validate(ast *parser.Node) error {
	sawFrom := false
	for _, n := range ast.Children {
		cmd := strings.ToLower(n.Value)
		if _, ok := command.Commands[cmd]; !ok {
			// Not the word: after a line missing its "\\" it is the next
			// line's text, a secret as often as not.
			return &collectors.ParseError{Line: n.StartLine, Err: errors.New("unknown instruction")}
		}
		switch {
		case cmd == command.From:
			if n.Next == nil {
				return &collectors.ParseError{Line: n.StartLine, Err: errors.New("FROM requires an image")}
			}
			sawFrom = true
		case !sawFrom && cmd != command.Arg:
			return &collectors.ParseError{Line: n.StartLine, Err: fmt.Errorf("%s before the first FROM", strings.ToUpper(cmd))}
		}
	}
	if !sawFrom {
		return &collectors.ParseError{Line: 1, Err: errors.New("no FROM instruction")}
	}
	return nil
}

// errorLine takes the first line a buildkit LocationError names.
func errorLine(err error) int {
	var le *parser.LocationError
	if errors.As(err, &le) {
		for _, rs := range le.Locations {
			for _, r := range rs {
				if r.Start.Line > 0 {
					return r.Start.Line
				}
			}
		}
	}
	// An error buildkit does not place (an empty file) is about the file
	// from its start.
	return 1
}

// unwrapLocation drops buildkit's location wrapper, whose message repeats
// nothing useful once the line is in ParseError.
func unwrapLocation(err error) error {
	var le *parser.LocationError
	if errors.As(err, &le) && le.Unwrap() != nil {
		return le.Unwrap()
	}
	return err
}

// clip shortens s to at most n bytes on a rune boundary, marking the cut
// with an ellipsis that counts toward n.
func clip(s string, n int) string {
	const mark = "…"
	if len(s) <= n {
		return s
	}
	cut := max(n-len(mark), 0)
	for cut > 0 && !utf8RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + mark
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }
