package live

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/model"
	"github.com/sandbox-audit/sandbox-audit/rules"
)

// TestInnermostBoundary: the same containers inside a Firecracker microVM
// (the VM's boot arguments and CPU flags added to the fixture roots) are
// judged as containers, the VM reported as the layer around them, and
// every rule fires as it does on bare metal: a container escape reaches the
// VM, which holds the engine and every other sandbox on it. Only the
// kernel the container shares is the VM's (live-shared-vm-kernel, lower):
// the VM isolates the host.
func TestInnermostBoundary(t *testing.T) {
	eng := builtinEngine(t)
	vm := filepath.Join("..", "..", "fixtures", "live", "firecracker", "proc")
	for _, name := range []string{"docker-default", "docker-privileged"} {
		t.Run(name, func(t *testing.T) {
			bare := copyFixture(t, name)
			nested := copyFixture(t, name)
			for _, f := range []string{"cmdline", "cpuinfo"} {
				data, err := os.ReadFile(filepath.Join(vm, f))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(nested, "proc", f), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			lb, _, _ := Collect(context.Background(), fixtureOptions(bare, fixtureNow))
			ln, _, _ := Collect(context.Background(), fixtureOptions(nested, fixtureNow))
			if ln.Isolation.Kind != "container" || ln.Isolation.Runtime != lb.Isolation.Runtime {
				t.Errorf("nested isolation = %s/%s, want container/%s", ln.Isolation.Kind, ln.Isolation.Runtime, lb.Isolation.Runtime)
			}
			if diff := cmp.Diff([]string{"firecracker", "container"}, ln.Isolation.Layers); diff != "" {
				t.Errorf("layers (-want +got):\n%s", diff)
			}
			want := ruleIDs(t, eng, lb)
			for i, id := range want {
				if id == "live-shared-kernel" {
					want[i] = "live-shared-vm-kernel"
				}
			}
			sort.Strings(want)
			if diff := cmp.Diff(want, ruleIDs(t, eng, ln)); diff != "" {
				t.Errorf("rules fired, bare metal (-) vs inside the microVM (+):\n%s", diff)
			}
		})
	}
}

func ruleIDs(t *testing.T, eng *rules.Engine, l *model.Live) []string {
	t.Helper()
	var out []string
	for _, f := range evalLive(t, eng, l, nil) {
		out = append(out, f.RuleID)
	}
	sort.Strings(out)
	return out
}
