package fleet

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// fleetTree writes n targets of several kinds (privileged, plain, one whose
// policy file is broken) under root/t*, and returns them expanded.
func fleetTree(t *testing.T, root string, n int) []Target {
	t.Helper()
	files := map[string]string{}
	for i := range n {
		d := fmt.Sprintf("t%02d", i)
		switch i % 4 {
		case 0:
			files[d+"/compose.yaml"] = privileged
		case 1:
			files[d+"/compose.yaml"] = "services:\n  agent:\n    image: example/claude-runner:1\n    read_only: true\n    network_mode: none\n"
		case 2:
			files[d+"/.devcontainer/devcontainer.json"] = `{"image": "mcr.microsoft.com/devcontainers/base:1", "runArgs": ["--cap-add=SYS_ADMIN"]}`
		default:
			files[d+"/.claude/settings.json"] = `{"permissions": {"defaultMode": "bypassPermissions"}}`
		}
	}
	files["t03/.sandbox-audit.yaml"] = "version: 1\nrules: [\n"
	write(t, root, files)
	ts, err := (&Inventory{Dir: root, Targets: []TargetDef{{Path: "t*"}}}).Expand()
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// stored reads a run's results, without what differs between two audits
// of the same tree.
func stored(t *testing.T, st *Store, run int64) map[string]*Result {
	t.Helper()
	res, err := st.Results(context.Background(), run)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func sameResults(t *testing.T, what string, got, want map[string]*Result) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d targets stored, want %d", what, len(got), len(want))
	}
	for id, w := range want {
		g := got[id]
		if g == nil {
			t.Errorf("%s: %s not stored", what, id)
			continue
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s: %s differs:\n got %+v\nwant %+v", what, id, g, w)
		}
	}
}

func TestInShard(t *testing.T) {
	for _, n := range []int{1, 3, 7} {
		counts := make([]int, n)
		for i := range 500 {
			id := fmt.Sprintf("repos/r%d", i)
			in := 0
			for s := 1; s <= n; s++ {
				if InShard(id, s, n) {
					in++
					counts[s-1]++
				}
			}
			if in != 1 {
				t.Fatalf("%s is in %d of %d shards", id, in, n)
			}
		}
		for s, c := range counts {
			if c < 500/n/2 {
				t.Errorf("shard %d/%d holds %d of 500 targets", s+1, n, c)
			}
		}
	}
}

// TestShards: n = 1, 3, 7 shards of one inventory, run at once by separate
// store connections as separate machines would, give the same stored
// results as one unsharded run; the run is complete once the last shard
// ends, and a process of another inventory or shard count cannot join it.
func TestShards(t *testing.T) {
	eachStore(t, func(t *testing.T, url string) {
		ctx := context.Background()
		ts := fleetTree(t, t.TempDir(), 21)
		st, err := OpenStore(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		whole, err := Scan(ctx, ts, st, Options{Concurrency: 2})
		if err != nil || !whole.RunComplete || whole.Stored != 21 || whole.Failed != 1 {
			t.Fatalf("unsharded: %+v, %v", whole, err)
		}
		want := stored(t, st, whole.Run)
		for _, n := range []int{1, 3, 7} {
			name := fmt.Sprintf("nightly-%d", n)
			var wg sync.WaitGroup
			sums := make([]Summary, n)
			errs := make([]error, n)
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					own, err := OpenStore(ctx, url)
					if err != nil {
						errs[i] = err
						return
					}
					defer own.Close()
					sums[i], errs[i] = Scan(ctx, ts, own, Options{Concurrency: 1, Run: RunSpec{Name: name, Shards: n}, Shard: i + 1})
				}()
			}
			wg.Wait()
			total, complete := 0, 0
			for i := range n {
				if errs[i] != nil || !sums[i].Complete || sums[i].Run != sums[0].Run {
					t.Fatalf("shard %d/%d: %+v, %v", i+1, n, sums[i], errs[i])
				}
				total += sums[i].Targets
				if sums[i].RunComplete {
					complete++
				}
			}
			if total != 21 || complete == 0 {
				t.Errorf("%d shards audited %d targets, %d saw the run complete", n, total, complete)
			}
			sameResults(t, name, stored(t, st, sums[0].Run), want)
			runs, err := st.Runs(ctx)
			if err != nil || runs[0].Name != name || !runs[0].Complete || runs[0].Shards != n || runs[0].Stored != 21 {
				t.Errorf("run %+v, %v", runs[0], err)
			}
		}
		// The history counted in the store agrees with each run's report.
		runs, err := st.Runs(ctx)
		if err != nil {
			t.Fatal(err)
		}
		hist, err := st.History(ctx, runs[0].ID, 14)
		if err != nil || len(hist) != 4 {
			t.Fatalf("history %+v, %v", hist, err)
		}
		for _, h := range hist {
			rep, err := Build(ctx, st, h.Run, 0)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(h.PassRate, rep.PassRate) || !reflect.DeepEqual(h.Verdicts, rep.Verdicts) {
				t.Errorf("run %d: history %v %v, report %v %v", h.Run, h.PassRate, h.Verdicts, rep.PassRate, rep.Verdicts)
			}
		}
		if _, err := Scan(ctx, ts[:20], st, Options{Run: RunSpec{Name: "nightly-3", Shards: 3}, Shard: 1}); err == nil || !strings.Contains(err.Error(), "another inventory") {
			t.Errorf("joined with another inventory: %v", err)
		}
		if _, err := Scan(ctx, ts, st, Options{Run: RunSpec{Name: "nightly-3", Shards: 7}, Shard: 1}); err == nil || !strings.Contains(err.Error(), "3 shards, not 7") {
			t.Errorf("joined with another shard count: %v", err)
		}
		if _, err := Scan(ctx, ts, st, Options{Run: RunSpec{Shards: 3}, Shard: 4}); err == nil {
			t.Error("shard 4 of 3 accepted")
		}
	})
}

// TestKilledRunResumed: a fleet scan process killed with SIGKILL half way
// leaves every stored target whole and its run incomplete; a rerun with
// Resume audits only what is missing and completes it, with the results of
// a run that was never interrupted.
func TestKilledRunResumed(t *testing.T) {
	if spec := os.Getenv("SA_FLEET_KILL_HELPER"); spec != "" {
		url, root, _ := strings.Cut(spec, "\n")
		killHelper(url, root)
		return
	}
	eachStore(t, func(t *testing.T, url string) {
		ctx := context.Background()
		root := t.TempDir()
		ts := fleetTree(t, root, 24)
		ref, err := OpenStore(ctx, filepath.Join(t.TempDir(), "ref.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer ref.Close()
		whole, err := Scan(ctx, ts, ref, Options{Concurrency: 1})
		if err != nil {
			t.Fatal(err)
		}
		want := stored(t, ref, whole.Run)

		st, err := OpenStore(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		cmd := exec.Command(os.Args[0], "-test.run=^TestKilledRunResumed$")
		cmd.Env = append(os.Environ(), "SA_FLEET_KILL_HELPER="+url+"\n"+root)
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		n := 0
		for deadline := time.Now().Add(2 * time.Minute); n < 6; time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				t.Fatalf("the scan stored %d targets in 2 minutes: %s", n, out.String())
			}
			runs, _ := st.Runs(ctx)
			if len(runs) == 1 {
				n = runs[0].Stored
			}
		}
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()
		st.Close()

		st, err = OpenStore(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		runs, err := st.Runs(ctx)
		if err != nil || len(runs) != 1 || runs[0].Complete || runs[0].Finished != "" || runs[0].Stored < 6 || runs[0].Stored >= 24 {
			t.Fatalf("after SIGKILL: runs %+v, %v; want one unfinished run with some targets", runs, err)
		}
		half := stored(t, st, runs[0].ID)
		got := map[string]*Result{}
		for id := range half {
			got[id] = want[id]
		}
		sameResults(t, "stored before the kill", half, got)

		sum, err := Scan(ctx, ts, st, Options{Concurrency: 2, Run: RunSpec{Resume: true}})
		if err != nil || sum.Run != runs[0].ID || sum.Skipped != len(half) || sum.Stored != 24-len(half) || !sum.RunComplete {
			t.Fatalf("resumed: %+v, %v (%d were stored)", sum, err, len(half))
		}
		sameResults(t, "resumed", stored(t, st, sum.Run), want)
		if _, err := Scan(ctx, ts, st, Options{Run: RunSpec{Resume: true}}); err == nil || !strings.Contains(err.Error(), "no incomplete run") {
			t.Errorf("resumed with none incomplete: %v", err)
		}
	})
}

// killHelper is the process TestKilledRunResumed kills: one target at a
// time, slowly, until it is killed.
func killHelper(url, root string) {
	ctx := context.Background()
	st, err := OpenStore(ctx, url)
	if err != nil {
		fmt.Println(err)
		os.Exit(3)
	}
	dirs, _ := filepath.Glob(filepath.Join(root, "t*"))
	sort.Strings(dirs)
	ts, err := (&Inventory{Dir: root, Targets: []TargetDef{{Path: "t*"}}}).Expand()
	if err != nil || len(ts) != len(dirs) {
		fmt.Println(err)
		os.Exit(3)
	}
	_, err = Scan(ctx, ts, st, Options{Concurrency: 1, Progress: func(int, int, Target, error) { time.Sleep(150 * time.Millisecond) }})
	fmt.Println("the scan ended before it was killed:", err)
	os.Exit(3)
}
