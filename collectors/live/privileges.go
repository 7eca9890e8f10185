package live

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"syscall"
)

// privileges reads what the audited process may do: capabilities, seccomp,
// no_new_privs, user namespace, LSM label, and the signs of a privileged
// container or shared host namespaces.
func (c *collector) privileges() {
	p := &c.live.Privileges
	inContainer := c.live.Isolation.Kind == "container"
	if data, err := c.fs.readFile("/proc/self/status"); err != nil {
		c.miss("privileges", "/proc/self/status", err)
	} else {
		st := statusFields(data)
		if f := strings.Fields(st["Uid"]); len(f) >= 2 {
			if uid, err := strconv.Atoi(f[1]); err == nil {
				p.UID = &uid
			}
		}
		p.CapEff = st["CapEff"]
		if p.CapEff == "" {
			c.unavailable("privileges", "/proc/self/status: no CapEff line")
		} else if names, beyond, all, err := decodeCaps(p.CapEff); err != nil {
			c.unavailable("privileges", "/proc/self/status: CapEff is not hex")
		} else {
			p.Caps, p.CapsBeyondDefault, p.AllCaps = names, beyond, all
		}
		p.Seccomp = seccompMode(st["Seccomp"])
		if p.Seccomp == "" {
			c.unavailable("privileges", "/proc/self/status: no Seccomp line (kernel without seccomp?)")
		}
		if v, ok := st["NoNewPrivs"]; ok {
			b := v == "1"
			p.NoNewPrivs = &b
		}
	}
	c.userNS()
	c.lsm()
	if inContainer {
		c.privilegedSigns()
		c.hostNamespaces()
	}
}

func (c *collector) userNS() {
	p := &c.live.Privileges
	data, err := c.fs.readFile("/proc/self/uid_map")
	if err != nil {
		c.miss("privileges", "/proc/self/uid_map", err)
		return
	}
	first := strings.Fields(strings.SplitN(string(data), "\n", 2)[0])
	p.UserNS.UIDMap = strings.Join(first, " ")
	if len(first) == 3 {
		// The initial namespace maps 0→0 over the whole 32-bit range.
		mapped := !(first[0] == "0" && first[1] == "0" && first[2] == "4294967295")
		p.UserNS.Mapped = &mapped
	}
}

// selinuxLabel is user:role:type:level.
var selinuxLabel = regexp.MustCompile(`^[^:\s]+:[^:\s]+:[^:\s]+(:.+)?$`)

func (c *collector) lsm() {
	l := &c.live.Privileges.LSM
	var data []byte
	var err error
	for _, p := range []string{"/proc/self/attr/apparmor/current", "/proc/self/attr/current"} {
		if data, err = c.fs.readFile(p); err == nil {
			break
		}
	}
	switch {
	case errors.Is(err, syscall.EINVAL):
		// The file exists but no LSM answers: nothing confines the process.
		l.Name, l.Label = "none", ""
		return
	case err != nil:
		c.miss("privileges", "/proc/self/attr/current", err)
		return
	}
	label := strings.TrimRight(strings.TrimSpace(string(data)), "\x00")
	l.Label = label
	switch {
	case label == "unconfined":
		l.Name = "apparmor"
	case selinuxLabel.MatchString(label):
		l.Name = "selinux"
		l.Confined = !strings.Contains(label, ":unconfined_t:") && !strings.Contains(label, ":spc_t:") && !strings.Contains(label, ":kernel_t:")
	case label == "":
		l.Name = "none"
	default:
		l.Name = "apparmor"
		l.Confined = !strings.Contains(label, "(unconfined)")
	}
}

// hostDevice names device nodes a default container never gets.
var hostDevice = regexp.MustCompile(`^(sd[a-z]+|vd[a-z]+|xvd[a-z]+|nvme\d+(n\d+)?|mem|kmem|port|dm-\d+|loop-control|mapper)$`)

func (c *collector) privilegedSigns() {
	p := &c.live.Privileges
	var signs []string
	if p.AllCaps {
		signs = append(signs, "all capabilities effective (CapEff "+p.CapEff+")")
	}
	if p.Seccomp == "disabled" {
		signs = append(signs, "seccomp disabled")
	}
	if p.LSM.Name == "apparmor" && !p.LSM.Confined || p.LSM.Name == "selinux" && !p.LSM.Confined {
		signs = append(signs, p.LSM.Name+" unconfined")
	}
	for _, m := range c.mnts {
		if m.target == "/sys" && m.fstype == "sysfs" && !m.ro {
			signs = append(signs, "/sys mounted read-write")
		}
	}
	if ents, err := c.fs.readDir("/dev"); err == nil {
		var devs []string
		for _, e := range ents {
			if hostDevice.MatchString(e.Name()) {
				devs = append(devs, "/dev/"+e.Name())
			}
		}
		if len(devs) > 0 {
			if len(devs) > 3 {
				devs = append(devs[:3], "…")
			}
			signs = append(signs, "host devices present: "+strings.Join(devs, " "))
		}
	}
	p.PrivilegedSign = signs
	hasAdmin := false
	for _, n := range p.Caps {
		hasAdmin = hasAdmin || n == "SYS_ADMIN"
	}
	// One sign alone (a lone seccomp=unconfined) is not --privileged; full
	// capabilities plus another sign is what the flag produces.
	p.Privileged = (p.AllCaps || hasAdmin) && len(signs) >= 3
}

// hostNamespaces looks for the host's PID and network namespaces from
// inside a container: kernel threads and runtime sockets are visible only there.
func (c *collector) hostNamespaces() {
	p := &c.live.Privileges
	if comm, err := c.fs.readFile("/proc/2/comm"); err == nil && strings.TrimSpace(string(comm)) == "kthreadd" {
		p.HostPID = true
		p.HostNamespaces = append(p.HostNamespaces, "pid: kthreadd is visible as PID 2")
	}
	for _, ifc := range c.interfaces() {
		for _, pre := range []string{"docker0", "cni0", "cali", "flannel", "veth", "virbr", "br-", "cilium_", "kube-bridge", "weave"} {
			if strings.HasPrefix(ifc, pre) {
				p.HostNet = true
				p.HostNamespaces = append(p.HostNamespaces, "net: host interface "+ifc+" is visible")
				return
			}
		}
	}
	if data, err := c.fs.readFile("/proc/net/unix"); err == nil && strings.Contains(string(data), "@/containerd-shim") {
		p.HostNet = true
		p.HostNamespaces = append(p.HostNamespaces, "net: containerd-shim abstract sockets are visible")
	}
}

// capNames are Linux capabilities by bit number (linux/capability.h).
var capNames = []string{
	"CHOWN", "DAC_OVERRIDE", "DAC_READ_SEARCH", "FOWNER", "FSETID", "KILL", "SETGID", "SETUID",
	"SETPCAP", "LINUX_IMMUTABLE", "NET_BIND_SERVICE", "NET_BROADCAST", "NET_ADMIN", "NET_RAW",
	"IPC_LOCK", "IPC_OWNER", "SYS_MODULE", "SYS_RAWIO", "SYS_CHROOT", "SYS_PTRACE", "SYS_PACCT",
	"SYS_ADMIN", "SYS_BOOT", "SYS_NICE", "SYS_RESOURCE", "SYS_TIME", "SYS_TTY_CONFIG", "MKNOD",
	"LEASE", "AUDIT_WRITE", "AUDIT_CONTROL", "SETFCAP", "MAC_OVERRIDE", "MAC_ADMIN", "SYSLOG",
	"WAKE_ALARM", "BLOCK_SUSPEND", "AUDIT_READ", "PERFMON", "BPF", "CHECKPOINT_RESTORE",
}

// CapabilityNames lists the Linux capabilities by bit number, without the
// CAP_ prefix (Docker's --cap-add names).
func CapabilityNames() []string { return append([]string(nil), capNames...) }

// dockerDefaultCaps is the set Docker (and containerd's default spec)
// grants a non-privileged container.
const dockerDefaultCaps uint64 = 0x00000000a80425fb

// decodeCaps turns a CapEff hex mask into names, the names beyond Docker's
// default set, and whether every known capability is present.
func decodeCaps(hex string) (names, beyond []string, all bool, err error) {
	mask, err := strconv.ParseUint(strings.TrimSpace(hex), 16, 64)
	if err != nil {
		return nil, nil, false, err
	}
	all = true
	for i, n := range capNames {
		bit := uint64(1) << uint(i)
		if mask&bit == 0 {
			all = false
			continue
		}
		names = append(names, n)
		if dockerDefaultCaps&bit == 0 {
			beyond = append(beyond, n)
		}
	}
	for i := len(capNames); i < 64; i++ {
		if mask&(uint64(1)<<uint(i)) != 0 {
			names = append(names, "CAP_"+strconv.Itoa(i))
		}
	}
	return names, beyond, all, nil
}

// statusFields parses "Key:\tvalue" lines of /proc/<pid>/status.
func statusFields(data []byte) map[string]string {
	out := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok {
			out[k] = strings.TrimSpace(v)
		}
	}
	return out
}

// seccompMode names the Seccomp: field of /proc/self/status.
func seccompMode(v string) string {
	switch v {
	case "0":
		return "disabled"
	case "1":
		return "strict"
	case "2":
		return "filter"
	}
	return ""
}

// strongCaps are the capabilities that, beyond the default set, let a
// container reach the host kernel or other processes.
var strongCaps = map[string]bool{"SYS_ADMIN": true, "SYS_MODULE": true, "SYS_RAWIO": true, "SYS_PTRACE": true, "DAC_READ_SEARCH": true, "BPF": true, "NET_ADMIN": true}
