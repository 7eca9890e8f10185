package devcontainer

import (
	"path"
	"strings"

	"github.com/tailscale/hujson"

	"github.com/sandbox-audit/sandbox-audit/collectors/internal/oci"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// arg is one docker run argument with where it is written.
type arg struct {
	s   string
	loc model.Loc
}

// valueFlags take a value, inline (--flag=v) or as the next argument.
var valueFlags = map[string]bool{
	"--cap-add": true, "--cap-drop": true, "--security-opt": true, "--network": true, "--net": true,
	"--pid": true, "--ipc": true, "-v": true, "--volume": true, "--mount": true, "--runtime": true,
	"-e": true, "--env": true, "--env-file": true, "-u": true, "--user": true, "-p": true, "--publish": true,
	"--restart": true, "--name": true, "-l": true, "--label": true, "-w": true, "--workdir": true,
	"--device": true, "--add-host": true, "--userns": true, "--uts": true, "--hostname": true, "-h": true,
}

// runArgs interprets the docker run options that change isolation. Unknown
// options are skipped; "--flag value" written as one element is accepted.
func (r *reader) runArgs(v *hujson.Value) {
	var args []arg
	for _, e := range elems(v) {
		s, ok := str(e)
		if !ok {
			continue
		}
		loc := r.loc(e.StartOffset)
		if f, rest, ok := strings.Cut(strings.TrimSpace(s), " "); ok && strings.HasPrefix(f, "-") {
			args = append(args, arg{f, loc}, arg{strings.TrimSpace(rest), loc})
			continue
		}
		args = append(args, arg{s, loc})
	}
	for i := 0; i < len(args); i++ {
		flag, val, hasVal := splitFlag(args[i].s)
		if flag == "" {
			continue
		}
		loc := args[i].loc
		if !hasVal && valueFlags[flag] && i+1 < len(args) {
			i++
			val, hasVal = args[i].s, true
		}
		r.runFlag(flag, val, hasVal, loc)
	}
}

// splitFlag splits "--flag=value", "-eKEY=V" and "-e" into name and value.
func splitFlag(s string) (flag, val string, hasVal bool) {
	switch {
	case strings.HasPrefix(s, "--"):
		flag, val, hasVal = strings.Cut(s, "=")
		return flag, val, hasVal
	case strings.HasPrefix(s, "-") && len(s) >= 2:
		if len(s) > 2 {
			return s[:2], strings.TrimPrefix(s[2:], "="), true
		}
		return s, "", false
	}
	return "", "", false
}

func (r *reader) runFlag(flag, val string, hasVal bool, loc model.Loc) {
	if valueFlags[flag] && val == "" {
		return // "--cap-add" as the last argument: docker would refuse it
	}
	w := &r.w
	switch flag {
	case "--privileged":
		r.privileged(!hasVal || val == "true", loc)
	case "--cap-add":
		w.CapAdd = append(w.CapAdd, model.Str{Value: oci.Cap(val), Loc: loc})
	case "--cap-drop":
		w.CapDrop = append(w.CapDrop, model.Str{Value: oci.Cap(val), Loc: loc})
	case "--security-opt":
		r.securityOpt(&model.Str{Value: val, Loc: loc})
	case "--network", "--net":
		w.NetworkMode = &model.Str{Value: val, Loc: loc}
		switch val {
		case "host":
			w.HostNetwork = &model.Bool{Value: true, Loc: loc}
		case "none":
			w.Egress = &model.Egress{Restricted: true, By: "runArgs " + flag + "=none", Loc: loc}
		}
	case "--pid":
		if val == "host" {
			w.HostPID = &model.Bool{Value: true, Loc: loc}
		}
	case "--ipc":
		if val == "host" {
			w.HostIPC = &model.Bool{Value: true, Loc: loc}
		}
	case "-v", "--volume":
		r.addMount(parseVolume(val), loc)
	case "--mount":
		r.addMount(parseMountSpec(val), loc)
	case "--runtime":
		w.Runtime = &model.Str{Value: oci.Runtime(val), Loc: loc}
	case "-e", "--env":
		name, value, ok := strings.Cut(val, "=")
		r.env("runArgs", name, value, ok, loc)
	case "--env-file":
		w.EnvFiles = append(w.EnvFiles, model.Str{Value: val, Loc: loc})
	case "-u", "--user":
		r.runUser = &model.Str{Value: val, Loc: loc}
	case "-p", "--publish":
		w.Ports = append(w.Ports, model.Str{Value: val, Loc: loc})
	case "--read-only":
		w.ReadOnlyRoot = &model.Bool{Value: !hasVal || val == "true", Loc: loc}
	case "--restart":
		w.Restart = &model.Str{Value: val, Loc: loc}
	case "--device":
		parts := strings.Split(val, ":")
		target := parts[0]
		if len(parts) > 1 && parts[1] != "" {
			target = parts[1]
		}
		w.Devices = append(w.Devices, model.Str{Value: target, Loc: loc})
	}
}

// mounts reads the "mounts" property: docker --mount strings or objects.
func (r *reader) mounts(v *hujson.Value) {
	for _, e := range elems(v) {
		loc := r.loc(e.StartOffset)
		if s, ok := str(e); ok {
			r.addMount(parseMountSpec(s), loc)
			continue
		}
		var m model.Mount
		for _, f := range members(e) {
			s, _ := str(f.val)
			switch f.name {
			case "source":
				m.Source = s
			case "target":
				m.Target = s
			case "type":
				m.Type = s
			}
		}
		if m.Type == "" {
			m.Type = "volume" // the spec's object form requires type; docker's default
		}
		r.addMount(m, loc)
	}
}

func (r *reader) addMount(m model.Mount, loc model.Loc) {
	if m.Target == "" && m.Source == "" {
		return
	}
	// Host paths and named volumes outlive the container (named volumes
	// survive rebuilds); tmpfs does not.
	m.Persistent = m.Type == "bind" || m.Type == "volume"
	m.Loc = loc
	r.w.Mounts = append(r.w.Mounts, m)
}

// parseMountSpec reads docker's --mount syntax:
// type=bind,source=/a,target=/b,readonly.
func parseMountSpec(s string) model.Mount {
	m := model.Mount{Type: "volume"}
	for _, field := range strings.Split(s, ",") {
		k, v, hasV := strings.Cut(strings.TrimSpace(field), "=")
		switch strings.ToLower(k) {
		case "type":
			m.Type = v
		case "source", "src":
			m.Source = v
		case "target", "destination", "dst":
			m.Target = v
		case "readonly", "ro":
			m.ReadOnly = !hasV || v == "true" || v == "1"
		}
	}
	return m
}

// parseVolume reads -v src:dst[:opts], not splitting inside ${…}
// (${localEnv:HOME}) or after a Windows drive letter.
func parseVolume(s string) model.Mount {
	var parts []string
	start, depth := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			if depth > 0 {
				depth--
			}
		case ':':
			if depth > 0 || (i == start+1 && isDrive(s[start:])) {
				continue
			}
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	parts = append(parts, s[start:])
	if len(parts) == 1 {
		return model.Mount{Type: "volume", Target: parts[0]}
	}
	m := model.Mount{Source: parts[0], Target: parts[1], Type: "volume"}
	if src := m.Source; src != "" && (strings.ContainsAny(src[:1], "/.~$\\") || isDrive(src)) {
		m.Type = "bind"
	}
	if len(parts) > 2 {
		for _, o := range strings.Split(parts[2], ",") {
			if o == "ro" {
				m.ReadOnly = true
			}
		}
	}
	return m
}

func isDrive(s string) bool {
	return len(s) >= 3 && s[1] == ':' && (s[2] == '\\' || s[2] == '/') &&
		(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z')
}

// features records each feature id without its version, and what the two
// Docker features do to the container although the file does not say it:
// docker-outside-of-docker bind-mounts the host's Docker socket, and
// docker-in-docker runs privileged with a named volume for /var/lib/docker.
func (r *reader) features(v *hujson.Value) {
	for _, f := range members(v) {
		loc := r.loc(f.off)
		id := featureID(f.name)
		r.w.Features = append(r.w.Features, model.Str{Value: id, Loc: loc})
		if r.featureOpts == nil {
			r.featureOpts = map[string]*hujson.Value{}
		}
		r.featureOpts[id] = f.val
		switch path.Base(id) {
		case "docker-outside-of-docker", "docker-from-docker":
			r.addMount(model.Mount{Type: "bind", Source: "/var/run/docker.sock", Target: "/var/run/docker-host.sock"}, loc)
		case "docker-in-docker":
			r.privileged(true, loc)
			r.addMount(model.Mount{Type: "volume", Source: "dind-var-lib-docker-${devcontainerId}", Target: "/var/lib/docker"}, loc)
		default:
			if firewallFeature(id) && r.w.Egress == nil {
				// A Feature that programs a firewall when the container
				// starts (w3cj's firewall): egress is restricted by code
				// this scan does not read, so what it allows is unknown.
				r.w.Egress = &model.Egress{
					Restricted: true, By: "feature " + id, Loc: loc,
					Unverified: []string{"the Feature " + id + " sets up a firewall in the container; its rules and allowed hosts are not read"},
				}
			}
		}
	}
}

// firewallFeature: a Feature whose name says it sets up a firewall or
// egress filter (firewall, egress-firewall, network-firewall).
func firewallFeature(id string) bool {
	b := path.Base(id)
	return strings.Contains(b, "firewall") || strings.Contains(b, "egress")
}

// featureID strips the version tag or digest of an OCI feature reference
// (ghcr.io/devcontainers/features/node:1, …@sha256:…). Local paths and
// tarball URLs have no version to strip.
func featureID(ref string) string {
	if strings.HasPrefix(ref, ".") || strings.HasPrefix(ref, "/") || strings.Contains(ref, "://") {
		return ref
	}
	slash := strings.LastIndex(ref, "/")
	if at := strings.LastIndex(ref, "@"); at > slash {
		ref = ref[:at]
	}
	if colon := strings.LastIndex(ref, ":"); colon > slash {
		ref = ref[:colon]
	}
	return ref
}
