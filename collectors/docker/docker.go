// Package docker reads running containers through the Docker Engine API —
// read-only GETs over the engine's socket, no docker CLI — into the same
// workload model as compose and Kubernetes, so the same rules judge what
// runs as what is declared. Environment values are classified, never kept.
package docker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/sandbox-audit/sandbox-audit/collectors/internal/agentcli"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/oci"
	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// Options says which engine to ask and which containers to read.
type Options struct {
	// Host is the engine's address: unix:///path or tcp://host:port
	// (plain HTTP). "" takes DOCKER_HOST, else the default socket.
	Host string
	// Names are container names or ids; none reads every running
	// container.
	Names []string
	// Labels keep only containers with these labels (key or key=value).
	Labels []string
	// Timeout bounds the whole read (default 10s).
	Timeout time.Duration
}

func (opt Options) timeout() time.Duration {
	if opt.Timeout <= 0 {
		return 10 * time.Second
	}
	return opt.Timeout
}

// DefaultSocket is where the engine listens unless DOCKER_HOST says.
const DefaultSocket = "unix:///var/run/docker.sock"

// ErrEngine is an engine that could not be reached or answered in error.
var ErrEngine = errors.New("docker engine")

// Collect reads the containers into workloads and the literal credentials
// their environments hold.
func Collect(ctx context.Context, opt Options) ([]model.Workload, []model.Credential, error) {
	ctx, cancel := context.WithTimeout(ctx, opt.timeout())
	defer cancel()
	c, err := newClient(opt.Host)
	if err != nil {
		return nil, nil, err
	}
	ids := opt.Names
	if len(ids) == 0 {
		list, err := c.list(ctx, opt.Labels)
		if err != nil {
			return nil, nil, err
		}
		for _, e := range list {
			ids = append(ids, e.ID)
		}
	}
	var (
		out   []model.Workload
		creds []model.Credential
	)
	for _, id := range ids {
		var in inspect
		if err := c.get(ctx, "/containers/"+url.PathEscape(id)+"/json", &in); err != nil {
			return nil, nil, err
		}
		if len(opt.Names) > 0 && len(opt.Labels) > 0 && !hasLabels(in.Config.Labels, opt.Labels) {
			continue
		}
		w, cs := workload(in)
		out = append(out, w)
		creds = append(creds, cs...)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, creds, nil
}

// Container is a running container as the engine lists it.
type Container struct {
	ID   string
	Name string // without the engine's leading "/"; the id when it has none
}

// List names the running containers that have every one of opt.Labels
// (all running containers when none), sorted by name: one GET of the
// engine's container list, which filters by label itself.
func List(ctx context.Context, opt Options) ([]Container, error) {
	ctx, cancel := context.WithTimeout(ctx, opt.timeout())
	defer cancel()
	c, err := newClient(opt.Host)
	if err != nil {
		return nil, err
	}
	return c.list(ctx, opt.Labels)
}

func (c *client) list(ctx context.Context, labels []string) ([]Container, error) {
	q := url.Values{}
	if len(labels) > 0 {
		f, _ := json.Marshal(map[string][]string{"label": labels})
		q.Set("filters", string(f))
	}
	var list []struct {
		ID    string `json:"Id"`
		Names []string
	}
	if err := c.get(ctx, "/containers/json?"+q.Encode(), &list); err != nil {
		return nil, err
	}
	out := make([]Container, 0, len(list))
	for _, e := range list {
		// Names also holds the names other containers' legacy links
		// give it ("/web/db"): its own has no inner "/".
		name := e.ID
		for _, n := range e.Names {
			if n = strings.TrimPrefix(n, "/"); n != "" && !strings.Contains(n, "/") {
				name = n
				break
			}
		}
		out = append(out, Container{ID: e.ID, Name: name})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

func hasLabels(have map[string]string, want []string) bool {
	for _, l := range want {
		k, v, withValue := strings.Cut(l, "=")
		got, ok := have[k]
		if !ok || withValue && got != v {
			return false
		}
	}
	return true
}

// client speaks HTTP to the engine.
type client struct {
	http *http.Client
	base string
	host string // as the user gave it, for errors
}

func newClient(host string) (*client, error) {
	if host == "" {
		host = os.Getenv("DOCKER_HOST")
	}
	if host == "" {
		host = DefaultSocket
	}
	u, err := url.Parse(host)
	if err != nil {
		return nil, fmt.Errorf("%w: DOCKER_HOST %q: %v", ErrEngine, host, err)
	}
	switch u.Scheme {
	case "unix":
		sock := u.Path
		return &client{base: "http://docker", host: host, http: &http.Client{Transport: &http.Transport{
			DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
				return (&net.Dialer{}).DialContext(ctx, "unix", sock)
			},
		}}}, nil
	case "tcp":
		if os.Getenv("DOCKER_TLS_VERIFY") != "" {
			return nil, fmt.Errorf("%w: %s with TLS is not supported; reach the engine over its unix socket", ErrEngine, host)
		}
		return &client{base: "http://" + u.Host, host: host, http: &http.Client{}}, nil
	}
	return nil, fmt.Errorf("%w: DOCKER_HOST %q: only unix:// and tcp:// are supported", ErrEngine, host)
}

// get sends one read-only request and decodes its JSON answer (bounded).
func (c *client) get(ctx context.Context, path string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrEngine, err)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return fmt.Errorf("%w at %s: %v", ErrEngine, c.host, err)
	}
	defer resp.Body.Close()
	body := io.LimitReader(resp.Body, 16<<20)
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(body, 512))
		var e struct{ Message string }
		if json.Unmarshal(msg, &e) == nil && e.Message != "" {
			return fmt.Errorf("%w: GET %s: %s: %s", ErrEngine, strings.SplitN(path, "?", 2)[0], resp.Status, secrets.Redact(e.Message))
		}
		return fmt.Errorf("%w: GET %s: %s", ErrEngine, strings.SplitN(path, "?", 2)[0], resp.Status)
	}
	if err := json.NewDecoder(body).Decode(out); err != nil {
		return fmt.Errorf("%w: GET %s: %v", ErrEngine, strings.SplitN(path, "?", 2)[0], err)
	}
	return nil
}

// inspect is the part of GET /containers/{id}/json read.
type inspect struct {
	ID     string `json:"Id"`
	Name   string
	Config struct {
		Image      string
		User       string
		Env        []string
		Cmd        []string
		Entrypoint []string
		Labels     map[string]string
	}
	HostConfig struct {
		Privileged     bool
		CapAdd         []string
		CapDrop        []string
		SecurityOpt    []string
		PidMode        string
		IpcMode        string
		NetworkMode    string
		ReadonlyRootfs bool
		Runtime        string
		RestartPolicy  struct{ Name string }
		PortBindings   map[string][]struct{ HostIp, HostPort string }
	}
	Mounts []struct {
		Type, Source, Destination string
		RW                        bool
	}
}

// workload maps one container: located at docker/<name>:1, a place code
// scanning accepts.
func workload(in inspect) (model.Workload, []model.Credential) {
	name := strings.TrimPrefix(in.Name, "/")
	if name == "" {
		name = in.ID
	}
	loc := model.Loc{File: "docker/" + name, Line: 1}
	str := func(v string) *model.Str { return &model.Str{Value: v, Loc: loc} }
	flag := func(v bool) *model.Bool { return &model.Bool{Value: v, Loc: loc} }
	h := in.HostConfig
	w := model.Workload{ID: "docker:" + name, Source: "docker", Name: name, Loc: loc,
		CapAdd: []model.Str{}, CapDrop: []model.Str{}, SecurityOpt: []model.Str{}, Mounts: []model.Mount{},
		Env: []model.EnvVar{}, EnvFiles: []model.Str{}, Ports: []model.Str{}, Commands: []model.Command{}, Features: []model.Str{},
		Labels: in.Config.Labels}
	if in.Config.Image != "" {
		w.Image = str(in.Config.Image)
	}
	user := in.Config.User
	if user == "" {
		user = "root" // the image's USER is already in Config.User
	}
	w.User = str(user)
	w.Privileged = flag(h.Privileged)
	w.ReadOnlyRoot = flag(h.ReadonlyRootfs)
	w.HostNetwork = flag(h.NetworkMode == "host")
	w.HostPID = flag(h.PidMode == "host")
	w.HostIPC = flag(h.IpcMode == "host")
	if h.NetworkMode != "" && h.NetworkMode != "default" {
		w.NetworkMode = str(h.NetworkMode)
	}
	if h.NetworkMode == "none" {
		w.Egress = &model.Egress{Restricted: true, By: "network none", Loc: loc}
	}
	runtime := h.Runtime
	if runtime == "" {
		runtime = "runc"
	}
	w.Runtime = str(oci.Runtime(runtime))
	if h.RestartPolicy.Name != "" && h.RestartPolicy.Name != "no" {
		w.Restart = str(h.RestartPolicy.Name)
	}
	for _, c := range h.CapAdd {
		w.CapAdd = append(w.CapAdd, *str(oci.Cap(c)))
	}
	for _, c := range h.CapDrop {
		w.CapDrop = append(w.CapDrop, *str(oci.Cap(c)))
	}
	for _, o := range h.SecurityOpt {
		w.SecurityOpt = append(w.SecurityOpt, *str(o))
		key, val := oci.SplitOpt(o)
		switch key {
		case "seccomp":
			if val == "unconfined" {
				w.Seccomp = str("unconfined")
			}
		case "no-new-privileges":
			if val == "" || val == "true" {
				w.AllowPrivEsc = flag(false)
			}
		}
	}
	for _, m := range in.Mounts {
		typ := m.Type
		w.Mounts = append(w.Mounts, model.Mount{Type: typ, Source: m.Source, Target: m.Destination, ReadOnly: !m.RW,
			Persistent: typ == "bind" || typ == "volume", Loc: loc})
	}
	ports := make([]string, 0, len(h.PortBindings))
	for port, binds := range h.PortBindings {
		for _, b := range binds {
			ports = append(ports, strings.TrimPrefix(net.JoinHostPort(b.HostIp, b.HostPort), ":")+":"+port)
		}
	}
	sort.Strings(ports)
	for _, p := range ports {
		w.Ports = append(w.Ports, *str(p))
	}
	if cmd := strings.Join(append(append([]string{}, in.Config.Entrypoint...), in.Config.Cmd...), " "); cmd != "" {
		w.Commands = append(w.Commands, model.Command{Phase: "entrypoint", Text: secrets.Redact(cmd), Scripts: []string{}, SudoScripts: []string{}, Loc: loc})
	}
	var creds []model.Credential
	for _, kv := range in.Config.Env {
		n, v, _ := strings.Cut(kv, "=")
		if n == "" {
			continue
		}
		ev := model.EnvVar{Name: n, SensitiveName: secrets.SensitiveEnv(n, v, true), Switch: agentcli.EnvSwitch(n, v), Loc: loc}
		ev.Secret = secrets.DetectNamed(n, v)
		ev.Weak = ev.Secret == nil && secrets.WeakSecret(n, v)
		if ev.Secret != nil {
			creds = append(creds, model.Credential{SecretRef: *ev.Secret, Where: "env", Context: "container " + name + " environment " + n,
				ReadableByAgent: true, Workload: w.ID, Loc: loc})
		}
		w.Env = append(w.Env, ev)
	}
	return w, creds
}
