package live

import (
	"strings"
)

// signal is one observation pointing at an isolation kind. Weight: 1 weak
// (suggestive), 2 medium (usual marker, can be faked or inherited),
// 3 strong (hard to produce any other way).
type signal struct {
	kind, runtime string
	weight        int
	text          string
}

// vmKinds are virtual machines, outermost first in the stack; kata and
// gvisor are per-sandbox kernels that sit where a container would.
var vmKinds = []string{"firecracker", "vm"}

// isolation decides the stack of boundaries from every signal and judges
// the innermost: host → VM → container → gVisor. A container on a VM (a
// microVM that runs a Docker Engine, a cloud VM) shares that VM's kernel
// with everything else on it, so the container is the agent's boundary and
// the VM is reported as the layer around it; Kata runs one VM per pod and
// gVisor one kernel per container, so they are the boundary themselves.
// A kind needs weight ≥ 2 and either two signals or one strong one, so a
// lone /.dockerenv — copied into many images — never decides.
func (c *collector) isolation() {
	var sigs []signal
	sigs = append(sigs, c.kernelSignals()...)
	sigs = append(sigs, c.vmSignals()...)
	sigs = append(sigs, c.containerSignals()...)
	iso := &c.live.Isolation
	score := map[string]int{}
	count := map[string]int{}
	strong := map[string]bool{}
	for _, s := range sigs {
		iso.Signals = append(iso.Signals, s.text)
		score[s.kind] += s.weight
		count[s.kind]++
		strong[s.kind] = strong[s.kind] || s.weight >= 3
	}
	enough := func(k string) bool { return score[k] >= 2 && (count[k] >= 2 || strong[k]) }
	vm := ""
	for _, k := range vmKinds {
		if enough(k) && !enough("kata") { // Kata's VM is the kata layer itself
			vm = k
			break
		}
	}
	if vm != "" {
		iso.Layers = append(iso.Layers, vm)
	}
	for _, k := range []string{"kata", "container", "gvisor"} {
		if enough(k) {
			iso.Layers = append(iso.Layers, k)
		}
	}
	kind := "unknown"
	switch {
	case enough("gvisor"):
		kind = "gvisor"
	case enough("kata"):
		kind = "kata"
	case enough("container"):
		kind = "container"
	case vm != "":
		kind = vm
	case enough("host"):
		kind = "host"
	}
	iso.Kind = kind
	iso.Confidence = confidence(score[kind], count[kind])
	iso.Runtime = runtimeOf(sigs, kind)
	if kind == "unknown" {
		iso.Confidence = "low"
	}
}

func confidence(score, n int) string {
	switch {
	case score >= 5 && n >= 2:
		return "high"
	case score >= 3:
		return "medium"
	}
	return "low"
}

// runtimeOf picks the runtime named by the heaviest signal of the kind;
// a concrete runtime (containerd) beats the orchestrator (kubernetes).
func runtimeOf(sigs []signal, kind string) string {
	best, bestScore := "", 0
	for _, s := range sigs {
		sc := s.weight * 2
		if s.runtime != "kubernetes" {
			sc++
		}
		if s.kind == kind && s.runtime != "" && sc > bestScore {
			best, bestScore = s.runtime, sc
		}
	}
	return best
}

// kernelSignals reads the kernel identity and boot command line.
func (c *collector) kernelSignals() []signal {
	var out []signal
	if v, err := c.fs.readFile("/proc/version"); err != nil {
		c.miss("isolation", "/proc/version", err)
	} else {
		ver := strings.TrimSpace(string(v))
		// gVisor reports a fixed fake kernel; its build string never changes.
		if strings.Contains(ver, "#1 SMP Sun Jan 10 15:06:54 PST 2016") {
			out = append(out, signal{"gvisor", "runsc", 3, "/proc/version has gVisor's fixed kernel build string"})
		}
		if strings.Contains(ver, "gvisor") {
			out = append(out, signal{"gvisor", "runsc", 3, "/proc/version names gvisor"})
		}
	}
	if _, err := c.fs.lstat("/__runsc_containers__"); err == nil {
		out = append(out, signal{"gvisor", "runsc", 3, "/__runsc_containers__ exists (runsc)"})
	}
	cl, err := c.fs.readFile("/proc/cmdline")
	if err != nil {
		c.miss("isolation", "/proc/cmdline", err)
		return out
	}
	cmd := " " + strings.TrimSpace(string(cl)) + " "
	if strings.Contains(cmd, "kata-containers") || strings.Contains(cmd, " agent.") {
		// Kata's guest kernel boots with microVM arguments too; they say Kata here.
		return append(out, signal{"kata", "kata", 3, "/proc/cmdline has Kata agent arguments"})
	}
	fc := 0
	for _, a := range []string{" reboot=k ", " panic=1 ", " pci=off ", " 8250.nr_uarts=0 ", " i8042.noaux ", " i8042.nomux "} {
		if strings.Contains(cmd, a) {
			fc++
		}
	}
	if fc >= 2 {
		out = append(out, signal{"firecracker", "firecracker", 3, "/proc/cmdline has Firecracker's boot arguments (reboot=k panic=1 …)"})
	}
	if strings.Contains(strings.ToLower(cmd), "firecracker") {
		out = append(out, signal{"firecracker", "firecracker", 3, "/proc/cmdline mentions firecracker"})
	}
	if strings.Contains(cmd, "virtio_mmio.device=") {
		out = append(out, signal{"firecracker", "firecracker", 1, "/proc/cmdline attaches virtio-mmio devices (microVM, no PCI)"})
	}
	return out
}

// vmDMI maps DMI vendor / product strings to a hypervisor.
var vmDMI = []struct{ needle, runtime string }{
	{"firecracker", "firecracker"}, {"cloud hypervisor", "cloud-hypervisor"},
	{"qemu", "qemu"}, {"kvm", "kvm"}, {"amazon ec2", "amazon-ec2"}, {"google compute engine", "gce"},
	{"virtual machine", "hyper-v"}, {"vmware", "vmware"}, {"virtualbox", "virtualbox"},
	{"xen", "xen"}, {"bhyve", "bhyve"}, {"parallels", "parallels"}, {"openstack", "openstack"},
}

// vmSignals reads CPU flags, DMI tables and buses.
func (c *collector) vmSignals() []signal {
	var out []signal
	hyper := false
	if ci, err := c.fs.readFile("/proc/cpuinfo"); err != nil {
		c.miss("isolation", "/proc/cpuinfo", err)
	} else {
		for _, line := range strings.Split(string(ci), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "flags" {
				hyper = strings.Contains(" "+v+" ", " hypervisor ")
				break
			}
		}
		if hyper {
			out = append(out, signal{"vm", "", 2, "/proc/cpuinfo has the hypervisor flag"})
		} else {
			out = append(out, signal{"host", "", 2, "/proc/cpuinfo has no hypervisor flag"})
		}
	}
	vendor, _ := c.fs.readFile("/sys/class/dmi/id/sys_vendor")
	product, _ := c.fs.readFile("/sys/class/dmi/id/product_name")
	dmi := strings.ToLower(strings.TrimSpace(string(vendor)) + " " + strings.TrimSpace(string(product)))
	switch {
	case strings.TrimSpace(dmi) == "" && hyper:
		out = append(out, signal{"firecracker", "", 1, "no DMI tables under a hypervisor (microVM)"})
	case strings.TrimSpace(dmi) != "":
		matched := false
		for _, v := range vmDMI {
			if strings.Contains(dmi, v.needle) {
				out = append(out, signal{"vm", v.runtime, 3, "DMI says " + strings.TrimSpace(dmi)})
				matched = true
				break
			}
		}
		if !matched && !hyper {
			out = append(out, signal{"host", "", 1, "DMI names hardware: " + strings.TrimSpace(dmi)})
		}
	}
	if t, err := c.fs.readFile("/sys/hypervisor/type"); err == nil && len(strings.TrimSpace(string(t))) > 0 {
		out = append(out, signal{"vm", strings.TrimSpace(string(t)), 3, "/sys/hypervisor/type is " + strings.TrimSpace(string(t))})
	}
	if hyper {
		if ents, err := c.fs.readDir("/sys/bus/pci/devices"); err == nil && len(ents) == 0 {
			out = append(out, signal{"firecracker", "", 2, "no PCI devices under a hypervisor (microVM)"})
		}
	}
	for _, m := range c.mnts {
		if m.fstype == "virtiofs" && strings.Contains(m.source, "kataShared") || strings.Contains(m.root, "kataShared") {
			out = append(out, signal{"kata", "kata", 3, "mountinfo has Kata's shared filesystem (kataShared) at " + m.target})
			break
		}
	}
	return out
}
