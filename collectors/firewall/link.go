package firewall

import (
	"path"
	"slices"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/collectors/internal/agentcli"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/shell"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// allTraffic starts the text of a hole that accepts every packet.
const allTraffic = "all traffic to any host"

// Link gives each workload whose command runs a firewall script the egress
// that script sets up, unless an enforced control (network none, an
// internal network, an egress NetworkPolicy) already restricts it. It runs
// after the other collectors' Link, which resolve images and policies.
func (Collector) Link(doc *model.Document) {
	scripts := map[string]*model.Firewall{}
	for i := range doc.Firewalls {
		scripts[doc.Firewalls[i].File] = &doc.Firewalls[i]
	}
	calls := map[string]model.Script{}
	for _, s := range doc.Scripts {
		calls[s.File] = s
	}
	read := map[string]bool{}
	for _, f := range doc.Files {
		read[f.Path] = true
	}
	images := map[string]*model.Image{}
	for i := range doc.Images {
		images[doc.Images[i].File] = &doc.Images[i]
	}
	for i := range doc.Workloads {
		w := &doc.Workloads[i]
		if w.Egress != nil && w.Egress.Restricted && !w.Egress.ScriptUnverified {
			continue
		}
		b := doc.BuildOf(w)
		var img *model.Image
		if b != nil {
			img = images[b.Dockerfile]
		}
		if eg := egressFor(w, b, img, &index{scripts, calls, read}); eg != nil {
			w.Egress = eg
		}
		argsScripts(w, b, img, calls)
	}
	doc.Agents = append(doc.Agents, commandAgents(doc.Workloads)...)
	done := map[string]bool{}
	for i := range doc.Images {
		doc.Agents = append(doc.Agents, entrypoint(&doc.Images[i], calls, done)...)
	}
}

// entrypoint reads what an image's entrypoint does, once: the non-root
// user it hands the work to (ENTRYPOINT ["gosu", "node", …], or exec gosu
// node "$@" in a script of the build context it runs), and the agents such
// a script starts with approval bypassed (exec claude
// --dangerously-skip-permissions), which run in the image's containers. A
// script a Dockerfile does not run is left out: it may be a developer's own
// command on the host. The build context is the Dockerfile's directory
// unless a workload of the scan builds it elsewhere, and then the same
// script is found there too. done marks the scripts already taken.
func entrypoint(img *model.Image, calls map[string]model.Script, done map[string]bool) []model.Agent {
	if img.Entrypoint == nil {
		return nil
	}
	cs, err := shell.Calls([]byte(img.Entrypoint.Value), 1)
	if err != nil {
		return nil
	}
	if d := shell.DropsTo(cs); d != nil {
		img.DropsTo = &model.Str{Value: d.User, Loc: img.Entrypoint.Loc}
	}
	var out []model.Agent
	b := &model.Build{Dockerfile: img.File, Context: path.Dir(img.File)}
	scripts, _ := shell.ScriptsOf(cs)
	for _, ref := range scripts {
		for _, f := range candidates(ref, "", b, img) {
			s, ok := calls[f]
			if !ok {
				continue
			}
			if img.DropsTo == nil && s.DropsTo != nil {
				d := *s.DropsTo
				img.DropsTo = &d
			}
			if done[f] {
				continue
			}
			done[f] = true
			for _, a := range s.Bypass {
				a.Context, a.Workload = "script "+f+", the entrypoint of "+img.File, "image:"+img.File
				out = append(out, a)
			}
		}
	}
	return out
}

// imageDrops sets the user an image's entrypoint hands its work to: the
// entrypoint itself (ENTRYPOINT ["gosu", "node", …]) or a script of the
// build context it runs (the Dockerfile's directory: COPY sources are
// relative to the context, which is that directory unless a workload of
// the scan builds it elsewhere, and then the same script is found there
// too).
func imageDrops(img *model.Image, calls map[string]model.Script) {
	if img.Entrypoint == nil {
		return
	}
	if cs, err := shell.Calls([]byte(img.Entrypoint.Value), 1); err == nil {
		if d := shell.DropsTo(cs); d != nil {
			img.DropsTo = &model.Str{Value: d.User, Loc: img.Entrypoint.Loc}
			return
		}
	}
	b := &model.Build{Dockerfile: img.File, Context: path.Dir(img.File)}
	scripts, _ := shell.ScriptRuns(img.Entrypoint.Value)
	for _, ref := range scripts {
		for _, f := range candidates(ref, "", b, img) {
			if s, ok := calls[f]; ok && s.DropsTo != nil {
				d := *s.DropsTo
				img.DropsTo = &d
				return
			}
		}
	}
}

// commandAgents are the agents the commands of compose services,
// Kubernetes containers and devcontainers start in the container with
// approval bypassed (command: claude --dangerously-skip-permissions), an
// agents[] entry each, as a settings file that sets the mode would be. A
// container a script starts has its entry from the script already.
func commandAgents(ws []model.Workload) []model.Agent {
	kinds := map[string]string{"compose": "compose service ", "kubernetes": "Kubernetes container ", "devcontainer": "devcontainer "}
	var out []model.Agent
	for _, w := range ws {
		kind, ok := kinds[w.Source]
		if !ok {
			continue
		}
		for _, c := range w.Commands {
			if c.OnHost {
				continue
			}
			if a := bypassAgent(c.Loc, c.Text); a != nil {
				a.Context, a.Workload = kind+w.Name+" "+c.Phase, w.ID
				out = append(out, *a)
			}
			for _, a := range agentcli.AliasAgents(c.File, c.Text, w.ID) {
				a.Loc = c.Loc // the alias is written in the command
				out = append(out, a)
			}
		}
	}
	return out
}

// argsScripts marks the sudoers grants of w for a script, with no
// arguments fixed, that runs the arguments it is given (exec "$@" at the
// end of an entrypoint): they run any command as the grant's user.
func argsScripts(w *model.Workload, b *model.Build, img *model.Image, calls map[string]model.Script) {
	for i := range w.Sudo {
		g := &w.Sudo[i]
		for _, c := range g.Commands {
			c = strings.TrimSpace(c)
			if !strings.HasPrefix(c, "/") || strings.ContainsAny(c, " \t") {
				continue // not a path, or its arguments are fixed
			}
			for _, f := range candidates(c, "", b, img) {
				if s, ok := calls[f]; ok && s.ArgsLine > 0 {
					g.RunsArgs = &model.ArgsRun{Command: c, Loc: model.Loc{File: f, Line: s.ArgsLine}}
				}
			}
		}
	}
}

// run is one script a workload runs, with where it is said and whether
// through sudo.
type run struct {
	ref   string
	phase string
	sudo  bool
	loc   model.Loc
}

// runs lists the scripts a workload's in-container commands run, and the
// ENTRYPOINT of the image it builds when the workload keeps it (compose,
// Kubernetes; a devcontainer replaces it unless overrideCommand is false).
func runs(w *model.Workload, img *model.Image) []run {
	var out []run
	for _, c := range w.Commands {
		if c.OnHost {
			continue
		}
		for _, s := range c.Scripts {
			out = append(out, run{ref: s, phase: c.Phase, sudo: slices.Contains(c.SudoScripts, s), loc: c.Loc})
		}
	}
	if img != nil && img.Entrypoint != nil && (w.Source != "devcontainer" || w.KeepsEntrypoint) {
		scripts, sudo := shell.ScriptRuns(img.Entrypoint.Value)
		for _, s := range scripts {
			out = append(out, run{ref: s, phase: "entrypoint", sudo: slices.Contains(sudo, s), loc: img.Entrypoint.Loc})
		}
	}
	return out
}

// index is what Link knows about the repository's scripts.
type index struct {
	firewalls map[string]*model.Firewall
	calls     map[string]model.Script // script file -> the scripts it runs
	read      map[string]bool
}

// maxHops bounds how far Link follows scripts that run scripts (an
// entrypoint that runs the firewall script).
const maxHops = 3

// egressFor is the egress a workload's firewall script sets up; nil when
// it runs none. A script that was not read keeps egress unrestricted: what
// it does is unknown.
func egressFor(w *model.Workload, b *model.Build, img *model.Image, ix *index) *model.Egress {
	var notRead *model.Egress
	for _, r := range runs(w, img) {
		if eg := ix.follow(r, r.ref, "", b, img, 0); eg != nil {
			return eg
		}
		if notRead != nil || w.Egress != nil {
			continue
		}
		ref, from := r.ref, ""
		if !looksLikeFirewall(ref) {
			// A script that runs one (an entrypoint or start script
			// whose firewall script is not in the scan).
			ref, from = ix.unreadFirewall(r.ref, "", b, img, 0)
		}
		holds := ""
		if ref == "" && r.phase == "entrypoint" && ix.unreadScript(r.ref, b, img) {
			// The image's entrypoint is a script of the build context
			// that was not read, and the image holds a firewall script
			// that was: the entrypoint may well run it, or not.
			if holds = ix.copiedFirewall(b, img); holds != "" {
				ref = r.ref
			}
		}
		if ref != "" {
			reason := model.NotAmongRead
			for _, p := range candidates(ref, from, b, img) {
				if ix.read[p] {
					reason = "it programs no packet filter"
				}
			}
			notRead = &model.Egress{
				ScriptUnverified: true,
				By:               "firewall script " + ref + " (" + phaseName(r.phase) + "), not read: " + reason,
				Allow:            []string{},
				Loc:              r.loc,
				Script:           &model.EgressScript{Runs: ref, Phase: r.phase, NotRead: reason, Holds: holds},
			}
		}
	}
	return notRead
}

// unreadScript: ref is a file the image copies from the build context,
// and none of the files it may be was read.
func (ix *index) unreadScript(ref string, b *model.Build, img *model.Image) bool {
	cs := candidates(ref, "", b, img)
	for _, p := range cs {
		if ix.read[p] {
			return false
		}
	}
	return len(cs) > 0
}

// copiedFirewall is the firewall script the scan read that the image
// copies in, "" when none.
func (ix *index) copiedFirewall(b *model.Build, img *model.Image) string {
	if img == nil || b == nil {
		return ""
	}
	for _, c := range img.Copies {
		for _, src := range c.Sources {
			if p := path.Join(b.Context, src); ix.firewalls[p] != nil {
				return p
			}
		}
	}
	return ""
}

// unreadFirewall finds, through the scripts ref runs (as follow does), a
// script named like a firewall that none of them is: the reference and the
// script file that runs it, or "" when there is none.
func (ix *index) unreadFirewall(ref, from string, b *model.Build, img *model.Image, hops int) (string, string) {
	if hops >= maxHops {
		return "", ""
	}
	for _, p := range candidates(ref, from, b, img) {
		for _, next := range ix.calls[p].Runs {
			if looksLikeFirewall(next) {
				return next, p
			}
			if n, f := ix.unreadFirewall(next, p, b, img, hops+1); n != "" {
				return n, f
			}
		}
	}
	return "", ""
}

// follow resolves one script reference, from the script in file "from"
// ("" for a workload's command), to a firewall, through scripts that run it.
func (ix *index) follow(r run, ref, from string, b *model.Build, img *model.Image, hops int) *model.Egress {
	for _, p := range candidates(ref, from, b, img) {
		if fw := ix.firewalls[p]; fw != nil {
			return scriptEgress(r, p, fw)
		}
		if hops >= maxHops {
			continue
		}
		s := ix.calls[p]
		for _, next := range s.Runs {
			nr := r
			nr.sudo = r.sudo || slices.Contains(s.SudoRuns, next)
			if eg := ix.follow(nr, next, p, b, img, hops+1); eg != nil {
				return eg
			}
		}
	}
	return nil
}

func scriptEgress(r run, file string, fw *model.Firewall) *model.Egress {
	eg := &model.Egress{
		Restricted:       fw.Policy != nil && fw.Policy.Value == "deny",
		Allow:            append([]string{}, fw.Allow...),
		By:               "firewall script " + file + " (" + phaseName(r.phase) + ")",
		ScriptUnverified: true,
		Loc:              r.loc,
		Script:           &model.EgressScript{Runs: r.ref, Phase: r.phase, Path: file, Rules: fw, Sudo: r.sudo},
	}
	for _, h := range fw.Holes {
		if h.Kind == "any-host" && strings.HasPrefix(h.Text, allTraffic) {
			eg.AllowAll = true
		}
	}
	return eg
}

// candidates are the repository files a script reference may be: the path
// itself when the collector placed it in the repository, else the
// build-context file the image copies to that container path.
func candidates(ref, from string, b *model.Build, img *model.Image) []string {
	switch {
	case strings.HasPrefix(ref, "$"):
		// "$DIR/x.sh" in a script: most often a script beside it.
		if from == "" {
			return nil
		}
		return []string{path.Join(path.Dir(from), path.Base(ref))}
	case !strings.HasPrefix(ref, "/") && from != "":
		return []string{path.Join(path.Dir(from), ref)}
	case !strings.HasPrefix(ref, "/"):
		return []string{ref}
	}
	if img == nil || b == nil {
		return nil
	}
	var out []string
	for _, c := range img.Copies {
		dest := c.Dest
		if !strings.HasPrefix(dest, "/") {
			dest = path.Join("/", c.Workdir, dest)
		}
		for _, src := range c.Sources {
			target := dest
			if strings.HasSuffix(c.Dest, "/") || len(c.Sources) > 1 || path.Base(ref) == path.Base(src) && path.Dir(ref) == path.Clean(dest) {
				target = path.Join(dest, path.Base(src))
			}
			if path.Clean(target) == path.Clean(ref) {
				out = append(out, path.Join(b.Context, src))
			}
		}
	}
	return out
}

// looksLikeFirewall tells, by name, a script that a reader expects to
// restrict egress.
func looksLikeFirewall(ref string) bool {
	b := strings.ToLower(path.Base(ref))
	for _, w := range []string{"firewall", "iptables", "nftables", "egress"} {
		if strings.Contains(b, w) {
			return true
		}
	}
	return false
}

// phaseName names a command the way its format does.
func phaseName(phase string) string {
	switch phase {
	case "onCreate", "updateContent", "postCreate", "postStart", "postAttach", "initialize":
		return phase + "Command"
	case "":
		return "command"
	}
	return phase
}
