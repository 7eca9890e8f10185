package firewall

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/collectors/internal/agentcli"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/oci"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/shell"
	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// engines are the CLIs whose run subcommand starts a container with
// docker run's options.
var engines = map[string]bool{"docker": true, "podman": true, "nerdctl": true}

// engineValueFlags are the engines' global options that take a value,
// written before the subcommand (docker --context ci run …).
var engineValueFlags = map[string]bool{"-H": true, "--host": true, "--context": true, "-c": true, "--config": true, "-l": true, "--log-level": true}

// started is one container a script starts.
type started struct {
	w     model.Workload
	creds []model.Credential
	agent *model.Agent
	key   string // its options and image, which say what container it is
}

// dockerRuns reads the containers a script starts with docker run
// (podman run, nerdctl run, docker container run): a workload each, at
// the command, with the options that change isolation, its image and the
// command it runs there. An agent CLI that command starts with approval
// bypassed is an agents[] entry, as in a settings file.
func dockerRuns(file string, calls []shell.Call) []started {
	var out []started
	seen := map[string]int{}
	builds := map[string]*model.Build{} // image tag -> what the script builds it from
	for _, c := range calls {
		words := c.Texts()
		i := agentcli.ExeIndex(words)
		if i < 0 || !engines[path.Base(words[i])] {
			continue
		}
		if tags, b, ok := buildOf(file, words[i+1:], c.Line); ok {
			for _, t := range tags {
				if b != nil {
					builds[t] = b
				}
			}
			continue
		}
		args, ok := runArgs(words[i+1:])
		if !ok {
			continue
		}
		args = dropSpreads(args, c.Args[len(c.Args)-len(args):])
		r := readRun(file, c, path.Base(words[i]), args, len(out))
		if r.w.Image != nil {
			if b, ok := builds[untagged(r.w.Image.Value)]; ok {
				bb := *b
				r.w.Build = &bb
			}
		}
		if j, ok := seen[r.key]; ok {
			// The same container started from another branch (if/else
			// around one argument array): one workload, its commands both.
			out[j].w.Commands = append(out[j].w.Commands, r.w.Commands...)
			out[j].creds = append(out[j].creds, r.creds...)
			if out[j].agent == nil {
				out[j].agent = r.agent
			}
			continue
		}
		seen[r.key] = len(out)
		out = append(out, r)
	}
	return out
}

// buildOf reads a docker build (buildx build, image build) the script
// runs: the tags it gives the image and the Dockerfile and context it
// builds from; false when the command is no build. The context is taken
// from the repository's root, where a script is run from; one the script
// computes ($(dirname "$0"), $SCRIPT_DIR) is the script's own directory.
func buildOf(file string, args []string, line int) ([]string, *model.Build, bool) {
	args, ok := subcommand(args, "build", "buildx build", "image build")
	if !ok {
		return nil, nil, false
	}
	var tags []string
	dockerfile, ctx := "", ""
	for j := 0; j < len(args); j++ {
		flag, val, hasVal := oci.SplitRunFlag(args[j])
		if flag == "" {
			ctx = args[j]
			continue
		}
		if !hasVal && buildValueFlags[flag] && j+1 < len(args) {
			j++
			val = args[j]
		}
		switch flag {
		case "-t", "--tag":
			tags = append(tags, untagged(val))
		case "-f", "--file":
			dockerfile = val
		}
	}
	switch {
	case ctx == "" || strings.Contains(ctx, "://") || ctx == "-":
		return tags, nil, len(tags) > 0 // a remote or piped context: no file here
	case strings.Contains(ctx, "$"):
		ctx = path.Dir(file)
	default:
		ctx = path.Clean(ctx)
	}
	switch {
	case dockerfile == "":
		dockerfile = path.Join(ctx, "Dockerfile")
	case strings.Contains(dockerfile, "$"):
		dockerfile = path.Join(ctx, path.Base(dockerfile))
	default:
		dockerfile = path.Clean(dockerfile)
	}
	return tags, &model.Build{Dockerfile: dockerfile, Context: ctx, Loc: model.Loc{File: file, Line: line}}, true
}

// buildValueFlags are the docker build options that take a value.
var buildValueFlags = map[string]bool{
	"-t": true, "--tag": true, "-f": true, "--file": true, "--build-arg": true, "--target": true, "--platform": true,
	"--label": true, "--network": true, "--secret": true, "--ssh": true, "--cache-from": true, "--cache-to": true,
	"-o": true, "--output": true, "--progress": true, "--build-context": true, "--add-host": true, "--iidfile": true,
	"--shm-size": true, "--ulimit": true, "-m": true, "--memory": true,
}

// untagged is an image reference without a :latest tag, as docker reads
// "box" and "box:latest" alike.
func untagged(ref string) string { return strings.TrimSuffix(ref, ":latest") }

// runArgs returns the arguments after the run subcommand; false when the
// command is no run.
func runArgs(args []string) ([]string, bool) { return subcommand(args, "run", "container run") }

// subcommand returns the arguments after the first of the engine's
// subcommands (as words: "container run") that follows its global options
// (docker --context ci run …); false when none does.
func subcommand(args []string, forms ...string) ([]string, bool) {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") {
		if engineValueFlags[args[i]] {
			i++
		}
		i++
	}
	for _, f := range forms {
		ws := strings.Fields(f)
		if len(args)-i >= len(ws) && slices.Equal(args[i:i+len(ws)], ws) {
			return args[i+len(ws):], true
		}
	}
	return nil, false
}

// spread is an array the script does not give, expanded whole
// (${VOLUMES[@]}), or a variable named for options ($DOCKER_OPTS,
// $extra_args): options, not the image.
var spread = regexp.MustCompile(`^\$\{[A-Za-z_][A-Za-z0-9_]*\[@\]\}$|^\$\{?[A-Za-z_]*(?i:args|opts|options|flags)\}?$`)

// dropSpreads leaves out the words whose options are not known, and empty
// ones (an empty array expanded), so that the image is the first word that
// is no option.
func dropSpreads(words []string, args []shell.Arg) []string {
	out := words[:0:0]
	for i, w := range words {
		if w == "" || !args[i].Known && spread.MatchString(w) { // "${EMPTY[@]}" is no word
			continue
		}
		out = append(out, w)
	}
	return out
}

// hostVar is a shell variable a word starts with ($TOKEN, ${TOKEN}), whose
// value the script does not give: the host's.
var hostVar = regexp.MustCompile(`^\$\{?([A-Za-z_][A-Za-z0-9_]*)`)

func readRun(file string, c shell.Call, engine string, args []string, n int) started {
	loc := model.Loc{File: file, Line: c.Line}
	r := started{w: model.Workload{
		ID: fmt.Sprintf("script:%s:%d", file, c.Line), Source: "script", Loc: loc,
		KeepsEntrypoint: true,
	}}
	if n > 0 {
		r.w.ID = fmt.Sprintf("%s:%d", r.w.ID, n)
	}
	w := &r.w
	var entrypoint, name string
	hooks := oci.RunHooks{
		Env:  func(k, v string, has bool, at model.Loc) { r.env(engine, k, v, has, at) },
		User: func(u *model.Str) { w.User = u },
	}
	i := 0
	for ; i < len(args); i++ {
		flag, val, hasVal := oci.SplitRunFlag(args[i])
		if flag == "" {
			break // the image
		}
		if flag == "--" {
			i++
			break
		}
		if !hasVal && oci.RunTakesValue(flag) && i+1 < len(args) {
			i++
			val, hasVal = args[i], true
		}
		switch flag {
		case "--name":
			name = val
		case "--entrypoint":
			entrypoint = val
		case "-l", "--label":
			k, v, _ := strings.Cut(val, "=")
			if w.Labels == nil {
				w.Labels = map[string]string{}
			}
			w.Labels[k] = v
		}
		oci.ApplyRunFlag(w, flag, val, hasVal, loc, hooks)
	}
	for j := range w.Mounts {
		w.Mounts[j].WorkspaceRel = workspaceRel(w.Mounts[j])
	}
	if i < len(args) {
		w.Image = &model.Str{Value: args[i], Loc: loc}
		i++
	}
	r.key = engine + "\x00" + strings.Join(args[:min(i, len(args))], "\x00")
	cmd := args[min(i, len(args)):]
	if entrypoint != "" {
		cmd = append([]string{entrypoint}, cmd...)
	}
	w.Name = name
	if w.Image != nil && (w.Name == "" || strings.Contains(w.Name, "$") && !strings.Contains(w.Image.Value, "$")) {
		w.Name = w.Image.Value // --name "$CONTAINER_NAME": the image says more
	}
	if len(cmd) > 0 {
		text := strings.Join(cmd, " ")
		if len(cmd) > 2 && shell.IsShell(path.Base(cmd[0])) && cmd[1] == "-c" {
			text = cmd[2]
		}
		_, found := secrets.Hide(text)
		for _, f := range found {
			r.credential(f.SecretRef, "arg", engine+" run in "+file+" command", loc)
		}
		w.Commands = append(w.Commands, model.Command{Phase: "command", Text: secrets.Redact(strings.Join(cmd, " ")), Loc: loc})
		if r.agent = bypassAgent(loc, text); r.agent != nil {
			r.agent.Context, r.agent.Workload = "container started by "+file, w.ID
		}
	}
	return r
}

// bypassAgent is the agent a container's command starts with approval
// bypassed (codex --dangerously-bypass-approvals-and-sandbox), nil when
// none.
func bypassAgent(loc model.Loc, text string) *model.Agent {
	return bypassIn(loc, text, 0)
}

func bypassIn(loc model.Loc, text string, depth int) *model.Agent {
	for _, words := range agentcli.Split(text) {
		if i := agentcli.ExeIndex(words); depth < 2 && i >= 0 && i+2 < len(words) && shell.IsShell(path.Base(words[i])) && words[i+1] == "-c" {
			// sh -c '… claude --dangerously-skip-permissions …'
			if a := bypassIn(loc, words[i+2], depth+1); a != nil {
				return a
			}
			continue
		}
		if tool, flag := agentcli.BypassFlag(words); tool != "" {
			a := agentcli.BypassAgent(tool, flag, loc, "", "")
			return &a
		}
	}
	return nil
}

// workspaceRel places a bind of the directory the script runs in ($PWD,
// ${PWD} and $(pwd) read as $PWD, or .) in the repository: a script is run
// from its root.
func workspaceRel(m model.Mount) string {
	if m.Type != "bind" {
		return ""
	}
	for _, cwd := range []string{"$PWD", "."} {
		if m.Source == cwd {
			return "."
		}
		if rest, ok := strings.CutPrefix(m.Source, cwd+"/"); ok && rest != "" {
			return path.Clean(rest)
		}
	}
	return ""
}

// env records a variable: whether it passes a host variable on and whether
// its literal value is a credential, never the value.
func (r *started) env(engine, name, value string, hasValue bool, loc model.Loc) {
	if name = strings.TrimSpace(name); name == "" {
		return
	}
	from := ""
	if m := hostVar.FindStringSubmatch(value); m != nil {
		from = m[1]
	}
	ev := secrets.EnvVar(name, value, hasValue, from, loc)
	if ev.Secret != nil {
		r.credential(*ev.Secret, "env", engine+" run in "+loc.File+" environment "+name, loc)
	}
	r.w.Env = append(r.w.Env, ev)
}

func (r *started) credential(ref model.SecretRef, where, context string, loc model.Loc) {
	r.creds = append(r.creds, model.Credential{
		SecretRef: ref, Where: where, Context: context, Workload: r.w.ID,
		// The script is in the repository the agent works on.
		ReadableByAgent: true, Loc: loc,
	})
}
