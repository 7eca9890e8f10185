package audit

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/internal/testenv"
	"github.com/sandbox-audit/sandbox-audit/policies"
)

// hardenedCompose passes disposable, network and credentials on its own.
const hardenedCompose = `services:
  runner:
    image: ghcr.io/example/agent@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
    user: "1000:1000"
    network_mode: none
    read_only: true
    cap_drop: [ALL]
    security_opt: [no-new-privileges:true]
    runtime: runsc
`

func put(t *testing.T, root, rel, body string) string {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestUnreadFilesNeverPass: a configuration file the audit could not read
// whole keeps the properties its format speaks to from passing, whatever
// else passes, and says so in the property and in its errors[] entry.
func TestUnreadFilesNeverPass(t *testing.T) {
	type want struct {
		status  map[string]string
		unread  []string // properties.network.unread
		errKind string
		errProp []string
		partial bool
	}
	tests := []struct {
		name  string
		setup func(t *testing.T, root string)
		want  want
	}{
		{"all read", func(t *testing.T, root string) {}, want{
			status: map[string]string{"disposable": "pass", "network": "pass", "credentials": "pass", "review": "unknown"},
			unread: []string{},
		}},
		{"unparseable manifest", func(t *testing.T, root string) {
			put(t, root, "k8s/pod.yaml", "apiVersion: v1\nkind: Pod\nspec: [\n")
		}, want{
			status: map[string]string{"disposable": "unknown", "network": "unknown", "credentials": "unknown", "review": "unknown"},
			unread: []string{"k8s/pod.yaml"}, errKind: "kubernetes", errProp: []string{"disposable", "network", "credentials"},
		}},
		{"partly parsed manifest with a privileged pod", func(t *testing.T, root string) {
			put(t, root, "k8s/pods.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\nspec:\n  containers:\n    - name: a\n      image: x@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n      securityContext:\n        privileged: true\n---\nkind: [\n")
		}, want{
			// what was read still fails: an unread remainder hides nothing
			// found before it
			status: map[string]string{"disposable": "fail", "network": "fail", "credentials": "fail", "review": "unknown"},
			unread: []string{"k8s/pods.yaml"}, errKind: "kubernetes", errProp: []string{"disposable", "network", "credentials"}, partial: true,
		}},
		{"oversized compose file", func(t *testing.T, root string) {
			// sparse: over the size cap without writing 9 MB
			p := put(t, root, "big/docker-compose.yml", "")
			if err := os.Truncate(p, 9<<20); err != nil {
				t.Fatal(err)
			}
		}, want{
			status: map[string]string{"disposable": "unknown", "network": "unknown", "credentials": "unknown", "review": "unknown"},
			unread: []string{"big/docker-compose.yml"}, errKind: "compose", errProp: []string{"disposable", "network", "credentials"},
		}},
		{"FIFO named like agent settings", func(t *testing.T, root string) {
			if err := os.MkdirAll(filepath.Join(root, ".claude"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(filepath.Join(root, ".claude", "settings.json"), 0o644); err != nil {
				testenv.SkipOutsideCI(t, "mkfifo: "+err.Error())
			}
		}, want{
			status: map[string]string{"disposable": "unknown", "network": "unknown", "credentials": "unknown", "review": "unknown"},
			unread: []string{".claude/settings.json"}, errKind: "claude", errProp: []string{"disposable", "network", "credentials", "review"},
		}},
		{"egress only through a proxy variable and a firewall in the image", func(t *testing.T, root string) {
			put(t, root, "sandbox/compose.yaml", "services:\n  proxy:\n    image: mitm\n  agent:\n    image: a@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n"+
				"    user: \"1000:1000\"\n    read_only: true\n    runtime: runsc\n    security_opt: [no-new-privileges:true]\n    cap_drop: [ALL]\n    cap_add: [NET_ADMIN]\n    environment:\n      - HTTPS_PROXY=http://proxy:8080\n")
		}, want{
			// what the image's firewall lets out is not known: network is
			// unknown, never a pass on an egress-unverified note
			status: map[string]string{"disposable": "pass", "network": "unknown", "credentials": "pass", "review": "unknown"},
			unread: []string{"sandbox/compose.yaml:13 (egress control of agent: HTTP(S)_PROXY to compose service proxy)"},
		}},
		{"git config broken after a clean section: partial, speaks to credentials only", func(t *testing.T, root string) {
			put(t, root, "ci.gitconfig", "[core]\n\tbare = false\n[credential\n")
		}, want{
			// what was read holds nothing wrong, but it was not read whole
			status: map[string]string{"disposable": "pass", "network": "pass", "credentials": "unknown", "review": "unknown"},
			unread: []string{}, errKind: "gitconfig", errProp: []string{"credentials"}, partial: true,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			put(t, root, "compose.yaml", hardenedCompose)
			tt.setup(t, root)
			rep, err := Audit(t.Context(), Options{Path: root, Now: time.Now(), Config: &policies.Config{Version: 1, Require: []string{"network"}}})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, p := range rep.Properties.Each() {
				got[p.Key] = p.Status
			}
			if diff := cmp.Diff(tt.want.status, got); diff != "" {
				t.Errorf("statuses (-want +got):\n%s\nerrors: %+v", diff, rep.Errors)
			}
			if rep.Verdict == "boundary" {
				t.Errorf("verdict boundary")
			}
			if diff := cmp.Diff(tt.want.unread, rep.Properties.Network.Unread); diff != "" {
				t.Errorf("network.unread (-want +got):\n%s", diff)
			}
			// require: [network] fails exactly when network is not read whole
			if rep.Gate.Passed != (got["network"] == "pass") {
				t.Errorf("gate passed = %v with network %s: %v", rep.Gate.Passed, got["network"], rep.Gate.Reasons)
			}
			if tt.want.errKind == "" {
				if len(rep.Errors) != 0 {
					t.Errorf("errors = %+v", rep.Errors)
				}
				return
			}
			if len(rep.Errors) != 1 {
				t.Fatalf("errors = %+v, want one", rep.Errors)
			}
			e := rep.Errors[0]
			if e.Kind != tt.want.errKind || e.Partial != tt.want.partial {
				t.Errorf("error kind %q partial %v, want %q %v", e.Kind, e.Partial, tt.want.errKind, tt.want.partial)
			}
			if diff := cmp.Diff(tt.want.errProp, e.Properties); diff != "" {
				t.Errorf("errors[0].properties (-want +got):\n%s", diff)
			}
		})
	}
}

// TestOnlyUnparseableFilesAreNoEvidence: a tree of files that all failed
// to parse is not "credentials pass 100", and fails require: [credentials].
func TestOnlyUnparseableFilesAreNoEvidence(t *testing.T) {
	root := t.TempDir()
	put(t, root, "a.yaml", "kind: [\n")
	put(t, root, ".mcp.json", `{"mcpServers": `)
	put(t, root, "Dockerfile", "\x00\x01 not a Dockerfile")
	rep, err := Audit(t.Context(), Options{Path: root, Now: time.Now(), Config: &policies.Config{Version: 1, Require: []string{"credentials"}}})
	if err != nil {
		t.Fatal(err)
	}
	c := rep.Properties.Credentials
	if c.Status != "unknown" || c.Score != 0 {
		t.Errorf("credentials = %+v, want unknown with score 0", c)
	}
	if diff := cmp.Diff([]string{".mcp.json", "Dockerfile", "a.yaml"}, c.Unread); diff != "" {
		t.Errorf("credentials.unread (-want +got):\n%s", diff)
	}
	if rep.Gate.Passed || rep.Verdict != "unknown" {
		t.Errorf("gate %+v, verdict %s", rep.Gate, rep.Verdict)
	}
}

// TestStrict: any errors[] entry makes the gate incomplete (exit 2), from
// the flag or the policy file; without strict the gate is not affected.
func TestStrict(t *testing.T) {
	root := t.TempDir()
	put(t, root, "compose.yaml", hardenedCompose)
	put(t, root, "k8s/pod.yaml", "kind: [\n")
	for _, tt := range []struct {
		name       string
		flag, file bool
	}{{"neither", false, false}, {"flag", true, false}, {"policy file", false, true}} {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := Audit(t.Context(), Options{Path: root, Now: time.Now(), Strict: tt.flag, Config: &policies.Config{Version: 1, Strict: tt.file}})
			if err != nil {
				t.Fatal(err)
			}
			strict := tt.flag || tt.file
			if rep.Gate.Incomplete != strict || rep.Gate.Passed == strict {
				t.Errorf("gate = %+v, want incomplete %v", rep.Gate, strict)
			}
		})
	}
}
