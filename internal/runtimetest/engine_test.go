package runtimetest

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sandbox-audit/sandbox-audit/internal/testenv"
)

// engine is a Docker Engine this test started on a private socket, spoken
// to through its HTTP API (no docker CLI).
type engine struct {
	sock string
	http *http.Client
}

// startEngine runs dockerd with its own data root, socket and bridge, and
// registers gVisor as runtime "runsc" (runsc's own netstack off: on these
// machines it cannot run in the root network namespace).
func startEngine(t *testing.T) *engine {
	t.Helper()
	dockerd, err := exec.LookPath("dockerd")
	if err != nil {
		skipOrFail(t, "dockerd is not installed (Debian's docker.io)")
	}
	dir, err := os.MkdirTemp("", "sa-rt-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	cfg := map[string]any{}
	if runsc, err := exec.LookPath("runsc"); err == nil {
		cfg["runtimes"] = map[string]any{"runsc": map[string]any{"path": runsc, "runtimeArgs": []string{"--network=none"}}}
	}
	data, _ := json.Marshal(cfg)
	if err := os.WriteFile(filepath.Join(dir, "daemon.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	// Its own bridge, named like Docker's user networks (br-…), so a
	// container on the host's network sees a host interface it knows.
	const bridge = "br-satest0"
	exec.Command("ip", "link", "del", bridge).Run()
	for _, args := range [][]string{
		{"link", "add", bridge, "type", "bridge"},
		{"addr", "add", "10.213.77.1/24", "dev", bridge},
		{"link", "set", bridge, "up"},
	} {
		if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
			skipOrFail(t, fmt.Sprintf("cannot make a bridge (root and iproute2 needed): ip %s: %v: %s", strings.Join(args, " "), err, out))
		}
	}
	t.Cleanup(func() { exec.Command("ip", "link", "del", bridge).Run() })
	sock := filepath.Join(dir, "docker.sock")
	log, err := os.Create(filepath.Join(dir, "dockerd.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(dockerd, "--config-file", filepath.Join(dir, "daemon.json"),
		"--host", "unix://"+sock, "--data-root", filepath.Join(dir, "data"), "--exec-root", filepath.Join(dir, "exec"),
		"--pidfile", filepath.Join(dir, "docker.pid"), "--bridge", bridge, "--iptables=false", "--ip-masq=false")
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
		}
	})
	e := &engine{sock: sock, http: &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "unix", sock)
		},
	}}}
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, err := e.call(t, "GET", "/_ping", nil, nil); err == nil {
			return e
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(filepath.Join(dir, "dockerd.log"))
			t.Fatalf("dockerd did not answer within 60s; its log:\n%s", tail(string(b), 3000))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// skipOrFail skips on a developer's machine without the runtimes; CI
// (.ci/run installs docker.io and runsc) must run the real thing.
func skipOrFail(t *testing.T, why string) {
	t.Helper()
	testenv.SkipOutsideCI(t, why)
}

// call sends one API request; a JSON body is encoded, an io.Reader sent
// as is. out, when not nil, receives the decoded JSON answer.
func (e *engine) call(t *testing.T, method, path string, body any, out any) ([]byte, error) {
	t.Helper()
	var r io.Reader
	ctype := "application/json"
	switch b := body.(type) {
	case nil:
	case io.Reader:
		r, ctype = b, "application/x-tar"
	default:
		data, err := json.Marshal(b)
		if err != nil {
			return nil, err
		}
		r = bytes.NewReader(data)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, "http://docker"+path, r)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", ctype)
	resp, err := e.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= 300 {
		return data, fmt.Errorf("%s %s: %s: %s", method, path, resp.Status, strings.TrimSpace(string(data)))
	}
	if out != nil {
		return data, json.Unmarshal(data, out)
	}
	return data, nil
}

// importImage makes an image from files (path → content, mode) without a
// registry: the Engine's import of a root filesystem tar.
func (e *engine) importImage(t *testing.T, ref string, files map[string]imageFile) {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	dirs := map[string]bool{}
	for name := range files {
		for d := filepath.Dir(name); d != "." && d != "/" && !dirs[d]; d = filepath.Dir(d) {
			dirs[d] = true
		}
	}
	for d := range dirs {
		mode := int64(0o755)
		if d == "root" {
			mode = 0o700
		}
		tw.WriteHeader(&tar.Header{Name: d + "/", Typeflag: tar.TypeDir, Mode: mode, ModTime: time.Now()})
	}
	for _, d := range []string{"tmp", "proc", "sys", "dev", "etc"} {
		if !dirs[d] {
			tw.WriteHeader(&tar.Header{Name: d + "/", Typeflag: tar.TypeDir, Mode: 0o1777, ModTime: time.Now()})
		}
	}
	for name, f := range files {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: f.mode, Size: int64(len(f.data)), ModTime: time.Now()}); err != nil {
			t.Fatal(err)
		}
		tw.Write(f.data)
	}
	tw.Close()
	repo, tag, _ := strings.Cut(ref, ":")
	if _, err := e.call(t, "POST", "/images/create?fromSrc=-&repo="+url.QueryEscape(repo)+"&tag="+url.QueryEscape(tag), &buf, nil); err != nil {
		t.Fatal(err)
	}
}

type imageFile struct {
	data []byte
	mode int64
}

// run creates and starts a container, waits for it, and returns its
// output, its inspect record and its id (removed at cleanup).
func (e *engine) run(t *testing.T, name string, create map[string]any) (stdout, stderr []byte, inspect containerJSON, err error) {
	t.Helper()
	var created struct{ Id string }
	if _, err := e.call(t, "POST", "/containers/create?name="+url.QueryEscape(name), create, &created); err != nil {
		return nil, nil, inspect, err
	}
	t.Cleanup(func() { e.call(t, "DELETE", "/containers/"+created.Id+"?force=1", nil, nil) })
	if _, err := e.call(t, "POST", "/containers/"+created.Id+"/start", nil, nil); err != nil {
		return nil, nil, inspect, err
	}
	if _, err := e.call(t, "GET", "/containers/"+created.Id+"/json", nil, &inspect); err != nil {
		return nil, nil, inspect, err
	}
	var wait struct{ StatusCode int }
	if _, err := e.call(t, "POST", "/containers/"+created.Id+"/wait", nil, &wait); err != nil {
		return nil, nil, inspect, err
	}
	logs, err := e.call(t, "GET", "/containers/"+created.Id+"/logs?stdout=1&stderr=1", nil, nil)
	if err != nil {
		return nil, nil, inspect, err
	}
	stdout, stderr = demux(logs)
	return stdout, stderr, inspect, nil
}

// demux splits the Engine's multiplexed log stream (8-byte frame headers:
// stream, 3 zero bytes, big-endian length).
func demux(b []byte) (stdout, stderr []byte) {
	for len(b) >= 8 {
		n := int(binary.BigEndian.Uint32(b[4:8]))
		if 8+n > len(b) {
			break
		}
		switch b[0] {
		case 1:
			stdout = append(stdout, b[8:8+n]...)
		case 2:
			stderr = append(stderr, b[8:8+n]...)
		}
		b = b[8+n:]
	}
	return stdout, stderr
}

// containerJSON is the part of inspect the comparison reads.
type containerJSON struct {
	Name       string
	HostConfig struct {
		Privileged     bool
		CapAdd         []string
		CapDrop        []string
		SecurityOpt    []string
		PidMode        string
		NetworkMode    string
		ReadonlyRootfs bool
		Runtime        string
		Binds          []string
	}
	Config struct {
		User string
		Env  []string
	}
	Mounts []struct {
		Source, Destination string
		RW                  bool
	}
}
