package dockerfile

import (
	"path"
	"sort"
	"strings"

	"github.com/moby/buildkit/frontend/dockerfile/parser"

	"github.com/sandbox-audit/sandbox-audit/collectors/internal/shell"
	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// run looks for remote scripts piped into an interpreter and for literal
// secrets on the command line (they end up in the image history).
func (b *builder) run(n *parser.Node) {
	for _, script := range scripts(n) {
		for _, p := range pipeToShell(script) {
			b.img.PipeToShell = append(b.img.PipeToShell, model.Str{Value: clip(secrets.Redact(p), maxKeptText), Loc: b.loc(n)})
		}
	}
	b.mcpAdds(n)
	b.privileges(shellText(n), b.loc(n))
	text := n.Original
	for _, h := range n.Heredocs {
		text += "\n" + h.Content
	}
	b.credentialsIn(text, "arg", "Dockerfile RUN", b.loc(n))
	b.usedArgs(text)
}

// usedArgs records each credential-named ARG without a default that this
// RUN uses ($NAME, ${NAME}): docker build --build-arg fills it, and the
// value stays in the image's history (docker history shows the RUN with
// its build arguments), as Docker's SecretsUsedInArgOrEnv check warns. An
// ARG no RUN uses leaves nothing in the image.
func (b *builder) usedArgs(text string) {
	st := b.cur()
	if st == nil || len(st.unset) == 0 {
		return
	}
	names := make([]string, 0, len(st.unset))
	for name := range st.unset {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if shell.Mentions(text, name) {
			ev := model.EnvVar{Name: name, SensitiveName: true, Loc: st.unset[name]}
			b.img.Env = append(b.img.Env, ev)
			delete(st.unset, name)
		}
	}
}

// scripts returns the shell text a RUN executes: the shell form, the -c
// argument of an exec form that calls a shell, and heredoc bodies fed to the
// default shell or to an explicit one.
func scripts(n *parser.Node) []string {
	var args []string
	for a := n.Next; a != nil; a = a.Next {
		args = append(args, a.Value)
	}
	if len(args) == 0 {
		return nil
	}
	var out []string
	if n.Attributes["json"] {
		for i := 0; i+1 < len(args); i++ {
			if args[i] == "-c" && isShell(path.Base(args[0])) {
				return []string{args[i+1]}
			}
		}
		return []string{strings.Join(args, " ")}
	}
	cmd := args[0]
	out = append(out, cmd)
	first := strings.Fields(cmd)
	heredocIsShell := len(first) > 0 && (strings.HasPrefix(first[0], "<<") || isShell(path.Base(first[0])))
	if heredocIsShell {
		for _, h := range n.Heredocs {
			out = append(out, h.Content)
		}
	}
	return out
}

// add records ADD instructions that fetch a remote URL at build time: the
// content is whatever the server returns then, unless pinned by --checksum.
func (b *builder) add(n *parser.Node) {
	var args []string
	for a := n.Next; a != nil; a = a.Next {
		args = append(args, a.Value)
	}
	if len(args) < 2 {
		return
	}
	for _, src := range args[:len(args)-1] {
		lower := strings.ToLower(src)
		if !strings.HasPrefix(lower, "http://") && !strings.HasPrefix(lower, "https://") {
			continue
		}
		b.img.AddURLs = append(b.img.AddURLs, model.Str{Value: b.redactURL(src, b.loc(n)), Loc: b.loc(n)})
	}
}

// redactURL hides the credentials of a URL (its password, a token as its
// user, query values that are secrets under their names), recording each.
func (b *builder) redactURL(raw string, loc model.Loc) string {
	out, found := secrets.Hide(raw)
	for _, f := range found {
		context := "Dockerfile ADD URL"
		if f.Name != "" {
			context += " " + f.Name
		}
		b.credential(f.SecretRef, "url", context, loc)
	}
	return out
}

// credentialsIn records the credentials a RUN command line holds.
func (b *builder) credentialsIn(text, where, context string, loc model.Loc) {
	_, found := secrets.Hide(text)
	for _, f := range found {
		b.credential(f.SecretRef, where, context, loc)
	}
}

func (b *builder) credential(ref model.SecretRef, where, context string, loc model.Loc) {
	b.creds = append(b.creds, model.Credential{SecretRef: ref, Where: where, Context: context, ReadableByAgent: true, Loc: loc})
}

// splitRef returns the tag of an image reference ("" when none) and whether
// it is pinned by a content digest.
func splitRef(ref string) (tag string, pinned bool) {
	name := ref
	if at := strings.LastIndex(ref, "@"); at >= 0 {
		name = ref[:at]
		pinned = validDigest(ref[at+1:])
	}
	slash := strings.LastIndex(name, "/")
	if colon := strings.LastIndex(name, ":"); colon > slash {
		tag = name[colon+1:]
	}
	return tag, pinned
}

func validDigest(d string) bool {
	algo, hex, ok := strings.Cut(d, ":")
	if !ok {
		return false
	}
	want := map[string]int{"sha256": 64, "sha384": 96, "sha512": 128}[algo]
	if want == 0 || len(hex) != want {
		return false
	}
	for _, c := range hex {
		if !strings.ContainsRune("0123456789abcdef", c) {
			return false
		}
	}
	return true
}

// shellText is the shell script a shell-form RUN executes, with its
// here-documents put back after the command line, as a shell reads them
// (RUN cat > /etc/sudoers.d/x <<EOF …). Exec-form RUNs give their -c
// script, or their words.
func shellText(n *parser.Node) string {
	if n.Attributes["json"] || n.Next == nil {
		s := scripts(n)
		return strings.Join(s, "\n")
	}
	first := strings.Fields(n.Next.Value)
	if len(n.Heredocs) > 0 && len(first) > 0 && (strings.HasPrefix(first[0], "<<") || isShell(path.Base(first[0]))) {
		// RUN <<EOF, RUN bash <<EOF: the here-document is the script.
		var parts []string
		for _, h := range n.Heredocs {
			parts = append(parts, h.Content)
		}
		return strings.Join(parts, "\n")
	}
	var b strings.Builder
	b.WriteString(n.Next.Value)
	for _, h := range n.Heredocs {
		b.WriteString("\n")
		b.WriteString(h.Content)
		if !strings.HasSuffix(h.Content, "\n") {
			b.WriteString("\n")
		}
		b.WriteString(h.Name)
	}
	return b.String()
}
