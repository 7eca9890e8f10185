package runtimetest

import (
	"context"
	"debug/elf"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/sandbox-audit/sandbox-audit/collectors/live"
	"github.com/sandbox-audit/sandbox-audit/internal/fleet"
)

// Fake credentials planted in the containers (never real): one in the
// environment, one in the root user's ~/.git-credentials.
const (
	envToken  = "ghp_R7bKx2TqLmV9sWc4HnJd8PfZa3YeUo6GiQ1t"
	fileToken = "ghp_Wm5Nq8RcTz2XvLb7KpYs4DfHj9GaUe3OiE6r"
)

// config is one way to start the agent's container.
type config struct {
	name string
	host map[string]any // HostConfig
	user string
	// nearest names the configuration this one stands in for when the
	// machine cannot start that one, and why.
	nearest string
}

// report is the part of the JSON report the comparison reads.
type report struct {
	Properties map[string]struct {
		Status string   `json:"status"`
		Unread []string `json:"unread"`
	} `json:"properties"`
	Environment struct {
		Isolation struct {
			Kind   string   `json:"kind"`
			Layers []string `json:"layers"`
		} `json:"isolation"`
	} `json:"environment"`
	Findings []struct {
		RuleID  string `json:"rule_id"`
		Message string `json:"message"`
	} `json:"findings"`
}

// TestLiveOnRealRuntimes starts the agent's container in each
// configuration, runs the static binary's live audit inside it, and
// checks the report against the Engine's inspect of that same container:
// every deviation inspect shows is a finding, the hardened container has
// none of them, the network is judged only from evidence, and neither
// planted token appears in any output.
func TestLiveOnRealRuntimes(t *testing.T) {
	if os.Geteuid() != 0 {
		skipOrFail(t, "the real-runtime tests start dockerd: they need root")
	}
	bin := staticBinary(t)
	e := startEngine(t)
	prog, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	e.importImage(t, "sa-runtime:test", map[string]imageFile{
		"sandbox-audit":         {prog, 0o755},
		"etc/passwd":            {[]byte("root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n"), 0o644},
		"root/.git-credentials": {[]byte("https://x-access-token:" + fileToken + "@github.com\n"), 0o600},
	})
	_, haveRunsc := exec.LookPath("runsc")
	configs := []config{
		{name: "default", host: map[string]any{}},
		{name: "caps-seccomp", host: map[string]any{"CapAdd": []string{"SYS_ADMIN"}, "SecurityOpt": []string{"seccomp=unconfined"}}},
		{name: "pid-host", host: map[string]any{"PidMode": "host"}},
		{name: "network-host", host: map[string]any{"NetworkMode": "host"}},
		{name: "hardened", user: "65534", host: map[string]any{
			"NetworkMode": "none", "CapDrop": []string{"ALL"}, "ReadonlyRootfs": true, "SecurityOpt": []string{"no-new-privileges"},
		}},
		{name: "docker-socket", host: map[string]any{"Binds": []string{e.sock + ":/var/run/docker.sock"}}},
		{name: "host-root", host: map[string]any{"Binds": []string{"/:/host:ro"}}},
		{name: "privileged", host: map[string]any{"Privileged": true}},
	}
	if haveRunsc == nil {
		configs = append(configs, config{name: "gvisor", host: map[string]any{"Runtime": "runsc"}})
	} else {
		skipOrFail(t, "runsc is not installed: the gVisor configuration cannot run")
	}
	var matrix []string
	fleetStore := filepath.Join(t.TempDir(), "fleet.db")
	for _, c := range configs {
		t.Run(c.name, func(t *testing.T) {
			create := map[string]any{
				"Image": "sa-runtime:test", "Cmd": []string{"/sandbox-audit", "scan", "--live", "-f", "json", "--fail-on", "none"},
				"Env": []string{"GITHUB_TOKEN=" + envToken, "HOME=/root"}, "User": c.user, "HostConfig": c.host,
			}
			stdout, stderr, in, err := e.run(t, "sa-"+c.name, create)
			if err != nil && c.name == "privileged" && strings.Contains(err.Error(), "unable to apply caps") {
				// This machine's bounding set lacks capabilities --privileged
				// asks for: start the nearest it can, every capability the
				// machine has and seccomp and AppArmor off, and say so.
				t.Logf("--privileged cannot start here (%v); using every capability of this machine's bounding set with seccomp and AppArmor unconfined instead", err)
				caps := boundingCaps(t)
				for try := 0; ; try++ {
					c.host = map[string]any{"CapAdd": caps, "SecurityOpt": []string{"seccomp=unconfined", "apparmor=unconfined"}}
					create["HostConfig"] = c.host
					stdout, stderr, in, err = e.run(t, fmt.Sprintf("sa-%s-nearest-%d", c.name, try), create)
					// An engine older than the kernel does not know every
					// capability (Debian's 20.10 lacks PERFMON, BPF…): leave
					// out the one it names and say so.
					m := unknownCapRE.FindStringSubmatch(fmt.Sprint(err))
					if m == nil || try > 8 {
						break
					}
					t.Logf("this engine does not know capability %s; leaving it out", m[1])
					caps = remove(caps, m[1])
				}
			}
			if err != nil {
				t.Fatalf("container did not run: %v", err)
			}
			for _, secret := range []string{envToken, fileToken} {
				if strings.Contains(string(stdout)+string(stderr), secret) {
					t.Errorf("a planted token appears in the output")
				}
			}
			var r report
			if err := json.Unmarshal(stdout, &r); err != nil {
				t.Fatalf("report is not JSON (%v); stderr:\n%s", err, stderr)
			}
			got := map[string][]string{}
			for _, f := range r.Findings {
				got[f.RuleID] = append(got[f.RuleID], f.Message)
			}
			want, wantNot, network, kind := expect(in)
			for _, id := range want {
				if alternatives := strings.Split(id, "|"); !anyOf(got, alternatives) {
					t.Errorf("inspect shows %s, but no finding %s; findings: %v", why(id), id, keys(got))
				}
			}
			for _, id := range wantNot {
				if len(got[id]) > 0 {
					t.Errorf("finding %s (%q) that inspect does not show", id, got[id])
				}
			}
			if r.Environment.Isolation.Kind != kind {
				t.Errorf("isolation %s (layers %v), want %s", r.Environment.Isolation.Kind, r.Environment.Isolation.Layers, kind)
			}
			if st := r.Properties["network"].Status; st != network {
				t.Errorf("network %s (unread %q), want %s", st, r.Properties["network"].Unread, network)
			}
			if !contains(got["live-credential-exposed"], "environment variable GITHUB_TOKEN") {
				t.Errorf("the planted GITHUB_TOKEN is not reported: %q", got["live-credential-exposed"])
			}
			if in.Config.User == "" && !contains(got["live-credential-exposed"], "/root/.git-credentials") {
				t.Errorf("the token in /root/.git-credentials is not reported: %q", got["live-credential-exposed"])
			}
			outside := e.outside(t, bin, in.Name)
			// The same two views through the fleet: the inside report
			// ingested, the container audited as a docker: target.
			ingested, scanned := e.fleetViews(t, bin, fleetStore, c.name, in.Name, stdout)
			if a, b := strings.Join(keys(got), ","), strings.Join(ingested, ","); a != b {
				t.Errorf("fleet ingest stored rules %s, the inside report has %s", b, a)
			}
			if a, b := strings.Join(keys(outside), ","), strings.Join(scanned, ","); a != b {
				t.Errorf("fleet scan of docker:%s stored rules %s, scan docker:// found %s", in.Name, b, a)
			}
			// security-profile-disabled speaks for seccomp, AppArmor and
			// SELinux (--pid host turns labelling off): only its seccomp
			// findings are the inside rule's fact.
			outside["security-profile-disabled"] = grep(outside["security-profile-disabled"], "seccomp")
			for live, config := range sameFact {
				if inside := anyOf(got, strings.Split(live, "|")); inside != (len(outside[config]) > 0) && (config != "dangerous-capabilities" || !onlyMildCaps(in)) {
					t.Errorf("inside %s = %v, outside %s = %v: the two views disagree (outside: %v)", live, inside, config, !inside, keys(outside))
				}
			}
			matrix = append(matrix, c.name+"\t"+inspectSummary(in)+"\t"+kind+"/"+network+"\t"+strings.Join(keys(got), ",")+"\t"+strings.Join(keys(outside), ","))
		})
	}
	t.Logf("configuration\tinspect\tisolation/network\tfindings inside\tfindings outside (docker://)\n%s", strings.Join(matrix, "\n"))
}

// fleetViews stores the container's inside report with fleet ingest and
// audits the container as an inventory's docker: target with fleet scan,
// and returns the rules each stored for it.
func (e *engine) fleetViews(t *testing.T, bin, store, config, container string, inside []byte) (ingested, scanned []string) {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, config+".json")
	inv := filepath.Join(dir, "fleet.yaml")
	if err := os.WriteFile(file, inside, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(inv, []byte("version: 1\ntargets:\n  - name: "+config+"\n    docker: "+strings.TrimPrefix(container, "/")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"fleet", "ingest", "--store", store, file}, {"fleet", "scan", "--store", store, "--inventory", inv}} {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "DOCKER_HOST=unix://"+e.sock)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		for _, secret := range []string{envToken, fileToken} {
			if strings.Contains(string(out), secret) {
				t.Errorf("a planted token appears in the output of %v", args)
			}
		}
	}
	st, err := fleet.OpenStore(context.Background(), store)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	runs, err := st.Runs(context.Background())
	if err != nil || len(runs) < 2 {
		t.Fatalf("runs %v, %v", runs, err)
	}
	rulesOf := func(run int64) []string {
		res, err := st.Results(context.Background(), run)
		if err != nil || res[config] == nil {
			t.Fatalf("run %d: %v, %v", run, res, err)
		}
		if res[config].Error != "" {
			t.Fatalf("run %d: %s", run, res[config].Error)
		}
		set := map[string][]string{}
		for _, f := range res[config].Findings {
			if strings.Contains(f.Message, envToken) || strings.Contains(f.Message, fileToken) {
				t.Errorf("a planted token was stored")
			}
			set[f.Rule] = append(set[f.Rule], f.Message)
		}
		return keys(set)
	}
	return rulesOf(runs[1].ID), rulesOf(runs[0].ID)
}

// sameFact pairs each rule of the live audit with the rule that judges the
// same fact of a running container read from outside (docker://).
var sameFact = map[string]string{
	"live-host-namespace":           "host-namespace-shared",
	"live-host-network":             "host-network",
	"live-seccomp-disabled":         "security-profile-disabled",
	"live-runtime-socket-reachable": "runtime-socket-mounted",
	"live-sensitive-mount":          "host-root-mounted",
	// the container's kernel is the host's, or its VM's (this machine's
	// may be a microVM)
	"live-shared-kernel|live-shared-vm-kernel": "shared-kernel-runtime",
	"live-extra-capabilities":                  "dangerous-capabilities",
}

// onlyMildCaps: the added capabilities are none the outside rule calls
// dangerous (it judges escapes, the inside one any beyond the default).
func onlyMildCaps(in containerJSON) bool {
	for _, c := range in.HostConfig.CapAdd {
		switch strings.TrimPrefix(c, "CAP_") {
		case "SYS_ADMIN", "SYS_PTRACE", "SYS_MODULE", "SYS_RAWIO", "DAC_READ_SEARCH", "NET_ADMIN", "BPF", "PERFMON", "ALL":
			return false
		}
	}
	return true
}

// outside audits the container from the host through the Engine API, as
// scan docker://NAME does, and returns its findings by rule.
func (e *engine) outside(t *testing.T, bin, name string) map[string][]string {
	t.Helper()
	cmd := exec.Command(bin, "scan", "docker://"+strings.TrimPrefix(name, "/"), "-f", "json", "--fail-on", "none")
	cmd.Env = append(os.Environ(), "DOCKER_HOST=unix://"+e.sock)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("scan docker://%s: %v", name, err)
	}
	for _, secret := range []string{envToken, fileToken} {
		if strings.Contains(string(out), secret) {
			t.Errorf("a planted token appears in the outside audit")
		}
	}
	var r report
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("scan docker://%s: not JSON: %v", name, err)
	}
	got := map[string][]string{}
	for _, f := range r.Findings {
		got[f.RuleID] = append(got[f.RuleID], f.Message)
	}
	if len(got["literal-secret-in-config"]) == 0 {
		t.Errorf("outside, the planted GITHUB_TOKEN is not reported: %v", keys(got))
	}
	return got
}

// expect derives from inspect what the audit must report: the rules each
// deviation must fire, those it must not, the network status and the kind.
func expect(in containerJSON) (want, wantNot []string, network, kind string) {
	h := in.HostConfig
	kind = "container"
	if h.Runtime == "runsc" {
		kind = "gvisor"
		wantNot = append(wantNot, "live-shared-kernel", "live-shared-vm-kernel")
	} else {
		want = append(want, "live-shared-kernel|live-shared-vm-kernel")
	}
	add := func(on bool, id string) {
		if on {
			want = append(want, id)
		} else {
			wantNot = append(wantNot, strings.Split(id, "|")...)
		}
	}
	add(h.PidMode == "host", "live-host-namespace")
	add(h.NetworkMode == "host", "live-host-network")
	add(len(h.CapAdd) > 0 || h.Privileged, "live-extra-capabilities|live-privileged-container")
	seccompOff := h.Privileged
	for _, o := range h.SecurityOpt {
		seccompOff = seccompOff || o == "seccomp=unconfined" || o == "seccomp:unconfined"
	}
	if kind == "container" {
		add(seccompOff, "live-seccomp-disabled|live-privileged-container")
	}
	socket, root := false, false
	for _, m := range in.Mounts {
		socket = socket || m.Destination == "/var/run/docker.sock"
		root = root || m.Source == "/"
	}
	add(socket, "live-runtime-socket-present|live-runtime-socket-reachable")
	add(root, "live-sensitive-mount")
	switch h.NetworkMode {
	case "host":
		network = "fail"
	case "none":
		network = "pass"
	default:
		// A bridge and its default route: no evidence without --probe.
		network = "unknown"
	}
	if kind == "gvisor" {
		// runsc's own network is off here (--network=none): only loopback.
		network = "pass"
	}
	return want, wantNot, network, kind
}

func why(id string) string {
	switch {
	case strings.HasPrefix(id, "live-host-namespace"):
		return "PidMode host"
	case strings.HasPrefix(id, "live-host-network"):
		return "NetworkMode host"
	case strings.HasPrefix(id, "live-extra"):
		return "added capabilities"
	case strings.HasPrefix(id, "live-seccomp"):
		return "seccomp unconfined"
	case strings.HasPrefix(id, "live-runtime-socket"):
		return "the Docker socket mounted"
	case id == "live-sensitive-mount":
		return "the host's / mounted"
	}
	return "runc, the host's kernel"
}

func anyOf(got map[string][]string, ids []string) bool {
	for _, id := range ids {
		if len(got[id]) > 0 {
			return true
		}
	}
	return false
}

func grep(msgs []string, s string) []string {
	var out []string
	for _, m := range msgs {
		if strings.Contains(m, s) {
			out = append(out, m)
		}
	}
	return out
}

func contains(msgs []string, s string) bool {
	for _, m := range msgs {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

func keys(m map[string][]string) []string {
	var out []string
	for k, v := range m {
		if len(v) > 0 {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

func inspectSummary(in containerJSON) string {
	h := in.HostConfig
	var p []string
	add := func(ok bool, s string) {
		if ok {
			p = append(p, s)
		}
	}
	add(h.Privileged, "privileged")
	add(len(h.CapAdd) > 0, "cap-add "+strings.Join(h.CapAdd, "+"))
	add(len(h.CapDrop) > 0, "cap-drop "+strings.Join(h.CapDrop, "+"))
	add(len(h.SecurityOpt) > 0, strings.Join(h.SecurityOpt, "+"))
	add(h.PidMode != "", "pid "+h.PidMode)
	add(h.NetworkMode != "", "net "+h.NetworkMode)
	add(h.ReadonlyRootfs, "read-only")
	add(h.Runtime != "", "runtime "+h.Runtime)
	add(in.Config.User != "", "user "+in.Config.User)
	for _, m := range in.Mounts {
		p = append(p, "mount "+m.Source+":"+m.Destination)
	}
	return strings.Join(p, " ")
}

var unknownCapRE = regexp.MustCompile(`unknown capability: \\?"(?:CAP_)?([A-Z_]+)\\?"`)

func remove(list []string, s string) []string {
	var out []string
	for _, v := range list {
		if v != s {
			out = append(out, v)
		}
	}
	return out
}

// boundingCaps lists the capabilities this machine can grant (its own
// bounding set), by Docker's names.
func boundingCaps(t *testing.T) []string {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^CapBnd:\s*([0-9a-f]+)`).FindSubmatch(data)
	if m == nil {
		t.Fatal("no CapBnd in /proc/self/status")
	}
	var mask uint64
	for _, c := range string(m[1]) {
		mask = mask<<4 | uint64(strings.IndexRune("0123456789abcdef", c))
	}
	var out []string
	for i, n := range live.CapabilityNames() {
		if mask&(1<<uint(i)) != 0 {
			out = append(out, n)
		}
	}
	return out
}

// staticBinary is the statically linked build the containers run:
// SANDBOX_AUDIT_STATIC_BIN (.ci/run's one build), else built here.
func staticBinary(t *testing.T) string {
	if p := os.Getenv("SANDBOX_AUDIT_STATIC_BIN"); p != "" {
		// A dynamically linked binary does not start in a minimal image
		// ("exec /sandbox-audit: no such file or directory"): say so.
		f, err := elf.Open(p)
		if err != nil {
			t.Fatalf("SANDBOX_AUDIT_STATIC_BIN: %v", err)
		}
		defer f.Close()
		for _, prog := range f.Progs {
			if prog.Type == elf.PT_INTERP {
				t.Fatalf("SANDBOX_AUDIT_STATIC_BIN %s is dynamically linked: build it with CGO_ENABLED=0", p)
			}
		}
		return p
	}
	out := filepath.Join(t.TempDir(), "sandbox-audit")
	cmd := exec.Command("go", "build", "-trimpath", "-o", out, "../../cmd/sandbox-audit")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("static build: %v\n%s", err, b)
	}
	return out
}
