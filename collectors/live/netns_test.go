//go:build linux

package live

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/sandbox-audit/sandbox-audit/internal/testenv"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// helperEnv makes the test binary act as a helper when re-executed: inside
// a new network namespace, or as an unprivileged user.
const helperEnv = "SANDBOX_AUDIT_LIVE_HELPER"

func TestMain(m *testing.M) {
	switch os.Getenv(helperEnv) {
	case "netns":
		os.Exit(netnsHelper())
	case "nobody":
		os.Exit(nobodyHelper())
	}
	os.Exit(m.Run())
}

// netnsHelper runs inside `unshare -n`: a namespace with only lo, down.
// It brings lo up, serves an allowed target on loopback, and audits with
// probes. 192.0.2.1 (TEST-NET-1) has no route here, so nothing leaves.
func netnsHelper() int {
	if out, err := exec.Command("ip", "link", "set", "lo", "up").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "ip link set lo up: %v: %s", err, out)
		return 3
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	go func() { _ = http.Serve(ln, http.NotFoundHandler()) }()
	opt := Options{Env: []string{}, Probe: true, ProbeTimeout: time.Second, SkipSocketProbe: true,
		Targets: Targets{
			ExpectReachable: []string{"http://" + ln.Addr().String() + "/"},
			ExpectBlocked:   []string{"tcp://192.0.2.1:443", "http://192.0.2.1/latest/meta-data/", "tcp://[2001:db8::1]:443"},
		}}
	l, _, _ := Collect(context.Background(), opt)
	if err := json.NewEncoder(os.Stdout).Encode(l.Network); err != nil {
		return 3
	}
	return 0
}

// TestEgressBlockedInNetns proves, from inside a real network namespace
// with no interface but lo, that blocked egress is reported as blocked
// and that the namespace's own loopback target is reachable.
func TestEgressBlockedInNetns(t *testing.T) {
	if os.Geteuid() != 0 {
		skipOutsideCI(t, "needs root for unshare -n")
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		skipOutsideCI(t, "unshare not installed")
	}
	cmd := exec.Command(unshare, "-n", os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"=netns")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("helper in netns: %v\n%s", err, stderr.String())
	}
	var n model.LiveNetwork
	if err := json.Unmarshal(out, &n); err != nil {
		t.Fatalf("helper output %q: %v", out, err)
	}
	if len(n.DefaultRoutes) != 0 {
		t.Errorf("default routes in an empty namespace: %+v", n.DefaultRoutes)
	}
	if strings.Join(n.Interfaces, ",") != "lo" {
		t.Errorf("interfaces = %q, want only lo", n.Interfaces)
	}
	if len(n.Probes) != 4 {
		t.Fatalf("probes = %+v", n.Probes)
	}
	if p := n.Probes[0]; !p.Reachable || p.Expect != "reachable" {
		t.Errorf("loopback target inside the namespace = %+v", p)
	}
	for _, p := range n.Probes[1:] {
		if p.Reachable || p.Expect != "blocked" || !strings.Contains(p.Error, "unreachable") {
			t.Errorf("blocked target = %+v, want unreachable", p)
		}
	}
}

// skipOutsideCI skips a test that needs root or a tool a developer's machine
// may lack; in CI (CI set, run as root by .ci/run, which installs the tools)
// the same condition fails the test, so CI always runs the real thing.
func skipOutsideCI(t *testing.T, why string) {
	t.Helper()
	testenv.SkipOutsideCI(t, why)
}
