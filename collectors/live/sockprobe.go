package live

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// httpAPIs are runtimes that speak the Docker Engine API over their socket.
var httpAPIs = map[string]bool{"docker": true, "podman": true, "unknown": true, "": true}

// probeSocket asks a runtime socket one read-only question. Docker-style
// APIs get GET /_ping and GET /version; gRPC runtimes (containerd, CRI-O,
// BuildKit, kubelet) only get a connect, which already proves access.
func (c *collector) probeSocket(ctx context.Context, s *model.LiveSocket) {
	timeout := min(socketTimeout, c.opt.ProbeTimeout)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if s.Endpoint != "" {
		if !c.opt.Probe {
			s.Evidence = "tcp endpoint not probed (active probes are off)"
			return
		}
		s.Probed = true
		scheme := "http"
		if c.env.get("DOCKER_TLS_VERIFY") != "" || strings.HasSuffix(s.Endpoint, ":2376") {
			scheme = "https"
		}
		d := &net.Dialer{}
		c.apiProbe(ctx, s, scheme+"://"+s.Endpoint, func(ctx context.Context) (net.Conn, error) {
			return d.DialContext(ctx, "tcp", s.Endpoint)
		})
		return
	}
	if s.Error != "" || c.opt.SkipSocketProbe {
		return
	}
	if !s.IsSocket {
		s.Error = "not a socket"
		return
	}
	hp, err := c.fs.resolve(s.Path, true)
	if err != nil {
		s.Error = reason(err)
		return
	}
	if len(hp) > 107 {
		s.Error = "socket path too long to dial"
		return
	}
	s.Probed = true
	d := &net.Dialer{}
	dial := func(ctx context.Context) (net.Conn, error) { return d.DialContext(ctx, "unix", hp) }
	if httpAPIs[s.Kind] {
		c.apiProbe(ctx, s, "http://runtime", dial)
		return
	}
	conn, err := dial(ctx)
	if err != nil {
		s.Error = shortErr(err)
		return
	}
	conn.Close()
	s.Reachable = true
	s.Evidence = "connection accepted (gRPC API, not queried)"
}

// apiProbe runs GET /_ping then GET /version on a Docker Engine API.
func (c *collector) apiProbe(ctx context.Context, s *model.LiveSocket, base string, dial func(context.Context) (net.Conn, error)) {
	tr := &http.Transport{
		DialContext:       func(ctx context.Context, _, _ string) (net.Conn, error) { return dial(ctx) },
		TLSClientConfig:   &tls.Config{InsecureSkipVerify: true}, //nolint:gosec // reachability only, nothing sent
		DisableKeepAlives: true,
	}
	if strings.HasPrefix(base, "https://") {
		tr.DialContext = nil
		tr.DialTLSContext = func(ctx context.Context, _, _ string) (net.Conn, error) {
			raw, err := dial(ctx)
			if err != nil {
				return nil, err
			}
			tc := tls.Client(raw, tr.TLSClientConfig)
			return tc, tc.HandshakeContext(ctx)
		}
	}
	defer tr.CloseIdleConnections()
	cl := &http.Client{Transport: tr}
	get := func(p string) (int, []byte, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+p, nil)
		if err != nil {
			return 0, nil, err
		}
		resp, err := cl.Do(req)
		if err != nil {
			return 0, nil, err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		return resp.StatusCode, body, err
	}
	code, body, err := get("/_ping")
	if err != nil {
		s.Error = shortErr(err)
		return
	}
	s.Reachable = true
	s.Evidence = fmt.Sprintf("GET /_ping: %d %s", code, strings.TrimSpace(string(clip(body, 16))))
	if code != http.StatusOK {
		return
	}
	code, body, err = get("/version")
	if err != nil || code != http.StatusOK {
		return
	}
	var raw struct {
		Version    string                `json:"Version"`
		APIVersion string                `json:"ApiVersion"`
		Platform   struct{ Name string } `json:"Platform"`
	}
	if json.Unmarshal(body, &raw) == nil && raw.Version != "" {
		name := raw.Platform.Name
		if name == "" {
			name = s.Kind
		}
		s.Evidence += fmt.Sprintf("; GET /version: %s %s API %s", clipStr(name, 60), clipStr(raw.Version, 30), clipStr(raw.APIVersion, 10))
	}
}

func clip(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}

func clipStr(s string, n int) string { return string(clip([]byte(s), n)) }
