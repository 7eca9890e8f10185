package dockerfile

import (
	"path"
	"strings"

	"github.com/moby/buildkit/frontend/dockerfile/command"
	"github.com/moby/buildkit/frontend/dockerfile/parser"
	"github.com/moby/buildkit/frontend/dockerfile/shell"

	"github.com/sandbox-audit/sandbox-audit/collectors/internal/agentcli"
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
	// runUser is user with the ARG and ENV defaults in effect substituted.
	runUser *model.Str
	// vars are the ARG and ENV values in effect, to resolve USER and the
	// commands RUN executes; never put in the model (they may be secrets).
	vars       map[string]string
	workdir    string
	copies     []model.Copy
	sudoers    []model.SudoRule
	removed    []model.Str
	groups     []model.UserGroup
	entrypoint *model.Str
	// unset are the credential-named ARGs without a default declared in
	// this stage, and where, until a RUN uses one (usedArgs).
	unset map[string]model.Loc
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
	mcp    []model.MCPServer // servers RUN registers with an agent CLI
	src    []string          // the file's lines, to place what a RUN's continued lines hold
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
		if st := b.cur(); st != nil && n.Next != nil {
			st.user = &model.Str{Value: n.Next.Value, Loc: b.loc(n)}
			st.runUser = &model.Str{Value: b.expand(n.Next.Value), Loc: b.loc(n)}
		}
	case command.Workdir:
		if st := b.cur(); st != nil && n.Next != nil {
			st.workdir = path.Join(st.workdir, b.expand(n.Next.Value))
			if !strings.HasPrefix(st.workdir, "/") {
				st.workdir = "/" + st.workdir
			}
		}
	case command.Copy:
		b.copy(n)
	case command.Entrypoint:
		b.entrypoint(n)
	case command.Env:
		b.env(n)
	case command.Arg:
		b.arg(n)
	case command.Run:
		b.run(n)
	case command.Add:
		b.add(n)
		b.copy(n)
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
	st := stage{base: -1, vars: map[string]string{}}
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
	if st.base >= 0 {
		// A stage built on another inherits its ENV and WORKDIR.
		for k, v := range b.stages[st.base].vars {
			st.vars[k] = v
		}
		st.workdir = b.stages[st.base].workdir
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

// finish resolves the final stage: a stage that sets no USER or
// ENTRYPOINT inherits those of the stage it is built FROM, and keeps what
// that stage copied in and wrote to sudoers.
func (b *builder) finish() {
	// A stage only builds on earlier ones, so the walk always ends.
	var chain []*stage
	for i := len(b.stages) - 1; i >= 0; i = b.stages[i].base {
		chain = append(chain, &b.stages[i])
	}
	for _, st := range chain {
		if st.user != nil && b.img.FinalUser == nil {
			b.img.FinalUser, b.img.RunUser = st.user, st.runUser
		}
		if st.entrypoint != nil && b.img.Entrypoint == nil {
			b.img.Entrypoint = st.entrypoint
		}
	}
	for i := len(chain) - 1; i >= 0; i-- {
		st := chain[i]
		b.img.Copies = append(b.img.Copies, st.copies...)
		b.img.Sudoers = append(b.img.Sudoers, st.sudoers...)
		b.img.SudoersRemoved = append(b.img.SudoersRemoved, st.removed...)
		b.img.Groups = append(b.img.Groups, st.groups...)
	}
	if u := b.img.RunUser; u != nil {
		b.img.Sudo = Grants(&b.img, u.Value)
	}
}

// cur is the stage being read, nil before the first FROM.
func (b *builder) cur() *stage {
	if len(b.stages) == 0 {
		return nil
	}
	return &b.stages[len(b.stages)-1]
}

// vars is the ARG and ENV values in effect in the current stage.
func (b *builder) vars() map[string]string {
	env := map[string]string{}
	if st := b.cur(); st != nil {
		for k, v := range st.vars {
			env[k] = v
		}
	}
	return env
}

// expand substitutes the ARG and ENV values in effect; unset variables
// stay as written.
func (b *builder) expand(s string) string {
	var pairs []string
	for k, v := range b.vars() {
		pairs = append(pairs, k+"="+v)
	}
	if v, _, err := b.lex.ProcessWord(s, shell.EnvsFromSlice(pairs)); err == nil {
		return v
	}
	return s
}

// env records every ENV pair; values are classified, never kept.
func (b *builder) env(n *parser.Node) {
	for kv := n.Next; kv != nil && kv.Next != nil; {
		b.variable("ENV", kv.Value, unquote(kv.Next.Value), true, n)
		if st := b.cur(); st != nil {
			st.vars[kv.Value] = b.expand(unquote(kv.Next.Value))
		}
		if kv.Next.Next == nil {
			break
		}
		kv = kv.Next.Next.Next
	}
}

// arg records ARG defaults; an ARG without a default holds nothing until
// a RUN uses it (usedArgs).
func (b *builder) arg(n *parser.Node) {
	for w := n.Next; w != nil; w = w.Next {
		name, value, ok := strings.Cut(w.Value, "=")
		if st := b.cur(); st != nil {
			// ARG NAME in a stage brings a global ARG's default into it.
			if !ok {
				if v, global := b.meta[name]; global {
					st.vars[name] = v
				}
			} else {
				st.vars[name] = b.expand(unquote(value))
			}
		}
		if !ok {
			// ARG GITHUB_TOKEN without a default is filled by --build-arg;
			// a RUN that uses it keeps the value in the image's history.
			if st := b.cur(); st != nil && secrets.SensitiveName(name) {
				if st.unset == nil {
					st.unset = map[string]model.Loc{}
				}
				st.unset[name] = b.loc(n)
			}
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
	if hasValue {
		ev.Switch = agentcli.EnvSwitch(name, value)
	}
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
