package compose

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/sandbox-audit/sandbox-audit/collectors/internal/oci"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// service accumulates the facts of one compose service.
type service struct {
	file  string
	w     model.Workload
	creds []model.Credential
	// networks the service joins; set is false when the key is absent, in
	// which case compose attaches it to the "default" network.
	networks    []string
	networksSet bool
	networksAt  int
	// proxy is the host HTTP(S)_PROXY names, and where.
	proxy   string
	proxyAt model.Loc
	// runnable: the service names an image, a build or a service it
	// extends; without one it only adds to a service of another file.
	runnable bool
}

func newService(file, name string, line int) *service {
	return &service{file: file, w: model.Workload{
		ID: "compose:" + file + ":" + name, Source: "compose", Name: name,
		Loc: model.Loc{File: file, Line: line},
	}}
}

func (s *service) loc(n *yaml.Node) model.Loc { return model.Loc{File: s.file, Line: n.Line} }

func (s *service) str(n *yaml.Node) *model.Str {
	v, ok := scalar(n)
	if !ok {
		return nil
	}
	return &model.Str{Value: v, Loc: s.loc(n)}
}

func (s *service) boolean(n *yaml.Node) *model.Bool {
	b, ok := boolean(n)
	if !ok {
		return nil
	}
	return &model.Bool{Value: b, Loc: s.loc(n)}
}

// read applies every key of the service mapping it knows; extension fields
// (x-…) and keys without a security meaning are ignored.
func (s *service) read(es []entry) {
	w := &s.w
	for _, e := range es {
		v := e.val
		switch e.key.Value {
		case "image":
			w.Image = s.str(v)
			s.runnable = true
		case "extends":
			s.runnable = true
		case "privileged":
			w.Privileged = s.boolean(v)
		case "user":
			w.User = s.str(v)
		case "read_only":
			w.ReadOnlyRoot = s.boolean(v)
		case "restart":
			w.Restart = s.str(v)
		case "runtime":
			if r := s.str(v); r != nil {
				r.Value = oci.Runtime(r.Value)
				w.Runtime = r
			}
		case "cap_add":
			w.CapAdd = append(w.CapAdd, s.caps(v)...)
		case "cap_drop":
			w.CapDrop = append(w.CapDrop, s.caps(v)...)
		case "security_opt":
			s.securityOpts(v)
		case "network_mode":
			if m := s.str(v); m != nil {
				w.NetworkMode = m
				if m.Value == "host" {
					w.HostNetwork = &model.Bool{Value: true, Loc: m.Loc}
				}
			}
		case "pid":
			if m, ok := scalar(v); ok && m == "host" {
				w.HostPID = &model.Bool{Value: true, Loc: s.loc(v)}
			}
		case "ipc":
			if m, ok := scalar(v); ok && m == "host" {
				w.HostIPC = &model.Bool{Value: true, Loc: s.loc(v)}
			}
		case "networks":
			s.readNetworks(e)
		case "volumes":
			s.volumes(v)
		case "tmpfs":
			s.tmpfs(v)
		case "devices":
			s.devices(v)
		case "profiles":
			for _, it := range items(v) {
				if p := s.str(it); p != nil {
					w.Profiles = append(w.Profiles, *p)
				}
			}
		case "environment":
			s.environment(v)
		case "env_file":
			s.envFiles(v)
		case "ports":
			s.ports(v)
		case "build":
			s.runnable = true
			s.buildArgs(v)
			s.build(v, e.key)
		case "command", "entrypoint":
			s.commandSecrets(e.key.Value, v)
			s.command(e.key.Value, v)
		case "labels":
			s.labels(v)
		}
	}
	w.Overlay = !s.runnable
}

// caps normalizes capability names: upper case without the CAP_ prefix.
func (s *service) caps(n *yaml.Node) []model.Str {
	var out []model.Str
	for _, it := range items(n) {
		if c, ok := scalar(it); ok && strings.TrimSpace(c) != "" {
			out = append(out, model.Str{Value: oci.Cap(c), Loc: s.loc(it)})
		}
	}
	return out
}

// securityOpts keeps options as written and derives the two that matter
// most: an unconfined seccomp profile and no-new-privileges.
func (s *service) securityOpts(n *yaml.Node) {
	for _, it := range items(n) {
		oci.SecurityOpt(&s.w, s.str(it))
	}
}

func (s *service) readNetworks(e entry) {
	s.networksSet = true
	s.networksAt = e.key.Line
	if its := items(e.val); its != nil {
		for _, it := range its {
			if name, ok := scalar(it); ok {
				s.networks = append(s.networks, name)
			}
		}
		return
	}
	for _, ne := range mapping(e.val) {
		s.networks = append(s.networks, ne.key.Value)
	}
}

// egress is restricted when the service has no network at all or joins
// only networks declared internal (no route out of the host). A service
// that sends its traffic to a proxy service of the same file through
// HTTP(S)_PROXY and keeps NET_ADMIN, as a container that programs its own
// firewall at start does, has a control the files cannot verify: the
// variable binds only the clients that honour it, and the firewall that
// would force the rest through the proxy is in the image.
func (s *service) egress(internal map[string]model.Loc, services map[string]bool) {
	defer func() {
		if s.w.Egress == nil && services[s.proxy] && s.proxy != s.w.Name && s.capAdded("NET_ADMIN") {
			s.w.Egress = &model.Egress{
				By: "HTTP(S)_PROXY to compose service " + s.proxy,
				Unverified: []string{"the service sends HTTP(S) to the proxy service " + s.proxy +
					" through environment variables, which a process may ignore, and keeps NET_ADMIN, as a container that programs its own firewall at start does; that firewall is in the image, not among the files read"},
				Loc: s.proxyAt,
			}
		}
	}()
	if m := s.w.NetworkMode; m != nil {
		if m.Value == "none" {
			s.w.Egress = &model.Egress{Restricted: true, By: "network_mode: none", Loc: m.Loc}
		}
		return
	}
	nets, line := s.networks, s.networksAt
	if !s.networksSet || len(nets) == 0 {
		nets = []string{"default"}
		line = internal["default"].Line
	}
	s.w.Networks = nets
	for _, n := range nets {
		if _, ok := internal[n]; !ok {
			return
		}
	}
	s.w.Egress = &model.Egress{
		Restricted: true,
		By:         "internal network: " + strings.Join(nets, ", "),
		Loc:        model.Loc{File: s.file, Line: line},
	}
}

// labels reads the service's labels, as a mapping or a list of key=value.
func (s *service) labels(n *yaml.Node) {
	out := map[string]string{}
	if its := items(n); its != nil {
		for _, it := range its {
			if kv, ok := scalar(it); ok {
				k, v, _ := strings.Cut(kv, "=")
				out[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
		}
	} else {
		for _, e := range mapping(n) {
			v, _ := scalar(e.val)
			out[e.key.Value] = v
		}
	}
	if len(out) > 0 {
		s.w.Labels = out
	}
}

// capAdded: the service adds the capability (or ALL).
func (s *service) capAdded(c string) bool {
	for _, x := range s.w.CapAdd {
		if x.Value == c || x.Value == "ALL" {
			return true
		}
	}
	return false
}
