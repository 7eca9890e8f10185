package dockerfile

import (
	"strings"

	"github.com/moby/buildkit/frontend/dockerfile/command"
	"github.com/moby/buildkit/frontend/dockerfile/parser"
	"github.com/moby/buildkit/frontend/dockerfile/shell"

	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// maxKeptText bounds free text (RUN lines) kept in the model: enough to
// recognise the command in a report, never a whole script.
const maxKeptText = 200

// stage is one FROM … build stage.
type stage struct {
	name string     // lower-cased "AS" name, "" when unnamed
	base int        // index of the stage it builds on, -1 for an image
	user *model.Str // last USER in this stage
}

// builder walks the instructions in order, keeping the state a Dockerfile
// evaluation needs: stages so far and the global ARG defaults FROM may use.
type builder struct {
	file   string
	lex    *shell.Lex
	meta   map[string]string // ARG defaults declared before the first FROM
	stages []stage
	img    model.Image
	creds  []model.Credential
}

func newBuilder(file string, escape rune) *builder {
	lex := shell.NewLex(escape)
	// Unset variables stay as written, so "${BASE}" without a default is
	// reported as "${BASE}" rather than as an empty image name.
	lex.SkipUnsetEnv = true
	return &builder{file: file, lex: lex, meta: map[string]string{}, img: model.Image{Loc: model.Loc{File: file, Line: 1}}}
}

func (b *builder) loc(n *parser.Node) model.Loc { return model.Loc{File: b.file, Line: n.StartLine} }

func (b *builder) instruction(n *parser.Node) {
	switch strings.ToLower(n.Value) {
	case command.From:
		b.from(n)
	case command.User:
		if len(b.stages) > 0 && n.Next != nil {
			b.stages[len(b.stages)-1].user = &model.Str{Value: n.Next.Value, Loc: b.loc(n)}
		}
	case command.Env:
		b.env(n)
	case command.Arg:
		b.arg(n)
	case command.Run:
		b.run(n)
	case command.Add:
		b.add(n)
	}
}

func (b *builder) from(n *parser.Node) {
	if len(b.stages) == 0 {
		b.img.Line = n.StartLine
	}
	raw := n.Next.Value
	ref := raw
	if v, _, err := b.lex.ProcessWord(raw, shell.EnvsFromSlice(b.metaEnv())); err == nil && v != "" {
		ref = v
	}
	st := stage{base: -1}
	if as := n.Next.Next; as != nil && strings.EqualFold(as.Value, "as") && as.Next != nil {
		st.name = strings.ToLower(as.Next.Value)
	}
	// FROM scratch is the empty image and FROM <stage> builds on this very
	// file: neither pulls anything from a registry, so neither is a base
	// image whose pinning matters.
	for i := len(b.stages) - 1; i >= 0; i-- {
		if b.stages[i].name != "" && b.stages[i].name == strings.ToLower(ref) {
			st.base = i
			break
		}
	}
	b.stages = append(b.stages, st)
	if st.base >= 0 || strings.EqualFold(ref, "scratch") {
		return
	}
	tag, pinned := splitRef(ref)
	b.img.BaseImages = append(b.img.BaseImages, model.BaseImage{
		Ref: ref, Tag: tag, Pinned: pinned, Stage: st.name, Loc: b.loc(n),
	})
}

func (b *builder) metaEnv() []string {
	env := make([]string, 0, len(b.meta))
	for k, v := range b.meta {
		env = append(env, k+"="+v)
	}
	return env
}

// finish resolves the final user: a stage that sets no USER inherits the
// one of the stage it is built FROM.
func (b *builder) finish() {
	// A stage only builds on earlier ones, so the walk always ends.
	for i := len(b.stages) - 1; i >= 0; {
		if u := b.stages[i].user; u != nil {
			b.img.FinalUser = u
			return
		}
		i = b.stages[i].base
	}
}

// env records every ENV pair; values are classified, never kept.
func (b *builder) env(n *parser.Node) {
	for kv := n.Next; kv != nil && kv.Next != nil; {
		b.variable("ENV", kv.Value, unquote(kv.Next.Value), true, n)
		if kv.Next.Next == nil {
			break
		}
		kv = kv.Next.Next.Next
	}
}

// arg records ARG defaults; an ARG without a default holds nothing.
func (b *builder) arg(n *parser.Node) {
	for w := n.Next; w != nil; w = w.Next {
		name, value, ok := strings.Cut(w.Value, "=")
		if !ok {
			continue
		}
		value = unquote(value)
		if len(b.stages) == 0 {
			b.meta[name] = value
		}
		b.variable("ARG", name, value, true, n)
	}
}

func (b *builder) variable(kind, name, value string, hasValue bool, n *parser.Node) {
	ev := model.EnvVar{Name: name, SensitiveName: secrets.SensitiveEnv(name, value, hasValue), Loc: b.loc(n)}
	ev.Secret = secrets.DetectNamed(name, value)
	if ev.Secret == nil && secrets.IsReference(value) {
		// "${TOKEN:-ghp_…}": a reference whose default is a literal token.
		ev.Secret = secrets.Detect(value)
	}
	if ev.Secret != nil {
		where := "env"
		if kind == "ARG" {
			where = "arg"
		}
		b.creds = append(b.creds, model.Credential{
			SecretRef: *ev.Secret, Where: where, Context: "Dockerfile " + kind + " " + name,
			// The Dockerfile sits in the repository the agent works on.
			ReadableByAgent: true, Loc: ev.Loc,
		})
	}
	b.img.Env = append(b.img.Env, ev)
}

// unquote strips one pair of matching quotes the parser keeps around values.
func unquote(v string) string {
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		return v[1 : len(v)-1]
	}
	return v
}
