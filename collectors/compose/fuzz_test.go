package compose

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// checkConsistent asserts what must hold for any collected compose file:
// every fact points into the file, ids follow the documented form, and
// every secret found in an environment is also a credential.
func checkConsistent(t *testing.T, path string, data []byte, doc *model.Document) {
	t.Helper()
	lines := bytes.Count(data, []byte("\n")) + 1
	check := func(what string, l model.Loc) {
		t.Helper()
		if l.File != path || l.Line < 1 || l.Line > lines {
			t.Errorf("%s at %s:%d, want %s:1..%d", what, l.File, l.Line, path, lines)
		}
	}
	strs := func(what string, ss []model.Str) {
		t.Helper()
		for _, s := range ss {
			check(what, s.Loc)
		}
	}
	secretsFound := 0
	for _, w := range doc.Workloads {
		if w.Source != "compose" || w.ID != "compose:"+path+":"+w.Name {
			t.Errorf("workload %q has source %q id %q", w.Name, w.Source, w.ID)
		}
		check("workload "+w.Name, w.Loc)
		for _, p := range []*model.Str{w.Image, w.User, w.Runtime, w.Seccomp, w.NetworkMode, w.Restart} {
			if p != nil {
				check("field of "+w.Name, p.Loc)
			}
		}
		for _, p := range []*model.Bool{w.Privileged, w.ReadOnlyRoot, w.HostNetwork, w.HostPID, w.HostIPC, w.AllowPrivEsc} {
			if p != nil {
				check("flag of "+w.Name, p.Loc)
			}
		}
		strs("cap_add", w.CapAdd)
		strs("cap_drop", w.CapDrop)
		strs("security_opt", w.SecurityOpt)
		strs("env_file", w.EnvFiles)
		strs("ports", w.Ports)
		for _, m := range w.Mounts {
			check("mount "+m.Target, m.Loc)
			if m.Type == "tmpfs" && m.Persistent {
				t.Errorf("tmpfs mount %s marked persistent", m.Target)
			}
		}
		for _, e := range w.Env {
			check("env "+e.Name, e.Loc)
			if e.Secret != nil {
				secretsFound++
			}
		}
		if w.Egress != nil {
			check("egress", w.Egress.Loc)
			if !w.Egress.Restricted {
				t.Error("egress recorded but not restricted")
			}
		}
		for _, c := range w.CapAdd {
			if strings.HasPrefix(c.Value, "CAP_") || strings.ToUpper(c.Value) != c.Value {
				t.Errorf("capability %q not normalized", c.Value)
			}
		}
	}
	if secretsFound > len(doc.Credentials) {
		t.Errorf("%d secrets in env but %d credentials", secretsFound, len(doc.Credentials))
	}
	for _, c := range doc.Credentials {
		check("credential", c.Loc)
	}
}

func FuzzCollect(f *testing.F) {
	for _, p := range []string{"../../fixtures/compose/insecure/docker-compose.yml", "../../fixtures/compose/hardened/compose.yaml"} {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("services:\n  a: &a {image: x, <<: {user: r}}\n  b: {<<: [*a, {privileged: true}], environment: [A=$B]}\n"))
	f.Add([]byte("services:\n  a: 1\n  b:\n    volumes: ['C:\\x:/y:ro', '${H:-/r}:/z']\n---\nservices: {}\n"))
	f.Add([]byte("a: &a [x, x]\nb: &b [*a, *a]\nservices: {c: {cap_add: *b}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc := &model.Document{}
		err := New().Collect(context.Background(), "compose.yaml", data, doc)
		if err != nil {
			var pe *collectors.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a ParseError", err)
			}
		}
		checkConsistent(t, "compose.yaml", data, doc)
	})
}
