package devcontainer

import (
	"strings"
	"testing"

	"github.com/sandbox-audit/sandbox-audit/collectors/internal/fuzzcheck"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// checkConsistent asserts what must hold for any collected devcontainer:
// one workload whose facts all point into the file, and every secret found
// in its environment listed as a credential.
func checkConsistent(t *testing.T, path string, data []byte, doc *model.Document) {
	t.Helper()
	lines := fuzzcheck.Lines(data)
	check := func(what string, l model.Loc) {
		t.Helper()
		if l.File != path || l.Line < 1 || l.Line > lines {
			t.Errorf("%s at %s:%d, want %s:1..%d", what, l.File, l.Line, path, lines)
		}
	}
	if len(doc.Workloads) != 1 {
		t.Fatalf("got %d workloads, want 1", len(doc.Workloads))
	}
	w := doc.Workloads[0]
	if w.ID != "devcontainer:"+path || w.Source != "devcontainer" {
		t.Errorf("workload id %q source %q", w.ID, w.Source)
	}
	check("workload", w.Loc)
	for _, p := range []*model.Str{w.Image, w.User, w.Runtime, w.Seccomp, w.NetworkMode, w.Restart} {
		if p != nil {
			check("field", p.Loc)
		}
	}
	for _, p := range []*model.Bool{w.Privileged, w.ReadOnlyRoot, w.HostNetwork, w.HostPID, w.HostIPC, w.AllowPrivEsc} {
		if p != nil {
			check("flag", p.Loc)
		}
	}
	for _, ss := range [][]model.Str{w.CapAdd, w.CapDrop, w.SecurityOpt, w.EnvFiles, w.Ports, w.Features} {
		for _, s := range ss {
			check("list item "+s.Value, s.Loc)
		}
	}
	for _, c := range w.CapAdd {
		if strings.HasPrefix(c.Value, "CAP_") || strings.ToUpper(c.Value) != c.Value {
			t.Errorf("capability %q not normalized", c.Value)
		}
	}
	for _, m := range w.Mounts {
		check("mount", m.Loc)
		if m.Persistent != (m.Type == "bind" || m.Type == "volume") {
			t.Errorf("mount %+v: persistent does not follow type", m)
		}
	}
	envSecrets := 0
	for _, e := range w.Env {
		check("env "+e.Name, e.Loc)
		if e.Secret != nil {
			envSecrets++
		}
	}
	if envSecrets > len(doc.Credentials) {
		t.Errorf("%d env secrets but %d credentials", envSecrets, len(doc.Credentials))
	}
	for _, c := range w.Commands {
		check("command", c.Loc)
		if c.OnHost != (c.Phase == "initialize") {
			t.Errorf("command %q phase %s on_host %v", c.Text, c.Phase, c.OnHost)
		}
	}
	if w.Egress != nil {
		check("egress", w.Egress.Loc)
	}
	for _, c := range doc.Credentials {
		check("credential", c.Loc)
	}
}

func FuzzCollect(f *testing.F) {
	f.Add([]byte(`{"runArgs": ["-e", "A=b", "--net", "none", "-v", "${localEnv:HOME}:/h:ro", "--cap-add"], /* c */ "appPort": 1,}`))
	f.Add([]byte(`{"features": {"docker-in-docker": true, "./local": {}}, "postStartCommand": {"a": ["x"], "b": 1}}`))
	f.Add([]byte("\ufeff[[{\"a\":\"\\\"]\"}]]"))
	fuzzcheck.Seed(f, []string{"../../fixtures/devcontainer/*/.devcontainer/devcontainer.json"}, fuzzSeeds...)
	f.Fuzz(func(t *testing.T, data []byte) {
		const p = ".devcontainer/devcontainer.json"
		doc, err := fuzzcheck.Collect(t, New(), p, data, fuzzcheck.Options{})
		if err != nil {
			if len(doc.Workloads) != 0 {
				t.Fatal("facts added despite an error")
			}
			return
		}
		checkConsistent(t, p, data, doc)
	})
}
