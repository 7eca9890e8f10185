package live

import (
	"strings"
)

// cgroupMarkers map cgroup path fragments (v1 and v2 without a cgroup
// namespace) to the runtime that created them.
var cgroupMarkers = []struct{ needle, runtime string }{
	{"cri-containerd-", "containerd"}, {"crio-", "cri-o"}, {"libpod-", "podman"},
	{"/docker/", "docker"}, {"docker-", "docker"}, {"/kubepods", "kubernetes"},
	{"/lxc/", "lxc"}, {"lxc.payload", "lxc"}, {"/machine.slice/", "systemd-nspawn"},
	{"/actions_job/", "docker"},
}

// storeMarkers are mount roots that only a container runtime produces:
// /etc/hostname and friends bind-mounted from the runtime's state dir.
// They survive cgroup v2 namespaces, where /proc/self/cgroup says "0::/".
var storeMarkers = []struct{ needle, runtime string }{
	{"/var/lib/docker/", "docker"}, {"/var/lib/containerd/", "containerd"},
	{"/run/containerd/io.containerd", "containerd"}, {"/var/lib/kubelet/pods/", "kubernetes"},
	{"/var/lib/containers/storage/", "podman"}, {"/var/lib/lxc/", "lxc"},
	{"/var/run/containers/storage/", "cri-o"}, {"/var/lib/lxd/", "lxc"},
}

// containerSignals reads the markers runtimes leave inside containers.
func (c *collector) containerSignals() []signal {
	var out []signal
	if _, err := c.fs.lstat("/.dockerenv"); err == nil {
		out = append(out, signal{"container", "docker", 2, "/.dockerenv exists (Docker marker)"})
	}
	if data, err := c.fs.readFile("/run/.containerenv"); err == nil || isNotRegular(err) {
		rt := "podman"
		if strings.Contains(string(data), "engine=\"buildah") {
			rt = "buildah"
		}
		out = append(out, signal{"container", rt, 3, "/run/.containerenv exists (Podman marker)"})
	}
	if data, err := c.fs.readFile("/run/systemd/container"); err == nil {
		v := strings.TrimSpace(string(data))
		out = append(out, signal{"container", normRuntime(v), 3, "/run/systemd/container says " + v})
	}
	if data, err := c.fs.readFile("/proc/1/environ"); err == nil {
		for _, kv := range strings.FieldsFunc(string(data), func(r rune) bool { return r == 0 || r == '\n' }) {
			if v, ok := strings.CutPrefix(kv, "container="); ok {
				out = append(out, signal{"container", normRuntime(v), 3, "PID 1 environment has container=" + v})
			}
		}
	}
	if data, err := c.fs.readFile("/proc/self/cgroup"); err != nil {
		c.miss("isolation", "/proc/self/cgroup", err)
	} else {
		cg := string(data)
		for _, m := range cgroupMarkers {
			if strings.Contains(cg, m.needle) {
				out = append(out, signal{"container", m.runtime, 3, "/proc/self/cgroup has a " + m.runtime + " path (" + strings.Trim(m.needle, "/-") + ")"})
				break
			}
		}
		if isRootCgroup(cg) {
			out = append(out, signal{"host", "", 1, "/proc/self/cgroup is the root cgroup"})
		}
	}
	out = append(out, c.mountSignals()...)
	if c.env.get("KUBERNETES_SERVICE_HOST") != "" {
		out = append(out, signal{"container", "kubernetes", 2, "KUBERNETES_SERVICE_HOST is set (Kubernetes pod)"})
	}
	if _, err := c.fs.lstat("/var/run/secrets/kubernetes.io/serviceaccount"); err == nil {
		out = append(out, signal{"container", "kubernetes", 2, "/var/run/secrets/kubernetes.io/serviceaccount exists (Kubernetes pod)"})
	}
	return out
}

func (c *collector) mountSignals() []signal {
	var out []signal
	seen := map[string]bool{}
	for _, m := range c.mnts {
		if m.target == "/" && m.fstype == "overlay" {
			out = append(out, signal{"container", "", 2, "root filesystem is overlay (image layers)"})
		}
		for _, s := range storeMarkers {
			if !seen[s.runtime] && (strings.HasPrefix(m.root, s.needle) || strings.HasPrefix(m.source, s.needle)) {
				// One signal per runtime: the hosts, hostname and resolv.conf
				// mounts all tell the same thing.
				out = append(out, signal{"container", s.runtime, 3, "mountinfo: " + m.target + " comes from " + s.runtime + " state (" + strings.TrimSuffix(s.needle, "/") + ")"})
				seen[s.runtime] = true
			}
		}
	}
	return out
}

func isRootCgroup(cg string) bool {
	for _, line := range strings.Split(strings.TrimSpace(cg), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) == 3 && parts[2] != "/" && !strings.HasPrefix(parts[2], "/init.scope") && !strings.HasPrefix(parts[2], "/user.slice") && !strings.HasPrefix(parts[2], "/system.slice") {
			return false
		}
	}
	return cg != ""
}

// normRuntime maps the runtime names containers advertise to ours.
func normRuntime(v string) string {
	v = strings.ToLower(strings.Trim(v, "\" \n"))
	switch v {
	case "docker", "podman", "lxc", "containerd":
		return v
	case "crio", "cri-o":
		return "cri-o"
	case "lxc-libvirt":
		return "lxc"
	case "systemd-nspawn":
		return v
	case "oci":
		return ""
	}
	return v
}

func isNotRegular(err error) bool { return err == errNotRegular }
