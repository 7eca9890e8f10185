// Package live audits the environment it runs in — or a root filesystem
// standing in for it — the way a security engineer checks a fresh agent
// sandbox: isolation, privileges, runtime sockets, credentials, network
// reach and signs of reuse. Every file is read under Options.Root, so
// fixture roots stand in for /proc, /sys, /etc and home directories.
// No secret value ever enters the returned facts.
package live

import (
	"bytes"
	"context"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// DefaultProbeTimeout bounds each active probe when Options.ProbeTimeout is 0.
const DefaultProbeTimeout = 2 * time.Second

// socketTimeout bounds a runtime socket probe: a local daemon answers in
// milliseconds, and a hung one must not hold the audit.
const socketTimeout = time.Second

// Targets are the destinations the policy expects the sandbox to reach or
// not to reach. Entries: "https://host/path", "http://host:port",
// "tcp://host:port", "host:port" (tcp), "dns://name" or "dns:name".
type Targets struct {
	ExpectReachable []string `json:"expect_reachable" yaml:"expect_reachable"`
	ExpectBlocked   []string `json:"expect_blocked" yaml:"expect_blocked"`
}

// DefaultTargets is the probe list for --probe when the policy names none:
// the cloud metadata endpoints and one well-known internet address, all of
// which a sandbox with egress control should not reach.
func DefaultTargets() Targets {
	return Targets{ExpectBlocked: []string{
		"http://169.254.169.254/latest/meta-data/",
		"http://metadata.google.internal/computeMetadata/v1/",
		"http://100.100.100.200/latest/meta-data/",
		"http://[fd00:ec2::254]/latest/meta-data/",
		"tcp://1.1.1.1:443",
		"https://example.com/",
	}}
}

// Options tunes a live audit. The zero value audits "/" passively.
type Options struct {
	// Root is the filesystem to audit ("/" when empty).
	Root string
	// Env is the environment to judge. nil reads <Root>/proc/self/environ
	// (NUL- or newline-separated), so fixture roots carry their own.
	Env []string
	// Probe enables active network probes of Targets (and of tcp runtime
	// endpoints from DOCKER_HOST); without it no packet leaves the process.
	Probe bool
	// ProbeTimeout bounds each probe (DefaultProbeTimeout when 0); probes
	// run concurrently, so all of them finish within about one timeout.
	ProbeTimeout time.Duration
	Targets      Targets
	// SkipSocketProbe disables the read-only requests to unix runtime sockets.
	SkipSocketProbe bool
	// TaskStarted is when the agent's task began; zero means: guess from
	// the process tree.
	TaskStarted time.Time
	// Canary, when set, is a path inside Root where a marker with a random
	// nonce is left; a marker from an earlier run proves reuse.
	Canary string
	// Workspace is the task's working tree inside Root; empty means
	// $GITHUB_WORKSPACE, then $PWD from Env.
	Workspace string
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// collector carries one audit's state. Checks run in sequence except the
// probes, which run concurrently and report through the mutex.
type collector struct {
	opt   Options
	fs    rootFS
	env   *environ
	now   time.Time
	live  *model.Live
	mu    sync.Mutex
	creds []model.Credential
	errs  []model.Error
	mnts  []mountEntry
	// homeList caches the home directories (credentials, git, reuse).
	homeList []string
	homeOnce sync.Once
}

func loc(check string) model.Loc { return model.Loc{File: "live/" + check, Line: 1} }

// Collect audits the environment under opt.Root. It never fails as a
// whole: what cannot be read becomes an unavailable[] entry, malformed
// files become errors, and the facts that could be read are returned.
func Collect(ctx context.Context, opt Options) (*model.Live, []model.Credential, []model.Error) {
	c := &collector{opt: opt, live: &model.Live{}}
	c.now = time.Now()
	if opt.Now != nil {
		c.now = opt.Now()
	}
	if c.opt.ProbeTimeout <= 0 {
		c.opt.ProbeTimeout = DefaultProbeTimeout
	}
	fsys, err := newRootFS(opt.Root)
	if err != nil {
		c.unavailable("root", err.Error())
		return c.finish()
	}
	c.fs = fsys
	c.live.Root = fsys.dir
	if fi, err := c.fs.stat("/"); err != nil || !fi.IsDir() {
		c.unavailable("root", fsys.dir+": not a readable directory")
		return c.finish()
	}
	if c.fs.real() && runtime.GOOS != "linux" {
		c.unavailable("all", "not Linux: the live checks read /proc, /sys and mountinfo")
	}
	c.env = c.loadEnv()
	c.mnts = c.readMountinfo()

	// Slow, bounded work first, in the background: socket and network
	// probes wait on the network while the passive checks read files.
	var wg sync.WaitGroup
	var probes []model.Probe
	wg.Add(1)
	go func() { defer wg.Done(); probes = c.runProbes(ctx) }()
	c.isolation()
	c.privileges()
	c.sensitiveMounts()
	c.homeDirs()
	walked := c.reuse()
	c.sockets(ctx)
	c.credentials(ctx)
	c.network()
	if walked != nil {
		<-walked
	}
	wg.Wait()
	c.live.Network.Probes, c.live.Network.Probed = probes, opt.Probe
	c.canary()
	return c.finish()
}

func (c *collector) unavailable(check, why string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.live.Unavailable = append(c.live.Unavailable, model.Unavailable{Check: check, Reason: why})
}

// miss records a file that a check needed and could not read.
func (c *collector) miss(check, p string, err error) {
	c.unavailable(check, p+": "+reason(err))
}

func (c *collector) addError(check, msg string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.errs = append(c.errs, model.Error{File: "live/" + check, Line: 1, Message: msg})
}

func (c *collector) finish() (*model.Live, []model.Credential, []model.Error) {
	l := c.live
	l.Isolation.Loc = loc("isolation")
	l.Privileges.Loc = loc("privileges")
	l.Network.Loc = loc("network")
	l.Reuse.Loc = loc("reuse")
	if l.Isolation.Kind == "" {
		l.Isolation.Kind, l.Isolation.Confidence = "unknown", "low"
	}
	sort.SliceStable(l.Unavailable, func(i, j int) bool {
		a, b := l.Unavailable[i], l.Unavailable[j]
		return a.Check < b.Check || a.Check == b.Check && a.Reason < b.Reason
	})
	sort.SliceStable(c.creds, func(i, j int) bool {
		return c.creds[i].Context < c.creds[j].Context
	})
	sort.SliceStable(l.Credentials, func(i, j int) bool { return l.Credentials[i].Name < l.Credentials[j].Name })
	doc := model.Document{Live: l}
	doc.Normalize()
	return l, c.creds, c.errs
}

// environ is the environment being judged. Values are only ever passed to
// the secrets package and to parsers; they never reach the model.
type environ struct {
	vars  map[string]string
	names []string // sorted, for stable output
	known bool     // false when no environment could be read
}

func (e *environ) get(name string) string {
	if e == nil {
		return ""
	}
	return e.vars[name]
}

// loadEnv takes Options.Env, or reads <root>/proc/self/environ: for "/" it
// is this process's environment; a fixture root carries its own, one
// NAME=value per line or NUL-separated as the kernel writes it.
func (c *collector) loadEnv() *environ {
	env := c.opt.Env
	if env == nil {
		data, err := c.fs.readFile("/proc/self/environ")
		if err != nil {
			c.miss("credentials", "/proc/self/environ", err)
			return &environ{vars: map[string]string{}}
		}
		sep := []byte{0}
		if !bytes.Contains(data, sep) {
			sep = []byte{'\n'}
		}
		for _, kv := range bytes.Split(data, sep) {
			if len(kv) > 0 {
				env = append(env, string(kv))
			}
		}
	}
	e := &environ{vars: make(map[string]string, len(env)), known: true}
	for _, kv := range env {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || name == "" {
			continue
		}
		if _, dup := e.vars[name]; !dup {
			e.names = append(e.names, name)
		}
		e.vars[name] = value
	}
	sort.Strings(e.names)
	return e
}

// home is $HOME of the judged environment ("" when unset).
func (e *environ) home() string { return e.get("HOME") }
