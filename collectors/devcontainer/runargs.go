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
		flag, val, hasVal := oci.SplitRunFlag(args[i].s)
		if flag == "" {
			continue
		}
		loc := args[i].loc
		if !hasVal && oci.RunTakesValue(flag) && i+1 < len(args) {
			i++
			val, hasVal = args[i].s, true
		}
		oci.ApplyRunFlag(&r.w, flag, val, hasVal, loc, oci.RunHooks{
			Env:  func(name, value string, hasValue bool, loc model.Loc) { r.env("runArgs", name, value, hasValue, loc) },
			User: func(u *model.Str) { r.runUser = u },
			By:   "runArgs ",
		})
	}
}

// mounts reads the "mounts" property: docker --mount strings or objects.
func (r *reader) mounts(v *hujson.Value) {
	for _, e := range elems(v) {
		loc := r.loc(e.StartOffset)
		if s, ok := str(e); ok {
			r.addMount(oci.ParseMountSpec(s), loc)
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

func (r *reader) addMount(m model.Mount, loc model.Loc) { oci.AddMount(&r.w, m, loc) }

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
