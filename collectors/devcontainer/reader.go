package devcontainer

import (
	"path"
	"sort"
	"strings"

	"github.com/tailscale/hujson"

	"github.com/sandbox-audit/sandbox-audit/collectors/internal/oci"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/textpos"
	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// phases maps lifecycle properties to Command.Phase; only initializeCommand
// runs on the host, before the container exists.
var phases = map[string]string{
	"initializeCommand":    "initialize",
	"onCreateCommand":      "onCreate",
	"updateContentCommand": "updateContent",
	"postCreateCommand":    "postCreate",
	"postStartCommand":     "postStart",
	"postAttachCommand":    "postAttach",
}

// reader accumulates the facts of one devcontainer.json.
type reader struct {
	file  string
	lines textpos.Lines
	w     model.Workload
	creds []model.Credential
	// users by precedence: remoteUser is who tools and terminals (the
	// agent) run as; containerUser and --user are what the container runs
	// as when remoteUser is not set.
	remoteUser, containerUser, runUser *model.Str
	image, dockerfile                  *model.Str
	// context is build.context as written (relative to devcontainer.json).
	context, buildAt *model.Str
	// workspaceFolder is where tools open the workspace in the container;
	// workspaceMount is the explicit workspace mount, if any.
	workspaceFolder *model.Str
	workspaceMount  *model.Mount
	composed        bool
	composeFiles    []string
	runServices     []string
	composeAt       model.Loc
	service         string
	// features keeps each feature's options object, for what they change.
	featureOpts map[string]*hujson.Value
	// agents are the agents the container's editor is set up to run
	// (customizations.vscode.settings of the Claude Code extension).
	agents []model.Agent
}

func newReader(file string, ls textpos.Lines, line int) *reader {
	return &reader{file: file, lines: ls, w: model.Workload{
		ID: "devcontainer:" + file, Source: "devcontainer",
		Loc: model.Loc{File: file, Line: line},
	}}
}

func (r *reader) loc(off int) model.Loc { return model.Loc{File: r.file, Line: r.lines.Line(off)} }

func (r *reader) str(v *hujson.Value) *model.Str {
	s, ok := str(v)
	if !ok {
		return nil
	}
	return &model.Str{Value: s, Loc: r.loc(v.StartOffset)}
}

func (r *reader) read(obj *hujson.Object) {
	root := hujson.Value{Value: obj}
	for _, m := range members(&root) {
		v := m.val
		switch m.name {
		case "name":
			if s, ok := str(v); ok {
				r.w.Name = s
			}
		case "service":
			if s, ok := str(v); ok {
				r.service = s
				if r.w.Name == "" {
					r.w.Name = s
				}
			}
		case "runServices":
			for _, f := range stringsOf(v) {
				s, _ := str(f)
				r.runServices = append(r.runServices, s)
			}
		case "image":
			r.image = r.str(v)
		case "build":
			r.buildAt = &model.Str{Loc: r.loc(m.off)}
			for _, b := range members(v) {
				switch b.name {
				case "dockerfile", "dockerFile":
					r.setDockerfile(b.val)
				case "args":
					r.buildArgs(b.val)
				case "context":
					r.context = r.str(b.val)
				}
			}
		case "dockerFile": // pre-"build" spelling, still honoured
			r.setDockerfile(v)
		case "overrideCommand":
			// false keeps the image's ENTRYPOINT and CMD, which a
			// devcontainer built from an image or Dockerfile replaces
			// with a sleep by default: what the entrypoint runs (a
			// firewall script) then runs in the sandbox.
			if b, ok := boolean(v); ok {
				r.w.KeepsEntrypoint = !b
			}
		case "privileged":
			if b, ok := boolean(v); ok {
				r.privileged(b, r.loc(v.StartOffset))
			}
		case "capAdd":
			for _, c := range stringsOf(v) {
				r.capAdd(c)
			}
		case "securityOpt":
			for _, o := range stringsOf(v) {
				r.securityOpt(r.str(o))
			}
		case "runArgs":
			r.runArgs(v)
		case "mounts":
			r.mounts(v)
		case "workspaceMount":
			if s := r.str(v); s != nil && s.Value != "" {
				r.addMount(oci.ParseMountSpec(s.Value), s.Loc)
				ws := r.w.Mounts[len(r.w.Mounts)-1]
				r.workspaceMount = &ws
			}
		case "workspaceFolder":
			r.workspaceFolder = r.str(v)
		case "dockerComposeFile":
			r.composed = true
			r.composeAt = r.loc(m.off)
			vals := elems(v)
			if vals == nil {
				vals = []*hujson.Value{v}
			}
			for _, e := range vals {
				if s, ok := str(e); ok && s != "" {
					r.composeFiles = append(r.composeFiles, path.Clean(path.Join(path.Dir(r.file), s)))
				}
			}
		case "features":
			r.features(v)
		case "containerEnv", "remoteEnv":
			for _, e := range members(v) {
				if val, ok := str(e.val); ok {
					r.env(m.name, e.name, val, true, r.loc(e.off))
				}
			}
		case "forwardPorts", "appPort":
			r.ports(v)
		case "customizations":
			r.codespaces(v)
			r.vscodeAgent(v)
		case "remoteUser":
			r.remoteUser = r.str(v)
		case "containerUser":
			r.containerUser = r.str(v)
		default:
			if phase, ok := phases[m.name]; ok {
				r.commands(m.name, phase, v)
			}
		}
	}
}

// vscodeAgent reads the Claude Code extension's settings the devcontainer
// gives the editor (customizations.vscode.settings, machine settings the
// extension reads; a workspace's .vscode/settings.json may not set them):
// claudeCode.initialPermissionMode is the mode every conversation starts
// in, and bypassPermissions takes effect only with
// claudeCode.allowDangerouslySkipPermissions true. Other spellings
// (claude-code.initialPermissionMode) are no setting of the extension.
func (r *reader) vscodeAgent(v *hujson.Value) {
	for _, c := range members(v) {
		if c.name != "vscode" {
			continue
		}
		for _, k := range members(c.val) {
			if k.name != "settings" {
				continue
			}
			var mode *model.Str
			gate := false
			for _, e := range members(k.val) {
				switch e.name {
				case "claudeCode.initialPermissionMode":
					mode = r.str(e.val)
				case "claudeCode.allowDangerouslySkipPermissions":
					gate, _ = boolean(e.val)
				}
			}
			if mode == nil {
				continue
			}
			norm, ok := extensionModes[mode.Value]
			if !ok || norm == "bypass" && !gate {
				continue
			}
			r.agents = append(r.agents, model.Agent{
				Tool: "claude-code", Scope: "project", Loc: mode.Loc,
				Context:      "devcontainer " + r.file + " (Claude Code extension settings)",
				ApprovalRaw:  &model.Str{Value: mode.Value, Loc: mode.Loc},
				ApprovalMode: &model.Str{Value: norm, Loc: mode.Loc},
				Speaks:       []string{"review"},
			})
		}
	}
}

// extensionModes normalizes claudeCode.initialPermissionMode as the CLI's
// modes are (acceptEdits and auto approve without a person too).
var extensionModes = map[string]string{
	"bypassPermissions": "bypass", "acceptEdits": "auto", "autoAcceptEdits": "auto", "auto": "auto",
	"plan": "plan", "default": "default",
}

// codespaces reads the repositories a codespace's token may also act on:
// permissions "write-all" or a map of permission to read/write.
func (r *reader) codespaces(v *hujson.Value) {
	for _, c := range members(v) {
		if c.name != "codespaces" {
			continue
		}
		for _, k := range members(c.val) {
			if k.name != "repositories" {
				continue
			}
			for _, repo := range members(k.val) {
				g := model.RepoGrant{Repo: repo.name, Write: []string{}, Loc: r.loc(repo.off)}
				for _, p := range members(repo.val) {
					if p.name != "permissions" {
						continue
					}
					if all, ok := str(p.val); ok && all == "write-all" {
						g.Write = append(g.Write, "*")
					}
					for _, perm := range members(p.val) {
						if level, ok := str(perm.val); ok && level == "write" {
							g.Write = append(g.Write, perm.name)
						}
					}
				}
				sort.Strings(g.Write)
				r.w.RepoGrants = append(r.w.RepoGrants, g)
			}
		}
	}
}

// buildArgs records literal secrets in build.args: they end up in the
// image history, so they are credentials although not in the environment.
func (r *reader) buildArgs(v *hujson.Value) {
	for _, a := range members(v) {
		if val, ok := str(a.val); ok {
			if ref := secrets.DetectNamed(a.name, val); ref != nil {
				r.credential(*ref, "arg", "devcontainer build arg "+a.name, r.loc(a.off))
			}
		}
	}
}

func (r *reader) setDockerfile(v *hujson.Value) {
	if s := r.str(v); s != nil {
		// Relative to devcontainer.json; joined so it names the same file
		// as the Dockerfile collector's Image.File.
		s.Value = path.Join(path.Dir(r.file), s.Value)
		r.dockerfile = s
	}
}

func (r *reader) finish() {
	r.w.Image = r.image
	if r.w.Image == nil {
		r.w.Image = r.dockerfile
	}
	for _, u := range []*model.Str{r.remoteUser, r.containerUser, r.runUser} {
		if u != nil {
			r.w.User = u
			break
		}
	}
	if r.dockerfile != nil && r.image == nil {
		ctx := "."
		if r.context != nil {
			ctx = r.context.Value
		}
		loc := r.dockerfile.Loc
		r.w.Build = &model.Build{Dockerfile: r.dockerfile.Value, Context: path.Join(path.Dir(r.file), ctx), Loc: loc}
	}
	if r.composed && r.service != "" {
		r.w.Compose = &model.ComposeRef{Files: r.composeFiles, Service: r.service, RunServices: r.runServices, Loc: r.composeAt}
	}
	r.workspace()
	r.scripts()
	r.sudo()
}

// privileged keeps the strongest setting: the container is privileged when
// any source (property, runArgs, a feature) asks for it.
func (r *reader) privileged(b bool, loc model.Loc) { oci.Privileged(&r.w, b, loc) }

func (r *reader) capAdd(v *hujson.Value) {
	if s := r.str(v); s != nil && strings.TrimSpace(s.Value) != "" {
		s.Value = oci.Cap(s.Value)
		r.w.CapAdd = append(r.w.CapAdd, *s)
	}
}

// securityOpt keeps the option as written and derives seccomp=unconfined
// and no-new-privileges.
func (r *reader) securityOpt(o *model.Str) { oci.SecurityOpt(&r.w, o) }

// env records a variable: whether it forwards a host variable and whether
// its literal value is a credential, never the value.
func (r *reader) env(where, name, value string, hasValue bool, loc model.Loc) {
	if name == "" {
		return
	}
	ev := secrets.EnvVar(name, value, hasValue, localEnv(value), loc)
	if ev.Secret != nil {
		r.credential(*ev.Secret, "env", "devcontainer "+where+" "+name, loc)
	}
	r.w.Env = append(r.w.Env, ev)
}

func (r *reader) credential(ref model.SecretRef, where, context string, loc model.Loc) {
	r.creds = append(r.creds, model.Credential{
		SecretRef: ref, Where: where, Context: context,
		// The file is in the repository the agent works on.
		ReadableByAgent: true, Loc: loc,
	})
}

// commands reads a lifecycle command in its three forms: a shell string, an
// argv array, or an object of named commands run in parallel.
func (r *reader) commands(prop, phase string, v *hujson.Value) {
	add := func(raw, text string, found []secrets.Found, off int) {
		loc := r.loc(off)
		for _, f := range found {
			r.credential(f.SecretRef, "arg", "devcontainer "+prop, loc)
		}
		c := model.Command{Phase: phase, OnHost: phase == "initialize", Text: text, Loc: loc}
		if c.OnHost {
			c.HostSecret = hostSecretWrite(raw)
		}
		r.w.Commands = append(r.w.Commands, c)
	}
	one := func(v *hujson.Value) {
		if s, ok := str(v); ok {
			if strings.TrimSpace(s) != "" {
				text, found := secrets.Hide(s)
				add(s, text, found, v.StartOffset)
			}
			return
		}
		var argv []string
		for _, e := range elems(v) {
			if s, ok := str(e); ok {
				argv = append(argv, s)
			}
		}
		if len(argv) > 0 {
			hidden, found := secrets.HideArgs(argv)
			add(strings.Join(argv, " "), strings.Join(hidden, " "), found, v.StartOffset)
		}
	}
	if _, isObj := v.Value.(*hujson.Object); isObj {
		for _, m := range members(v) {
			one(m.val)
		}
		return
	}
	one(v)
}

func (r *reader) ports(v *hujson.Value) {
	vals := elems(v)
	if vals == nil {
		vals = []*hujson.Value{v}
	}
	for _, p := range vals {
		if s, ok := text(p); ok {
			r.w.Ports = append(r.w.Ports, model.Str{Value: s, Loc: r.loc(p.StartOffset)})
		}
	}
}
