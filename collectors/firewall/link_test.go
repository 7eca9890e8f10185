package firewall_test

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/registry"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// write lays files out under a temporary root.
func write(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, body := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func scan(t *testing.T, root string) *model.Document {
	t.Helper()
	doc, errs, err := collectors.Scan(context.Background(), root, collectors.Options{Collectors: registry.All()})
	if err != nil || len(errs) > 0 {
		t.Fatalf("scan: %v %+v", err, errs)
	}
	return doc
}

const script = `#!/bin/bash
set -euo pipefail
iptables -F
iptables -A OUTPUT -o lo -j ACCEPT
iptables -A OUTPUT -d 127.0.0.11 -p udp --dport 53 -j ACCEPT
for host in registry.npmjs.org api.anthropic.com; do
  for ip in $(dig +short A "$host"); do ipset add allow "$ip" -exist; done
done
iptables -A OUTPUT -m set --match-set allow dst -j ACCEPT
iptables -P OUTPUT DROP
ip6tables -P OUTPUT DROP
`

// TestReferencePattern: the command runs the script by the path the
// Dockerfile copies it to, and sudo is limited to that script.
func TestReferencePattern(t *testing.T) {
	root := write(t, map[string]string{
		".devcontainer/devcontainer.json": `{
  "build": {"dockerfile": "Dockerfile"},
  "runArgs": ["--cap-add=NET_ADMIN", "--cap-add=NET_RAW"],
  "remoteUser": "agent",
  "postStartCommand": "sudo /usr/local/bin/egress.sh"
}`,
		".devcontainer/Dockerfile": `FROM debian:12
RUN useradd -m agent
COPY egress.sh /usr/local/bin/
RUN echo "agent ALL=(root) NOPASSWD: /usr/local/bin/egress.sh" > /etc/sudoers.d/agent-egress
USER agent
`,
		".devcontainer/egress.sh": script,
	})
	doc := scan(t, root)
	w := doc.Workloads[0]
	eg := w.Egress
	if eg == nil || !eg.Restricted || !eg.ScriptUnverified || eg.Script == nil || eg.Script.Path != ".devcontainer/egress.sh" {
		t.Fatalf("egress = %+v", eg)
	}
	if diff := cmp.Diff([]string{"127.0.0.11 udp/53", "api.anthropic.com", "ipset allow", "registry.npmjs.org"}, eg.Allow); diff != "" {
		t.Errorf("allow (-want +got):\n%s", diff)
	}
	if eg.By != "firewall script .devcontainer/egress.sh (postStartCommand)" || eg.Line != 5 {
		t.Errorf("by %q at line %d", eg.By, eg.Line)
	}
	if !eg.Script.Sudo {
		t.Errorf("the command runs the script through sudo: %+v", eg.Script)
	}
	if len(eg.Script.Rules.Holes) != 0 {
		t.Errorf("holes = %+v, want none", eg.Script.Rules.Holes)
	}
	if w.ImageUser == nil || w.ImageUser.Value != "agent" {
		t.Errorf("image user = %+v", w.ImageUser)
	}
	if len(w.Sudo) != 1 || w.Sudo[0].Commands[0] != "/usr/local/bin/egress.sh" {
		t.Errorf("sudo = %+v", w.Sudo)
	}
}

// TestRelativeScriptAndUnread: a script run by its workspace path; one
// that is not among the files read leaves egress unrestricted.
func TestRelativeScriptAndUnread(t *testing.T) {
	root := write(t, map[string]string{
		"a/.devcontainer/devcontainer.json": `{"image": "debian:12", "workspaceFolder": "/work", "workspaceMount": "source=${localWorkspaceFolder},target=/work,type=bind",
  "postCreateCommand": "sudo bash ${containerWorkspaceFolder}/.devcontainer/egress.sh"}`,
		"a/.devcontainer/egress.sh":         script,
		"b/.devcontainer/devcontainer.json": `{"image": "debian:12", "postStartCommand": "sudo /opt/init-firewall.sh"}`,
		"c/.devcontainer/devcontainer.json": `{"image": "debian:12", "postStartCommand": {"fw": "bash .devcontainer/run-firewall.sh"}}`,
		"c/.devcontainer/run-firewall.sh":   "#!/bin/sh\necho nothing here\n",
	})
	doc := scan(t, root)
	byFile := map[string]model.Workload{}
	for _, w := range doc.Workloads {
		byFile[w.File] = w
	}
	a := byFile["a/.devcontainer/devcontainer.json"].Egress
	if a == nil || !a.Restricted || a.Script.Path != "a/.devcontainer/egress.sh" {
		t.Errorf("a: egress %+v", a)
	}
	b := byFile["b/.devcontainer/devcontainer.json"].Egress
	if b == nil || b.Restricted || b.Script == nil || b.Script.NotRead != "not among the files read" {
		t.Errorf("b: egress %+v, want an unread script that restricts nothing", b)
	}
	if !a.Script.Sudo {
		t.Errorf("a: sudo bash runs the script as root: %+v", a.Script)
	}
	c := byFile["c/.devcontainer/devcontainer.json"].Egress
	if c == nil || c.Restricted || c.Script.NotRead != "it programs no packet filter" {
		t.Errorf("c: egress %+v", c)
	}
}

// TestEnforcedControlWins: network none already restricts egress; the
// script does not replace it.
func TestEnforcedControlWins(t *testing.T) {
	root := write(t, map[string]string{
		".devcontainer/devcontainer.json": `{"image": "debian:12", "runArgs": ["--network=none"], "postStartCommand": "bash .devcontainer/egress.sh"}`,
		".devcontainer/egress.sh":         script,
	})
	eg := scan(t, root).Workloads[0].Egress
	if eg == nil || eg.ScriptUnverified || eg.By != "runArgs --network=none" {
		t.Errorf("egress = %+v", eg)
	}
}

// TestComposeDevcontainer: a devcontainer on a compose service finds the
// script through the service's build.
func TestComposeDevcontainer(t *testing.T) {
	root := write(t, map[string]string{
		".devcontainer/devcontainer.json": `{"dockerComposeFile": "compose.yaml", "service": "agent", "remoteUser": "node",
  "postStartCommand": "sudo /usr/local/bin/init-firewall.sh"}`,
		".devcontainer/compose.yaml":     "services:\n  agent:\n    build:\n      context: .\n    volumes:\n      - ..:/workspace\n",
		".devcontainer/Dockerfile":       "FROM node:22\nCOPY init-firewall.sh /usr/local/bin/\nRUN echo 'node ALL=(ALL) NOPASSWD:ALL' > /etc/sudoers.d/node\nUSER node\n",
		".devcontainer/init-firewall.sh": script,
	})
	doc := scan(t, root)
	var dev model.Workload
	for _, w := range doc.Workloads {
		if w.Source == "devcontainer" {
			dev = w
		}
	}
	if dev.Egress == nil || !dev.Egress.Restricted || dev.Egress.Script.Path != ".devcontainer/init-firewall.sh" {
		t.Errorf("egress = %+v", dev.Egress)
	}
	if len(dev.Sudo) != 1 || dev.Sudo[0].Commands[0] != "ALL" {
		t.Errorf("sudo = %+v", dev.Sudo)
	}
}

// TestScriptChain: the command runs an entrypoint that runs the firewall
// script, by its container path and by a path beside it.
func TestScriptChain(t *testing.T) {
	root := write(t, map[string]string{
		".devcontainer/devcontainer.json":   `{"build": {"dockerfile": "Dockerfile"}, "postStartCommand": "/usr/local/bin/entrypoint.sh true"}`,
		".devcontainer/Dockerfile":          "FROM debian:12\nCOPY entrypoint.sh fw/egress.sh /usr/local/bin/\n",
		".devcontainer/entrypoint.sh":       "#!/bin/sh\nset -e\nsudo /usr/local/bin/egress.sh\nexec \"$@\"\n",
		".devcontainer/fw/egress.sh":        script,
		"b/.devcontainer/devcontainer.json": `{"image": "debian:12", "postStartCommand": "bash .devcontainer/start.sh"}`,
		"b/.devcontainer/start.sh":          "#!/bin/bash\nDIR=\"$(cd \"$(dirname \"$0\")\" && pwd)\"\nsudo \"$DIR/egress.sh\"\n",
		"b/.devcontainer/egress.sh":         script,
	})
	doc := scan(t, root)
	for _, w := range doc.Workloads {
		if w.Egress == nil || !w.Egress.Restricted || w.Egress.Script.Rules == nil {
			t.Errorf("%s: egress = %+v", w.File, w.Egress)
		}
	}
}

// TestDevcontainerKeepsEntrypoint: overrideCommand false keeps the image's
// ENTRYPOINT, so the firewall script it runs restricts the devcontainer;
// by default the devcontainer replaces it and the entrypoint is no
// evidence. An entrypoint not among the files read, in an image that
// copies in a firewall script, leaves egress unknown (not unrestricted).
func TestDevcontainerKeepsEntrypoint(t *testing.T) {
	const dockerfile = "FROM debian:12\nCOPY init-firewall.sh /usr/local/sbin/box-firewall\nCOPY entrypoint.sh /usr/local/sbin/box-entrypoint\nENTRYPOINT [\"/usr/local/sbin/box-entrypoint\"]\n"
	egress := func(files map[string]string) *model.Egress {
		t.Helper()
		for _, w := range scan(t, write(t, files)).Workloads {
			if w.Source == "devcontainer" {
				return w.Egress
			}
		}
		t.Fatal("no devcontainer")
		return nil
	}
	kept := map[string]string{
		".devcontainer/devcontainer.json": `{"build": {"dockerfile": "Dockerfile"}, "overrideCommand": false}`,
		".devcontainer/Dockerfile":        dockerfile,
		".devcontainer/init-firewall.sh":  script,
		".devcontainer/entrypoint.sh":     "#!/bin/bash\n/usr/local/sbin/box-firewall\nexec sleep infinity\n",
	}
	if eg := egress(kept); eg == nil || !eg.Restricted || eg.Script.Path != ".devcontainer/init-firewall.sh" || eg.Script.Phase != "entrypoint" {
		t.Errorf("kept entrypoint: egress = %+v", eg)
	}
	replaced := maps.Clone(kept)
	replaced[".devcontainer/devcontainer.json"] = `{"build": {"dockerfile": "Dockerfile"}}`
	if eg := egress(replaced); eg != nil {
		t.Errorf("replaced entrypoint: egress = %+v, want none", eg)
	}
	unread := maps.Clone(kept)
	delete(unread, ".devcontainer/entrypoint.sh")
	if eg := egress(unread); eg == nil || eg.Restricted || eg.Script == nil || eg.Script.NotRead != model.NotAmongRead || eg.Script.Holds != ".devcontainer/init-firewall.sh" {
		t.Errorf("entrypoint not read: egress = %+v, want a script not among the files read", eg)
	}
}

// TestSudoToArgsScript: a passwordless sudoers grant for a copied script
// that ends in exec "$@" runs whatever command its caller names; the same
// grant with its arguments fixed, or for a script that runs only its own
// commands, is not marked.
func TestSudoToArgsScript(t *testing.T) {
	const dockerfile = "FROM debian:12\nRUN apt-get install -y sudo\n" +
		"COPY entry.sh /usr/local/bin/entry.sh\nCOPY init-firewall.sh /usr/local/bin/init-firewall.sh\n" +
		"RUN echo \"node ALL=(root) NOPASSWD: /usr/local/bin/init-firewall.sh, /usr/local/bin/entry.sh\" > /etc/sudoers.d/node\nUSER node\n"
	// grants maps each command of the grants to where it runs its
	// caller's arguments, nil when it does not.
	grants := func(files map[string]string) map[string]*model.Loc {
		t.Helper()
		out := map[string]*model.Loc{}
		for _, w := range scan(t, write(t, files)).Workloads {
			for _, g := range w.Sudo {
				for _, c := range g.Commands {
					out[c] = nil
					if g.RunsArgs != nil && g.RunsArgs.Command == c {
						out[c] = &g.RunsArgs.Loc
					}
				}
			}
		}
		return out
	}
	files := map[string]string{
		".devcontainer/devcontainer.json": `{"build": {"dockerfile": "Dockerfile"}}`,
		".devcontainer/Dockerfile":        dockerfile,
		".devcontainer/init-firewall.sh":  script,
		".devcontainer/entry.sh":          "#!/bin/bash\nset -e\necho starting\nexec \"$@\"\n",
	}
	got := grants(files)
	if l := got["/usr/local/bin/entry.sh"]; l == nil || *l != (model.Loc{File: ".devcontainer/entry.sh", Line: 4}) {
		t.Errorf("entry.sh grant: RunsArgs = %+v, want .devcontainer/entry.sh:4", l)
	}
	if l, ok := got["/usr/local/bin/init-firewall.sh"]; !ok || l != nil {
		t.Errorf("init-firewall.sh grant: RunsArgs = %+v (present %v), want none", l, ok)
	}
	own := maps.Clone(files)
	own[".devcontainer/entry.sh"] = "#!/bin/bash\nexec sleep infinity\n"
	if l := grants(own)["/usr/local/bin/entry.sh"]; l != nil {
		t.Errorf("script that runs its own command: RunsArgs = %+v, want none", l)
	}
	fixed := maps.Clone(files)
	fixed[".devcontainer/Dockerfile"] = strings.Replace(dockerfile, "/usr/local/bin/entry.sh\\\"", "/usr/local/bin/entry.sh start\\\"", 1)
	if l := grants(fixed)["/usr/local/bin/entry.sh start"]; l != nil {
		t.Errorf("grant with its arguments fixed: RunsArgs = %+v, want none", l)
	}
}
