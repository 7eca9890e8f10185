package live

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// metadataHosts are cloud instance metadata endpoints: reaching one hands
// the sandbox the node's cloud credentials.
var metadataHosts = map[string]bool{
	"169.254.169.254": true, "metadata.google.internal": true, "100.100.100.200": true,
	"fd00:ec2::254": true, "169.254.170.2": true, "metadata.azure.com": true, "169.254.169.123": true,
}

// target is one parsed probe destination.
type target struct {
	raw, kind, addr, expect string
	url                     *url.URL
}

// parseTarget accepts http(s)://…, tcp://host:port, dns://name, dns:name,
// host:port (tcp) and a bare host (tcp 443).
func parseTarget(raw, expect string) (target, error) {
	t := target{raw: raw, expect: expect}
	s := strings.TrimSpace(raw)
	switch {
	case strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://"):
		u, err := url.Parse(s)
		if err != nil || u.Host == "" {
			return t, fmt.Errorf("parse target %q: not a URL", raw)
		}
		u.User = nil
		t.kind, t.url, t.addr = "http", u, u.Hostname()
	case strings.HasPrefix(s, "dns://") || strings.HasPrefix(s, "dns:"):
		t.kind = "dns"
		t.addr = strings.TrimPrefix(strings.TrimPrefix(s, "dns://"), "dns:")
	default:
		s = strings.TrimPrefix(s, "tcp://")
		if _, _, err := net.SplitHostPort(s); err != nil {
			s = net.JoinHostPort(strings.Trim(s, "[]"), "443")
		}
		t.kind, t.addr = "tcp", s
	}
	if t.addr == "" {
		return t, fmt.Errorf("parse target %q: no host", raw)
	}
	return t, nil
}

func (t target) host() string {
	if h, _, err := net.SplitHostPort(t.addr); err == nil {
		return h
	}
	return t.addr
}

// runProbes checks every target concurrently, each bounded by the probe
// timeout. Nothing is sent unless Options.Probe is set.
func (c *collector) runProbes(ctx context.Context) []model.Probe {
	if !c.opt.Probe {
		return nil
	}
	var ts []target
	for _, l := range []struct {
		list   []string
		expect string
	}{{c.opt.Targets.ExpectReachable, "reachable"}, {c.opt.Targets.ExpectBlocked, "blocked"}} {
		for _, raw := range l.list {
			t, err := parseTarget(raw, l.expect)
			if err != nil {
				c.addError("network", secrets.Redact(err.Error()))
				continue
			}
			ts = append(ts, t)
		}
	}
	if len(ts) == 0 {
		c.unavailable("network", "probe: no targets to probe")
	}
	out := make([]model.Probe, len(ts))
	var wg sync.WaitGroup
	for i, t := range ts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = c.probe(ctx, t)
		}()
	}
	wg.Wait()
	return out
}

func (c *collector) probe(ctx context.Context, t target) model.Probe {
	p := model.Probe{Target: secrets.Redact(t.raw), Kind: t.kind, Expect: t.expect,
		Metadata: metadataHosts[strings.Trim(t.host(), "[]")], Loc: loc("network")}
	ctx, cancel := context.WithTimeout(ctx, c.opt.ProbeTimeout)
	defer cancel()
	start := time.Now()
	var err error
	switch t.kind {
	case "tcp":
		var conn net.Conn
		if conn, err = (&net.Dialer{}).DialContext(ctx, "tcp", t.addr); err == nil {
			conn.Close()
			p.Reachable, p.Detail = true, "tcp connect succeeded"
		}
	case "dns":
		var addrs []string
		if addrs, err = net.DefaultResolver.LookupHost(ctx, t.addr); err == nil {
			p.Reachable, p.Detail = true, fmt.Sprintf("resolved to %d address(es)", len(addrs))
		}
	case "http":
		p.Reachable, p.Detail, err = c.httpProbe(ctx, t.url)
	}
	p.DurationMS = time.Since(start).Milliseconds()
	if err != nil {
		p.Error = secrets.Redact(shortErr(err))
	}
	return p
}

// httpProbe sends one GET without credentials and reads at most 1 KiB.
// Any HTTP answer from the destination counts as reached; a proxy's
// refusal (403, 407, 511, or a refused CONNECT) counts as blocked.
func (c *collector) httpProbe(ctx context.Context, u *url.URL) (bool, string, error) {
	proxy := c.proxyFor(u)
	tr := &http.Transport{
		Proxy: func(*http.Request) (*url.URL, error) { return proxy, nil },
		// Only reachability is judged and nothing secret is sent, so an
		// intercepting proxy's certificate must not hide that it answered.
		TLSClientConfig:   &tls.Config{InsecureSkipVerify: true}, //nolint:gosec // reachability only
		DisableKeepAlives: true,
	}
	defer tr.CloseIdleConnections()
	cl := &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return false, "", err
	}
	resp, err := cl.Do(req)
	via := ""
	if proxy != nil {
		via = " via proxy " + proxy.Host
	}
	if err != nil {
		if proxy != nil && strings.Contains(err.Error(), "proxy") {
			return false, "refused" + via, err
		}
		return false, "", err
	}
	defer resp.Body.Close()
	_, _ = io.CopyN(io.Discard, resp.Body, 1024)
	detail := fmt.Sprintf("HTTP %d%s", resp.StatusCode, via)
	if proxy != nil && (resp.StatusCode == 403 || resp.StatusCode == 407 || resp.StatusCode == 511) {
		return false, detail + " (proxy refusal)", nil
	}
	return true, detail, nil
}

// proxyFor applies the judged environment's proxy variables (not this
// process's), with NO_PROXY and Go's rule that loopback is never proxied.
func (c *collector) proxyFor(u *url.URL) *url.URL {
	host := u.Hostname()
	if host == "localhost" || net.ParseIP(host) != nil && net.ParseIP(host).IsLoopback() {
		return nil
	}
	for _, np := range strings.Split(c.env.get("NO_PROXY")+","+c.env.get("no_proxy"), ",") {
		if np = strings.TrimSpace(np); np == "" {
			continue
		}
		if np == "*" || np == host || strings.HasPrefix(np, ".") && strings.HasSuffix(host, np) || strings.HasSuffix(host, "."+np) {
			return nil
		}
		if _, n, err := net.ParseCIDR(np); err == nil && net.ParseIP(host) != nil && n.Contains(net.ParseIP(host)) {
			return nil
		}
	}
	names := []string{"http_proxy", "HTTP_PROXY"}
	if u.Scheme == "https" {
		names = []string{"https_proxy", "HTTPS_PROXY"}
	}
	for _, n := range append(names, "all_proxy", "ALL_PROXY") {
		if v := c.env.get(n); v != "" {
			if !strings.Contains(v, "://") {
				v = "http://" + v
			}
			if pu, err := url.Parse(v); err == nil && pu.Host != "" {
				return pu
			}
		}
	}
	return nil
}

// shortErr keeps the innermost cause ("connection refused", "i/o timeout").
func shortErr(err error) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return "timeout"
	}
	var sc *os.SyscallError
	if errors.As(err, &sc) {
		return sc.Err.Error()
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		return op.Err.Error()
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return dns.Err
	}
	return err.Error()
}
