package firewall

import (
	"slices"
	"testing"

	"github.com/sandbox-audit/sandbox-audit/collectors/internal/fuzzcheck"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// FuzzCollect feeds arbitrary scripts: what fuzzcheck.Collect checks of
// every collector, and every firewall fact points into the script.
func FuzzCollect(f *testing.F) {
	for _, seed := range []string{
		"iptables -P OUTPUT DROP\niptables -A OUTPUT -p tcp --dport 22 -j ACCEPT\n",
		"f() { iptables \"$@\"; f; }\nf -P OUTPUT DROP\n",
		"nft -f - <<EOF\ntable inet t { chain c { type filter hook output priority 0; policy drop; tcp dport { 1, 2 } accept } }\nEOF\n",
		"nft add chain fw out '{ type filter hook output priority 0 ; policy drop ; }'\nnft add rule fw out oifname != lo drop\n",
		"ufw default deny outgoing\nufw allow out to any port 22\nufw enable\n",
		"iptables-restore <<X\n*filter\n:OUTPUT DROP\n-A OUTPUT -j ACCEPT\nX\n",
		"A=(${B[@]} $(c))\nfor x in \"${A[@]}\"; do iptables -I OUTPUT 99 -d $x -j ACCEPT; done\n",
		"if then",
		"iptables -A OUTPUT ! -d 10.0.0.0/8 -m owner --uid-owner 0 -j ACCEPT\nexit\n",
		"A=(-v \"$HOME/.codex:/root/.codex\")\ndocker --context x run --rm \"${A[@]}\" -e K=$V --name n img codex --yolo\n",
		"podman container run --entrypoint sh alpine -c 'claude --dangerously-skip-permissions'\ndocker run\n",
	} {
		f.Add([]byte(seed))
	}
	fuzzcheck.Seed(f, []string{"../../fixtures/scenarios/devcontainer-firewall*/.devcontainer/*.sh"})
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := fuzzcheck.Collect(t, New(), file, data, fuzzcheck.Options{})
		if err != nil {
			return
		}
		lines := fuzzcheck.Lines(data)
		for _, fw := range doc.Firewalls {
			if fw.File != file {
				t.Fatalf("firewall file %q", fw.File)
			}
			if fw.Policy != nil && (fw.Policy.Line < 1 || fw.Policy.Line > lines) {
				t.Fatalf("policy at line %d of %d", fw.Policy.Line, lines)
			}
			for _, h := range fw.Holes {
				if h.Line < 1 || h.Line > lines {
					t.Fatalf("hole %+v outside the script (%d lines)", h, lines)
				}
			}
		}
		for _, w := range doc.Workloads {
			if w.Source != "script" || w.File != file || w.Line < 1 || w.Line > lines {
				t.Fatalf("workload %s from %s at %s:%d (%d lines)", w.ID, w.Source, w.File, w.Line, lines)
			}
			for _, e := range w.Env {
				if e.Secret != nil && !slices.ContainsFunc(doc.Credentials, func(c model.Credential) bool { return c.Line == e.Line && c.Fingerprint == e.Secret.Fingerprint }) {
					t.Fatalf("env %s holds a credential that is not among the credentials", e.Name)
				}
			}
		}
		for _, a := range doc.Agents {
			if a.ApprovalMode == nil || a.ApprovalMode.Value != "bypass" || a.Line < 1 || a.Line > lines {
				t.Fatalf("agent %+v", a)
			}
		}
	})
}
