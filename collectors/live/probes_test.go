package live

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// closedPort returns a loopback address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// silentServer accepts connections and never answers, like a firewall
// that drops packets: only the probe timeout ends the wait.
func silentServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { _, _ = io.Copy(io.Discard, c) }()
		}
	}()
	return ln.Addr().String()
}

func TestProbesLoopback(t *testing.T) {
	allowed := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "hi") }))
	defer allowed.Close()
	closed := closedPort(t)
	timeout := 300 * time.Millisecond
	silent := []string{"http://" + silentServer(t) + "/", "http://" + silentServer(t) + "/", "http://" + silentServer(t) + "/"}
	opt := Options{Root: t.TempDir(), Env: []string{}, Probe: true, ProbeTimeout: timeout,
		Targets: Targets{ExpectReachable: []string{allowed.URL + "/", "tcp://" + strings.TrimPrefix(allowed.URL, "http://")},
			ExpectBlocked: append([]string{"tcp://" + closed, "http://" + closed + "/"}, silent...)}}
	start := time.Now()
	l, _, errs := Collect(context.Background(), opt)
	took := time.Since(start)
	if len(errs) != 0 {
		t.Errorf("errors: %+v", errs)
	}
	if !l.Network.Probed || len(l.Network.Probes) != 7 {
		t.Fatalf("probes = %+v", l.Network.Probes)
	}
	var got []string
	for _, p := range l.Network.Probes {
		got = append(got, p.Kind+" "+p.Expect+" reachable="+boolStr(p.Reachable)+" "+p.Error+" "+p.Detail)
	}
	want := []string{
		"http reachable reachable=true  HTTP 200",
		"tcp reachable reachable=true  tcp connect succeeded",
		"tcp blocked reachable=false connection refused ",
		"http blocked reachable=false connection refused ",
		"http blocked reachable=false timeout ",
		"http blocked reachable=false timeout ",
		"http blocked reachable=false timeout ",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("probes (-want +got):\n%s", d)
	}
	// Three silent targets each wait a full timeout: run one after another
	// they would take 3×; concurrently they take about one.
	if took > 2*timeout+500*time.Millisecond {
		t.Errorf("probes took %v with a %v timeout: not concurrent or not bounded", took, timeout)
	}
}

func TestProbesOff(t *testing.T) {
	opt := Options{Root: t.TempDir(), Env: []string{}, Targets: Targets{ExpectBlocked: []string{"tcp://" + closedPort(t)}}}
	l, _, _ := Collect(context.Background(), opt)
	if l.Network.Probed || len(l.Network.Probes) != 0 {
		t.Errorf("probes ran without Probe: %+v", l.Network)
	}
}

// TestProbeUsesJudgedProxy proves HTTP probes go through the proxy of the
// environment under audit, and that a proxy's refusal counts as blocked.
func TestProbeUsesJudgedProxy(t *testing.T) {
	var seen atomic.Value
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen.Store(r.URL.String())
		http.Error(w, "domain not allowed", http.StatusForbidden)
	}))
	defer proxy.Close()
	opt := Options{Root: t.TempDir(), Env: []string{"http_proxy=" + proxy.URL, "NO_PROXY=allowed.test"}, Probe: true,
		ProbeTimeout: time.Second, Targets: Targets{ExpectBlocked: []string{"http://exfil.example.test/upload"}}}
	l, _, _ := Collect(context.Background(), opt)
	p := l.Network.Probes[0]
	if p.Reachable || !strings.Contains(p.Detail, "proxy refusal") || seen.Load() != "http://exfil.example.test/upload" {
		t.Errorf("probe = %+v, proxy saw %v", p, seen.Load())
	}
	if len(l.Network.Proxies) != 1 || l.Network.Proxies[0].Host != strings.TrimPrefix(proxy.URL, "http://") {
		t.Errorf("proxies = %+v", l.Network.Proxies)
	}
}

func TestParseTarget(t *testing.T) {
	for _, tc := range []struct{ in, kind, addr string }{
		{"https://user:pw@example.com/x", "http", "example.com"},
		{"tcp://1.1.1.1:443", "tcp", "1.1.1.1:443"},
		{"example.com:22", "tcp", "example.com:22"},
		{"example.com", "tcp", "example.com:443"},
		{"[fd00:ec2::254]", "tcp", "[fd00:ec2::254]:443"},
		{"dns://example.com", "dns", "example.com"},
		{"dns:example.com", "dns", "example.com"},
	} {
		tg, err := parseTarget(tc.in, "blocked")
		if err != nil || tg.kind != tc.kind || tg.addr != tc.addr {
			t.Errorf("parseTarget(%q) = %s %s %v, want %s %s", tc.in, tg.kind, tg.addr, err, tc.kind, tc.addr)
		}
		if tg.url != nil && tg.url.User != nil {
			t.Errorf("parseTarget(%q) kept credentials", tc.in)
		}
	}
	if _, err := parseTarget("http://", "blocked"); err == nil {
		t.Error("parseTarget(http://) did not fail")
	}
	for _, tc := range DefaultTargets().ExpectBlocked[:4] {
		tg, _ := parseTarget(tc, "blocked")
		if !metadataHosts[strings.Trim(tg.host(), "[]")] {
			t.Errorf("%s not recognised as a metadata endpoint", tc)
		}
	}
}

func boolStr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
