package fleet

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/sandbox-audit/sandbox-audit/internal/pgtest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	pgtest.Stop()
	os.Exit(code)
}

// eachStore runs f on a new SQLite store and a new PostgreSQL database: the
// same assertions for both.
func eachStore(t *testing.T, f func(t *testing.T, url string)) {
	t.Run("sqlite", func(t *testing.T) { f(t, filepath.Join(t.TempDir(), "h.db")) })
	t.Run("postgres", func(t *testing.T) { f(t, pgtest.DSN(t)) })
}

func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		abs := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const privileged = "services:\n  agent:\n    image: example/claude-runner:1\n    privileged: true\n"

func TestParseInventory(t *testing.T) {
	for _, tt := range []struct{ in, err string }{
		{"version: 1\ntargets:\n  - path: a\n", ""},
		{"", "empty"},
		{"version: 2\ntargets:\n  - path: a\n", "version must be 1"},
		{"version: 1\n", "no targets"},
		{"version: 1\ntargets:\n  - name: x\n", "line 3: target 1 has no path (nor git, docker, docker_label or github)"},
		{"version: 1\ntargets:\n  - path: a\n    polcy: p.yaml\n", `unknown key "polcy"`},
		{"version: 1\ntargets:\n  - path: '[a'\n", "line 3: path is not a valid glob"},
		{"version: 1\ntargets:\n  - path: a\n---\nversion: 1\n", "a second YAML document"},
		{"version: 1\ntargets: ghp_0123456789abcdefghijklmnopqrstuvwxyz\n", "line 2"},
		{"version: 1\ntargets:\n  - docker: agent-7\n  - docker: 3f2a9c\n", ""},
		{"version: 1\ntargets:\n  - docker: 'a b'\n", "line 3: docker is not a container name"},
		{"version: 1\ntargets:\n  - docker: x\n    path: y\n", "more than one of path, git, docker, docker_label and github"},
		{"version: 1\ntargets:\n  - git: https://example.com/r.git\n    path: y\n", "more than one of path, git, docker, docker_label and github"},
		{"version: 1\ntargets:\n  - docker_label: sandbox-audit.role=agent\n  - docker_label: sandbox\n  - docker_label: 'team=a b'\n", ""},
		{"version: 1\ntargets:\n  - docker_label: role=\n    policy: p.yaml\n", ""},
		{"version: 1\ntargets:\n  - docker_label: role=agent\n    docker: agent-7\n", "line 3: target 1 has more than one of path, git, docker, docker_label and github"},
		{"version: 1\ntargets:\n  - docker_label: role=agent\n    github: my-org\n", "more than one of"},
		{"version: 1\ntargets:\n  - docker_label: role=agent\n    path: y\n", "more than one of"},
		{"version: 1\ntargets:\n  - docker_label: '=agent'\n", "line 3: docker_label is not KEY or KEY=VALUE"},
		{"version: 1\ntargets:\n  - docker_label: 'my role=agent'\n", "docker_label is not KEY or KEY=VALUE"},
		{"version: 1\ntargets:\n  - docker_label: \"role=a\\nb\"\n", "docker_label is not KEY or KEY=VALUE"},
		{"version: 1\ntargets:\n  - docker_label: role=agent\n    name: agents\n", "line 3: name given to a docker_label entry"},
		{"version: 1\ntargets:\n  - docker_label: role=agent\n    ref: main\n", "ref is for a git target"},
		{"version: 1\ntargets:\n  - docker_label: role=agent\n    forks: true\n", "forks and archived are for a github organisation"},
		{"version: 1\ntargets:\n  - docker-label: role=agent\n", `unknown key "docker-label"`},
		{"version: 1\ntargets:\n  - path: y\n    ref: main\n", "ref is for a git target"},
		{"version: 1\ntargets:\n  - github: my-org\n    forks: true\n  - github: my-org/repo\n", ""},
		{"version: 1\ntargets:\n  - github: my-org/repo/x\n", "github is not ORG or ORG/REPO"},
		{"version: 1\ntargets:\n  - github: my-org/repo\n    archived: true\n", "forks and archived are for a github organisation"},
		{"version: 1\ntargets:\n  - name: all\n    github: my-org\n", "name given to a whole organisation"},
	} {
		_, err := ParseInventory("inv.yaml", []byte(tt.in))
		if (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("%q: error %v, want %q", tt.in, err, tt.err)
		}
		if err != nil && strings.Contains(err.Error(), "ghp_") {
			t.Errorf("the error quotes the file: %v", err)
		}
	}
}

func TestExpand(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{"repos/a/x": "", "repos/b/x": "", "repos/file": "", "solo/x": ""})
	inv := &Inventory{Dir: root, Targets: []TargetDef{{Path: "repos/*"}, {Name: "one", Path: "solo", Policy: "p.yaml"}}}
	ts, err := inv.Expand()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, x := range ts {
		ids = append(ids, x.ID)
	}
	if strings.Join(ids, ",") != "one,repos/a,repos/b" || ts[0].Policy != filepath.Join(root, "p.yaml") {
		t.Errorf("targets %+v", ts)
	}
	for _, bad := range []TargetDef{{Path: "none/*"}, {Path: "repos/file"}, {Name: "n", Path: "repos/*"}} {
		inv := &Inventory{Dir: root, Targets: []TargetDef{bad}}
		if _, err := inv.Expand(); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
	ts, err = (&Inventory{Dir: root, Targets: []TargetDef{{Docker: "agent-7"}, {Name: "ci", Docker: "3f2a9c"}}}).Expand()
	if err != nil || len(ts) != 2 || ts[0].ID != "ci" || ts[1].ID != "docker://agent-7" || ts[1].Docker != "agent-7" {
		t.Errorf("docker targets %+v, %v", ts, err)
	}
	// A docker_label entry is listed when the run starts (ResolveDocker):
	// until then it is one target, named after its label.
	ts, err = (&Inventory{Dir: root, Targets: []TargetDef{{DockerLabel: "sandbox-audit.role=agent", Policy: "p.yaml"}}}).Expand()
	if err != nil || len(ts) != 1 || ts[0].ID != "docker_label:sandbox-audit.role=agent" || ts[0].Docker != "" ||
		ts[0].dockerLabel != "sandbox-audit.role=agent" || ts[0].Policy != filepath.Join(root, "p.yaml") {
		t.Errorf("docker_label target %+v, %v", ts, err)
	}
	for _, dup := range []*Inventory{
		{Dir: root, Targets: []TargetDef{{Path: "repos/a"}, {Path: "repos/*"}}},
		{Dir: root, Targets: []TargetDef{{DockerLabel: "role=agent"}, {DockerLabel: "role=agent", Policy: "p.yaml"}}},
	} {
		if _, err := dup.Expand(); err == nil || !strings.Contains(err.Error(), "listed twice") {
			t.Errorf("a target listed twice: %v", err)
		}
	}
}

func FuzzParseInventory(f *testing.F) {
	f.Add([]byte("version: 1\ntargets:\n  - path: repos/*\n    policy: p.yaml\n"))
	f.Add([]byte("version: 1\ntargets:\n  - name: x\n    path: '[\n"))
	f.Add([]byte("{version: 1, targets: [{path: a}, {path: b, name: c}]}\n---\n"))
	f.Add([]byte("version: 1\ntargets:\n  - git: git@example.com:o/r.git\n    ref: v1\n  - git: 'ext::sh'\n"))
	f.Add([]byte("version: 1\ntargets:\n  - docker_label: sandbox-audit.role=agent\n    policy: p.yaml\n  - docker: agent-7\n    docker_label: x\n"))
	f.Add([]byte("version: 1\ntargets:\n  - {docker_label: 'a=b=c'}\n  - {docker_label: \"\\tk\"}\n  - {docker_label: '=v', name: n}\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		inv, err := ParseInventory("f.yaml", b)
		if err != nil {
			return
		}
		if inv.Version != 1 || len(inv.Targets) == 0 {
			t.Fatalf("accepted %+v", inv)
		}
		for _, d := range inv.Targets {
			// exactly one kind, and a label the engine's filter can take
			if n := btoi(d.Path != "") + btoi(d.Git != "") + btoi(d.Docker != "") + btoi(d.DockerLabel != "") + btoi(d.GitHub != ""); n != 1 {
				t.Fatalf("accepted a target of %d kinds: %+v", n, d)
			}
			if d.DockerLabel != "" && (d.Name != "" || strings.HasPrefix(d.DockerLabel, "=") || strings.ContainsAny(d.DockerLabel, "\n\r\t\x00")) {
				t.Fatalf("accepted docker_label %q (name %q)", d.DockerLabel, d.Name)
			}
		}
	})
}

// TestStoreReopen: migrations are applied once, by one of the processes
// opening a new store at once; a store written by a newer release is
// refused, not rewritten.
func TestStoreReopen(t *testing.T) {
	eachStore(t, func(t *testing.T, url string) {
		ctx := context.Background()
		var wg sync.WaitGroup
		errs := make(chan error, 4)
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				st, err := OpenStore(ctx, url)
				if err == nil {
					err = st.Close()
				}
				errs <- err
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatalf("opened at once: %v", err)
			}
		}
		st, err := OpenStore(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		version := "PRAGMA user_version"
		if st.pg {
			version = "SELECT version FROM sandbox_audit_schema"
		}
		var v int
		if err := st.db.QueryRow(version).Scan(&v); err != nil || v != len(migrations) {
			t.Fatalf("schema version %d (%v), want %d", v, err, len(migrations))
		}
		bump := "PRAGMA user_version = 99"
		if st.pg {
			bump = "UPDATE sandbox_audit_schema SET version = 99"
		}
		if _, err := st.db.Exec(bump); err != nil {
			t.Fatal(err)
		}
		st.Close()
		if _, err := OpenStore(ctx, url); err == nil || !strings.Contains(err.Error(), "newer") {
			t.Errorf("a newer schema: %v", err)
		}
	})
	if _, err := OpenStore(context.Background(), "mysql://x"); err == nil {
		t.Error("a URL that is neither SQLite nor PostgreSQL was accepted")
	}
	for _, url := range []string{"postgres://u:s3cret@db:5432/fleet", "postgres://u@db/fleet?password=s3cret&sslmode=disable", "postgresql://db/fleet?sslpassword=s3cret"} {
		if got := RedactStore(url); strings.Contains(got, "s3cret") {
			t.Errorf("redacted store %q", got)
		}
	}
}

// TestScanPolicies: one engine serves every target, each with its own
// policy file: a rule one target disables still fires in the other.
func TestScanPolicies(t *testing.T) {
	eachStore(t, testScanPolicies)
}

func testScanPolicies(t *testing.T, url string) {
	ctx := context.Background()
	root := t.TempDir()
	write(t, root, map[string]string{
		"a/compose.yaml":        privileged,
		"b/compose.yaml":        privileged,
		"b/.sandbox-audit.yaml": "version: 1\nrules:\n  privileged-container: {mode: disabled}\n",
	})
	st, err := OpenStore(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	inv := &Inventory{Dir: root, Targets: []TargetDef{{Path: "a"}, {Path: "b"}}}
	ts, err := inv.Expand()
	if err != nil {
		t.Fatal(err)
	}
	sum, err := Scan(ctx, ts, st, Options{Concurrency: 2})
	if err != nil || !sum.Complete || sum.Stored != 2 {
		t.Fatalf("summary %+v, %v", sum, err)
	}
	res, err := st.Results(ctx, sum.Run)
	if err != nil {
		t.Fatal(err)
	}
	fired := func(target string) bool {
		for _, f := range res[target].Findings {
			if f.Rule == "privileged-container" {
				return true
			}
		}
		return false
	}
	if !fired("a") || fired("b") {
		t.Errorf("privileged-container in a: %v, in b: %v; want a only", fired("a"), fired("b"))
	}
	if res["a"].Properties["disposable"].Status != "fail" {
		t.Errorf("a's properties %+v", res["a"].Properties)
	}
}

// TestScanInterrupted: a cancelled run keeps the targets it finished,
// whole, and is marked incomplete.
func TestScanInterrupted(t *testing.T) {
	eachStore(t, testScanInterrupted)
}

func testScanInterrupted(t *testing.T, url string) {
	root := t.TempDir()
	files := map[string]string{}
	for _, d := range []string{"t1", "t2", "t3", "t4"} {
		files[d+"/compose.yaml"] = privileged
	}
	write(t, root, files)
	st, err := OpenStore(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ts, err := (&Inventory{Dir: root, Targets: []TargetDef{{Path: "t*"}}}).Expand()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	sum, err := Scan(ctx, ts, st, Options{Concurrency: 1, Progress: func(done, _ int, _ Target, _ error) {
		if done == 1 {
			cancel()
		}
	}})
	if err == nil || sum.Complete || sum.Stored != 1 {
		t.Fatalf("summary %+v, err %v; want one target stored and an incomplete run", sum, err)
	}
	runs, err := st.Runs(context.Background())
	if err != nil || len(runs) != 1 || runs[0].Complete || runs[0].Stored != 1 || runs[0].Finished == "" {
		t.Fatalf("runs %+v, %v", runs, err)
	}
	res, err := st.Results(context.Background(), sum.Run)
	if err != nil {
		t.Fatal(err)
	}
	for id, r := range res {
		if len(r.Properties) != 4 || len(r.Findings) == 0 {
			t.Errorf("%s stored partly: %+v", id, r)
		}
	}
}

// TestDiff: new and fixed by fingerprint; a target gone from the run, or
// audited again after an error (all its findings new), is worse.
func TestDiff(t *testing.T) {
	f := func(fp string) Finding {
		return Finding{Fingerprint: fp, Rule: "r-" + fp, Severity: "high", File: "x", Line: 1}
	}
	old := map[string]*Result{
		"same":  {Target: "same", Verdict: "convenience", Findings: []Finding{f("a"), f("b")}},
		"gone":  {Target: "gone", Verdict: "boundary"},
		"heal":  {Target: "heal", Error: "policy file: line 2"},
		"break": {Target: "break", Verdict: "boundary"},
	}
	cur := map[string]*Result{
		"same":  {Target: "same", Verdict: "convenience", Findings: []Finding{f("b"), f("c")}},
		"heal":  {Target: "heal", Verdict: "convenience", Findings: []Finding{f("d")}},
		"break": {Target: "break", Error: "timeout"},
		"new":   {Target: "new", Verdict: "convenience", Findings: []Finding{f("e")}},
	}
	got := map[string]Change{}
	for _, c := range diff(old, cur) {
		got[c.Target] = c
	}
	if len(got) != 4 {
		t.Fatalf("changes %+v", got)
	}
	if c := got["same"]; !c.Worse || len(c.New) != 1 || c.New[0].Fingerprint != "c" || len(c.Fixed) != 1 || c.Fixed[0].Fingerprint != "a" {
		t.Errorf("same: %+v", c)
	}
	if c := got["gone"]; !c.Worse || c.Verdict != "missing" {
		t.Errorf("gone: %+v", c)
	}
	if c := got["heal"]; !c.Worse || len(c.New) != 1 || c.VerdictWas != "error" {
		t.Errorf("heal: %+v", c)
	}
	if c := got["break"]; !c.Worse || c.Verdict != "error" {
		t.Errorf("break: %+v", c)
	}
	if _, ok := got["new"]; ok {
		t.Error("a target new to the fleet has nothing to compare with")
	}
}

// TestLoadInventoryFromConfigMap: a ConfigMap volume gives fleet.yaml as
// a symlink into a timestamped directory (fleet.yaml -> ..data/fleet.yaml,
// ..data -> ..2026_12_03…); the inventory is read through it, relative
// paths start where the operator named it, and a symlink to something that
// is not a regular file is still refused.
func TestLoadInventoryFromConfigMap(t *testing.T) {
	dir := t.TempDir()
	ts := filepath.Join(dir, "..2026_12_03_10_00_00.1")
	if err := os.MkdirAll(ts, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ts, "fleet.yaml"), []byte("version: 1\ntargets:\n  - path: repos/a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for old, link := range map[string]string{filepath.Base(ts): "..data", "..data/fleet.yaml": "fleet.yaml", "/dev/zero": "zero.yaml"} {
		if err := os.Symlink(old, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	inv, err := LoadInventory(filepath.Join(dir, "fleet.yaml"))
	if err != nil {
		t.Fatalf("ConfigMap layout: %v", err)
	}
	if inv.Dir != dir || len(inv.Targets) != 1 || inv.Targets[0].Path != "repos/a" {
		t.Errorf("inventory = %+v, want one target read relative to %s", inv, dir)
	}
	if _, err := LoadInventory(filepath.Join(dir, "zero.yaml")); err == nil || !strings.Contains(err.Error(), "a device, not a regular file") {
		t.Errorf("symlink to /dev/zero: %v, want it refused", err)
	}
}
