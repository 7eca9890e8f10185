package dockerfile

import (
	"strings"

	"github.com/moby/buildkit/frontend/dockerfile/parser"

	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// copy records a COPY or ADD of build-context files, so a command that runs
// /usr/local/bin/init-firewall.sh can be traced to the repository's
// init-firewall.sh. Copies from another stage or image (--from), remote
// URLs and here-documents carry no context file.
func (b *builder) copy(n *parser.Node) {
	st := b.cur()
	if st == nil {
		return
	}
	for _, f := range n.Flags {
		if strings.HasPrefix(f, "--from") {
			return
		}
	}
	var args []string
	for a := n.Next; a != nil; a = a.Next {
		args = append(args, b.expand(a.Value))
	}
	if len(args) < 2 {
		return
	}
	c := model.Copy{Dest: args[len(args)-1], Workdir: st.workdir, Loc: b.loc(n)}
	for _, src := range args[:len(args)-1] {
		l := strings.ToLower(src)
		if strings.HasPrefix(src, "<<") || strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "git@") {
			continue
		}
		c.Sources = append(c.Sources, src)
	}
	if len(c.Sources) > 0 {
		st.copies = append(st.copies, c)
	}
}

// entrypoint keeps the ENTRYPOINT as one redacted line: the shell form as
// written, the exec form's words joined.
func (b *builder) entrypoint(n *parser.Node) {
	st := b.cur()
	if st == nil {
		return
	}
	var words []string
	for a := n.Next; a != nil; a = a.Next {
		words = append(words, a.Value)
	}
	text := strings.Join(words, " ")
	if strings.TrimSpace(text) == "" {
		st.entrypoint = nil
		return
	}
	st.entrypoint = &model.Str{Value: clip(secrets.Redact(text), maxKeptText), Loc: b.loc(n)}
}
