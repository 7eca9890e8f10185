package live

import (
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// mountEntry is one line of /proc/self/mountinfo.
type mountEntry struct {
	root   string // path inside the mounted filesystem (a bind mount's source)
	target string
	fstype string
	source string // device or "none"
	ro     bool
}

// readMountinfo parses /proc/self/mountinfo (proc(5)): "id parent maj:min
// root target options [optional…] - fstype source superoptions".
func (c *collector) readMountinfo() []mountEntry {
	data, err := c.fs.readFile("/proc/self/mountinfo")
	if err != nil {
		c.miss("mounts", "/proc/self/mountinfo", err)
		return nil
	}
	return parseMountinfo(string(data))
}

func parseMountinfo(data string) []mountEntry {
	var out []mountEntry
	for _, line := range strings.Split(data, "\n") {
		f := strings.Fields(line)
		sep := -1
		for i, x := range f {
			if x == "-" && i >= 6 {
				sep = i
				break
			}
		}
		if sep < 0 || len(f) < sep+4 {
			continue
		}
		m := mountEntry{root: unescape(f[3]), target: unescape(f[4]), fstype: f[sep+1], source: unescape(f[sep+2])}
		m.ro = hasOpt(f[5], "ro") || hasOpt(f[sep+3], "ro")
		out = append(out, m)
	}
	return out
}

func hasOpt(opts, o string) bool {
	for _, x := range strings.Split(opts, ",") {
		if x == o {
			return true
		}
	}
	return false
}

// unescape decodes mountinfo's octal escapes (\040 for a space).
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// persistentFS are filesystems whose content outlives the sandbox: disks,
// network shares and host directories shared into a VM.
var persistentFS = map[string]bool{
	"ext2": true, "ext3": true, "ext4": true, "xfs": true, "btrfs": true, "zfs": true,
	"f2fs": true, "vfat": true, "exfat": true, "ntfs": true, "ntfs3": true, "reiserfs": true,
	"nfs": true, "nfs4": true, "cifs": true, "smb3": true, "9p": true, "virtiofs": true,
	"ceph": true, "glusterfs": true, "lustre": true, "gcsfuse": true,
}

func isPersistent(fstype string) bool {
	if persistentFS[fstype] {
		return true
	}
	return strings.HasPrefix(fstype, "fuse.") && fstype != "fuse.lxcfs"
}

// credentialDirs are home subdirectories that hold credentials; a bind
// mount of one hands the host user's keys to the agent.
var credentialDirs = []string{".ssh", ".aws", ".kube", ".docker", ".gnupg", ".azure", ".config/gh", ".config/gcloud", ".netrc", ".git-credentials"}

// hostSystemDirs are host paths whose presence inside a sandbox lets it
// read or steer the node: runtime state, kubelet, cluster PKI, host logs.
var hostSystemDirs = []string{"/var/lib/docker", "/var/lib/containerd", "/var/lib/kubelet", "/etc/kubernetes", "/var/log", "/run/containerd", "/var/run/docker"}

// why classifies one mount; an empty result means not sensitive.
func (c *collector) why(m mountEntry, inContainer bool) []string {
	var w []string
	if socketKind(m.target) != "" || socketKind(m.root) != "" {
		w = append(w, "runtime-socket")
	}
	src := m.root
	if inContainer && src == "/" && isPersistent(m.fstype) && m.target != "/" && c.looksLikeOSRoot(m.target) {
		w = append(w, "host-root")
	}
	if isPersistent(m.fstype) && src != "/" {
		if isHomeDir(src) {
			w = append(w, "host-home")
		}
		for _, d := range credentialDirs {
			if strings.HasSuffix(src, "/"+d) || strings.Contains(src, "/"+d+"/") {
				w = append(w, "credentials-dir")
				break
			}
		}
		for _, d := range hostSystemDirs {
			if (src == d || strings.HasPrefix(src, d+"/")) && !runtimeManaged(m) {
				w = append(w, "host-system-dir")
				break
			}
		}
	}
	if inContainer && !m.ro {
		switch {
		case m.fstype == "sysfs" && m.target == "/sys":
			w = append(w, "sys-writable")
		case m.fstype == "proc" && m.target == "/proc" && !c.roMountAt("/proc/sys"):
			w = append(w, "proc-sys-writable")
		}
	}
	return w
}

// runtimeManaged tells the files a runtime bind-mounts into every
// container (hosts, hostname, resolv.conf, pod volumes) from a real
// host path mount.
func runtimeManaged(m mountEntry) bool {
	switch m.target {
	case "/etc/hosts", "/etc/hostname", "/etc/resolv.conf", "/dev/termination-log", "/run/.containerenv":
		return true
	}
	for _, s := range []string{"/pods/", "/sandboxes/", "/containers/"} {
		if strings.Contains(m.root, s) {
			return true
		}
	}
	return false
}

func isHomeDir(p string) bool {
	if p == "/root" {
		return true
	}
	d, f := path.Split(p)
	return f != "" && (d == "/home/" || d == "/Users/")
}

func (c *collector) roMountAt(target string) bool {
	for _, m := range c.mnts {
		if m.target == target && m.ro {
			return true
		}
	}
	return false
}

// looksLikeOSRoot tells a host's root filesystem from a data volume.
func (c *collector) looksLikeOSRoot(target string) bool {
	_, err1 := c.fs.lstat(path.Join(target, "etc/os-release"))
	_, err2 := c.fs.lstat(path.Join(target, "usr"))
	return err1 == nil && err2 == nil
}

// sensitiveMounts lists the mounts that matter: sockets, host paths,
// writable kernel interfaces, credential directories.
func (c *collector) sensitiveMounts() {
	inContainer := c.live.Isolation.Kind == "container"
	for _, m := range c.mnts {
		w := c.why(m, inContainer)
		if len(w) == 0 {
			continue
		}
		c.live.Mounts = append(c.live.Mounts, toMount(m, w))
	}
	sort.SliceStable(c.live.Mounts, func(i, j int) bool { return c.live.Mounts[i].Target < c.live.Mounts[j].Target })
}

func toMount(m mountEntry, why []string) model.LiveMount {
	src := m.root
	if src == "/" && m.source != "" && m.source != "none" {
		src = m.source
	}
	return model.LiveMount{Target: m.target, Source: src, FSType: m.fstype, ReadOnly: m.ro,
		Why: why, Persistent: isPersistent(m.fstype), Loc: loc("mounts")}
}
