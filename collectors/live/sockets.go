package live

import (
	"context"
	"io/fs"
	"net/url"
	"os"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// socketNames maps socket file names to the runtime behind them.
var socketNames = map[string]string{
	"docker.sock": "docker", "dockershim.sock": "docker", "containerd.sock": "containerd",
	"crio.sock": "cri-o", "podman.sock": "podman", "buildkitd.sock": "buildkit",
	"kubelet.sock": "kubelet",
}

// socketKind names the runtime of a socket path, "" when it is none.
func socketKind(p string) string {
	base := path.Base(p)
	if k, ok := socketNames[base]; ok {
		return k
	}
	if base == "unix.socket" && strings.Contains(p, "lxd") {
		return "lxd"
	}
	return ""
}

// wellKnownSockets are where runtimes put their API sockets ("*" is one
// path element, for per-user runtimes under /run/user/<uid>).
var wellKnownSockets = []string{
	"/var/run/docker.sock", "/run/docker.sock", "/run/user/*/docker.sock",
	"/run/containerd/containerd.sock", "/var/run/containerd/containerd.sock", "/run/k3s/containerd/containerd.sock",
	"/var/run/crio/crio.sock", "/run/crio/crio.sock",
	"/run/podman/podman.sock", "/var/run/podman/podman.sock", "/run/user/*/podman/podman.sock",
	"/run/buildkit/buildkitd.sock", "/var/lib/kubelet/device-plugins/kubelet.sock",
	"/var/lib/kubelet/pod-resources/kubelet.sock",
	"/var/snap/lxd/common/lxd/unix.socket", "/var/lib/lxd/unix.socket",
}

// socketEnv are variables that point clients at a runtime.
var socketEnv = map[string]string{"DOCKER_HOST": "docker", "CONTAINER_HOST": "podman", "BUILDKIT_HOST": "buildkit", "CONTAINERD_ADDRESS": "containerd"}

// sockets finds runtime sockets by well-known path, by mount and by
// environment, then probes each one read-only and concurrently.
func (c *collector) sockets(ctx context.Context) {
	var found []model.LiveSocket
	var infos []fs.FileInfo
	add := func(p, kind, how string) {
		fi, err := c.fs.stat(p)
		if err != nil {
			if how != "path" {
				found = append(found, model.LiveSocket{Path: p, Kind: kind, Found: how, Error: reason(err), Loc: loc("sockets")})
				infos = append(infos, nil)
			}
			return
		}
		for i, prev := range infos {
			if prev != nil && os.SameFile(prev, fi) {
				if how == "mount" {
					found[i].Found = "mount"
				}
				return
			}
		}
		found = append(found, model.LiveSocket{Path: p, Kind: kind, Found: how, IsSocket: fi.Mode()&fs.ModeSocket != 0, Loc: loc("sockets")})
		infos = append(infos, fi)
	}
	for _, m := range c.mnts {
		if k := socketKind(m.target); k != "" {
			add(m.target, k, "mount")
		} else if k := socketKind(m.root); k != "" {
			add(m.target, k, "mount")
		}
	}
	for _, p := range c.expandSockets() {
		add(p, socketKind(p), "path")
	}
	for _, name := range sortedKeys(socketEnv) {
		v := c.env.get(name)
		if v == "" {
			continue
		}
		u, err := url.Parse(v)
		switch {
		case err != nil:
			c.addError("sockets", name+" is not a URL")
		case u.Scheme == "unix" || u.Scheme == "npipe":
			add(u.Path, socketEnv[name], "env "+name)
		case u.Scheme == "tcp" || u.Scheme == "http" || u.Scheme == "https":
			found = append(found, model.LiveSocket{Endpoint: u.Host, Kind: socketEnv[name], Found: "env " + name, Loc: loc("sockets")})
			infos = append(infos, nil)
		}
	}
	var wg sync.WaitGroup
	for i := range found {
		wg.Add(1)
		go func() { defer wg.Done(); c.probeSocket(ctx, &found[i]) }()
	}
	wg.Wait()
	sort.SliceStable(found, func(i, j int) bool { return found[i].Path+found[i].Endpoint < found[j].Path+found[j].Endpoint })
	c.live.Sockets = found
}

// expandSockets resolves the one-element "*" of well-known paths and adds
// the per-user sockets named by the judged environment.
func (c *collector) expandSockets() []string {
	var out []string
	for _, p := range wellKnownSockets {
		dir, rest, ok := strings.Cut(p, "/*/")
		if !ok {
			out = append(out, p)
			continue
		}
		ents, err := c.fs.readDir(dir)
		if err != nil {
			continue
		}
		for _, e := range ents {
			out = append(out, path.Join(dir, e.Name(), rest))
		}
	}
	if x := c.env.get("XDG_RUNTIME_DIR"); x != "" {
		out = append(out, path.Join(x, "docker.sock"), path.Join(x, "podman/podman.sock"))
	}
	if h := c.env.home(); h != "" {
		out = append(out, path.Join(h, ".docker/run/docker.sock"))
	}
	return out
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
