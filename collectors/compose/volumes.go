package compose

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/sandbox-audit/sandbox-audit/collectors/internal/oci"
	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// volumes reads both the short ("src:dst:ro") and the long syntax.
func (s *service) volumes(n *yaml.Node) {
	for _, it := range items(n) {
		if it.Kind == yaml.MappingNode {
			s.longVolume(mapping(it), s.loc(it))
			continue
		}
		v, ok := scalar(it)
		if !ok {
			continue
		}
		src, dst, mode := splitVolume(v)
		src = withDefault(src)
		m := model.Mount{Source: src, Target: dst, Loc: s.loc(it)}
		m.Type = sourceType(src)
		for _, o := range strings.Split(mode, ",") {
			if o == "ro" {
				m.ReadOnly = true
			}
		}
		// Named and host volumes outlive the container; so do anonymous
		// ones, which compose carries over when it recreates a service.
		m.Persistent = true
		if m.Type == "bind" {
			m.WorkspaceRel = workspaceRel(s.file, src)
		}
		s.w.Mounts = append(s.w.Mounts, m)
	}
}

func (s *service) longVolume(es []entry, loc model.Loc) {
	m := model.Mount{Loc: loc}
	if v, ok := scalar(get(es, "source")); ok {
		m.Source = withDefault(v)
	}
	if v, ok := scalar(get(es, "target")); ok {
		m.Target = v
	}
	if ro, ok := boolean(get(es, "read_only")); ok {
		m.ReadOnly = ro
	}
	m.Type, _ = scalar(get(es, "type"))
	switch m.Type {
	case "":
		m.Type = sourceType(m.Source)
	case "npipe":
		m.Type = "bind" // a host named pipe, e.g. the Windows Docker engine
	}
	m.Persistent = m.Type == "bind" || m.Type == "volume"
	if m.Type == "bind" {
		m.WorkspaceRel = workspaceRel(s.file, m.Source)
	}
	s.w.Mounts = append(s.w.Mounts, m)
}

// withDefault is the source a ${VAR:-default} (or ${VAR-default}) source
// names unless the operator sets VAR: its default, as compose uses it;
// any other source as written, and one whose default is a placeholder
// (/dev/null, so that the file is valid without the variable: the
// variable, ${SSH_AUTH_SOCK:-/dev/null}, is what it mounts).
func withDefault(src string) string {
	if d, ok := secrets.Default(src); ok && d != "" && d != "/dev/null" {
		return d
	}
	return src
}

// sourceType tells a host path from a named volume the way compose does:
// paths start with /, ., ~ or a drive letter; a variable is taken for a
// path because that is how $HOME, $PWD and friends are used.
func sourceType(src string) string {
	switch {
	case src == "":
		return "volume"
	case strings.ContainsAny(src[:1], "/.~$\\"), oci.IsDrive(src):
		return "bind"
	}
	return "volume"
}

// splitVolume splits the short syntax at colons that are not part of a
// Windows drive or of a ${VAR:-default} interpolation.
func splitVolume(v string) (src, dst, mode string) {
	parts := oci.SplitVolume(v)
	switch len(parts) {
	case 1:
		return "", parts[0], "" // anonymous volume
	case 2:
		return parts[0], parts[1], ""
	}
	return parts[0], parts[1], strings.Join(parts[2:], ":")
}

func (s *service) tmpfs(n *yaml.Node) {
	its := items(n)
	if its == nil {
		its = []*yaml.Node{resolve(n)}
	}
	for _, it := range its {
		if t, ok := scalar(it); ok {
			target, _, _ := strings.Cut(t, ":")
			s.w.Mounts = append(s.w.Mounts, model.Mount{Type: "tmpfs", Target: target, Loc: s.loc(it)})
		}
	}
}

// devices keeps each device's path inside the container: the short
// syntax HOST[:CONTAINER[:PERMISSIONS]] (a ${VAR:-/dev/x} host part read as
// a whole) or the long one's target (source when none).
func (s *service) devices(n *yaml.Node) {
	for _, it := range items(n) {
		var target string
		if it.Kind == yaml.MappingNode {
			es := mapping(it)
			if t, ok := scalar(get(es, "target")); ok && t != "" {
				target = t
			} else {
				target, _ = scalar(get(es, "source"))
			}
		} else if d, ok := scalar(it); ok {
			parts := oci.SplitVolume(d)
			target = parts[0]
			if len(parts) > 1 {
				target = parts[1]
			}
			if def, ok := secrets.Default(target); ok {
				target = def
			}
		}
		if target = strings.TrimSpace(target); target != "" {
			s.w.Devices = append(s.w.Devices, model.Str{Value: target, Loc: s.loc(it)})
		}
	}
}

// ports keeps published ports as written; the long syntax is rendered in
// the short one so rules see one form.
func (s *service) ports(n *yaml.Node) {
	for _, it := range items(n) {
		if it.Kind != yaml.MappingNode {
			if p := s.str(it); p != nil {
				s.w.Ports = append(s.w.Ports, *p)
			}
			continue
		}
		es := mapping(it)
		target, _ := scalar(get(es, "target"))
		out := target
		if pub, ok := scalar(get(es, "published")); ok {
			out = pub + ":" + out
			if ip, ok := scalar(get(es, "host_ip")); ok {
				out = ip + ":" + out
			}
		}
		if proto, ok := scalar(get(es, "protocol")); ok {
			out += "/" + proto
		}
		s.w.Ports = append(s.w.Ports, model.Str{Value: out, Loc: s.loc(it)})
	}
}

// envFiles accepts a path, a list of paths, or a list of {path, required}.
func (s *service) envFiles(n *yaml.Node) {
	its := items(n)
	if its == nil {
		its = []*yaml.Node{resolve(n)}
	}
	for _, it := range its {
		if it != nil && it.Kind == yaml.MappingNode {
			it = get(mapping(it), "path")
		}
		if p := s.str(it); p != nil {
			s.w.EnvFiles = append(s.w.EnvFiles, *p)
		}
	}
}
