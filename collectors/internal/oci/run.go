package oci

import (
	"strings"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// docker run options, as a devcontainer's runArgs and a script's docker
// run command line write them.

// runValueFlags are the options that change isolation and take a value,
// inline (--flag=v) or as the next argument.
var runValueFlags = map[string]bool{
	"--cap-add": true, "--cap-drop": true, "--security-opt": true, "--network": true, "--net": true,
	"--pid": true, "--ipc": true, "-v": true, "--volume": true, "--mount": true, "--runtime": true,
	"-e": true, "--env": true, "--env-file": true, "-u": true, "--user": true, "-p": true, "--publish": true,
	"--restart": true, "--name": true, "-l": true, "--label": true, "-w": true, "--workdir": true,
	"--device": true, "--add-host": true, "--userns": true, "--uts": true, "--hostname": true, "-h": true,
	"--entrypoint": true,
}

// otherValueFlags take a value too but change nothing judged: knowing
// them tells their value from the image that follows the options.
var otherValueFlags = map[string]bool{
	"--gpus": true, "-m": true, "--memory": true, "--memory-swap": true, "--memory-reservation": true,
	"--cpus": true, "-c": true, "--cpu-shares": true, "--cpuset-cpus": true, "--cpuset-mems": true,
	"--platform": true, "--shm-size": true, "--ulimit": true, "--tmpfs": true, "--log-driver": true,
	"--log-opt": true, "--stop-timeout": true, "--stop-signal": true, "--group-add": true, "--dns": true,
	"--dns-search": true, "--dns-option": true, "--mac-address": true, "--cidfile": true, "--pull": true,
	"--sysctl": true, "--health-cmd": true, "--health-interval": true, "--health-retries": true,
	"--health-timeout": true, "--health-start-period": true, "--pids-limit": true, "--oom-score-adj": true,
	"--cgroupns": true, "--cgroup-parent": true, "--ip": true, "--ip6": true, "--link": true,
	"--network-alias": true, "--volumes-from": true, "--expose": true, "-a": true, "--attach": true,
	"--label-file": true, "--isolation": true, "--storage-opt": true, "--annotation": true,
	"--device-cgroup-rule": true, "--domainname": true, "--detach-keys": true, "--blkio-weight": true,
}

// RunTakesValue reports whether a docker run option takes a value.
func RunTakesValue(flag string) bool { return runValueFlags[flag] || otherValueFlags[flag] }

// SplitRunFlag splits "--flag=value", "-eKEY=V" and "-e" into name and
// value; flag is "" for an argument that is no option.
func SplitRunFlag(s string) (flag, val string, hasVal bool) {
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

// RunHooks take the options each format keeps its own way.
type RunHooks struct {
	// Env gets -e/--env: NAME (the host's value) or NAME=value.
	Env func(name, value string, hasValue bool, loc model.Loc)
	// User gets -u/--user.
	User func(u *model.Str)
	// By names where the options are written, in an egress control
	// (runArgs of a devcontainer: "runArgs ").
	By string
}

// ApplyRunFlag applies one docker run option that changes isolation to w;
// the others are ignored.
func ApplyRunFlag(w *model.Workload, flag, val string, hasVal bool, loc model.Loc, h RunHooks) {
	if runValueFlags[flag] && val == "" {
		return // "--cap-add" as the last argument: docker would refuse it
	}
	switch flag {
	case "--privileged":
		Privileged(w, !hasVal || val == "true", loc)
	case "--cap-add":
		w.CapAdd = append(w.CapAdd, model.Str{Value: Cap(val), Loc: loc})
	case "--cap-drop":
		w.CapDrop = append(w.CapDrop, model.Str{Value: Cap(val), Loc: loc})
	case "--security-opt":
		SecurityOpt(w, &model.Str{Value: val, Loc: loc})
	case "--network", "--net":
		w.NetworkMode = &model.Str{Value: val, Loc: loc}
		switch val {
		case "host":
			w.HostNetwork = &model.Bool{Value: true, Loc: loc}
		case "none":
			w.Egress = &model.Egress{Restricted: true, By: h.By + flag + "=none", Loc: loc}
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
		AddMount(w, ParseVolume(val), loc)
	case "--mount":
		AddMount(w, ParseMountSpec(val), loc)
	case "--runtime":
		w.Runtime = &model.Str{Value: Runtime(val), Loc: loc}
	case "-e", "--env":
		if h.Env != nil {
			name, value, ok := strings.Cut(val, "=")
			h.Env(name, value, ok, loc)
		}
	case "--env-file":
		w.EnvFiles = append(w.EnvFiles, model.Str{Value: val, Loc: loc})
	case "-u", "--user":
		if h.User != nil {
			h.User(&model.Str{Value: val, Loc: loc})
		}
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

// Privileged keeps the strongest setting: the container is privileged when
// any source (a property, an option, a devcontainer feature) asks for it.
func Privileged(w *model.Workload, b bool, loc model.Loc) {
	if p := w.Privileged; p == nil || (!p.Value && b) {
		w.Privileged = &model.Bool{Value: b, Loc: loc}
	}
}

// SecurityOpt keeps the option as written and derives seccomp=unconfined
// and no-new-privileges.
func SecurityOpt(w *model.Workload, o *model.Str) {
	if o == nil {
		return
	}
	w.SecurityOpt = append(w.SecurityOpt, *o)
	key, val := SplitOpt(o.Value)
	switch key {
	case "seccomp":
		if val == "unconfined" {
			w.Seccomp = &model.Str{Value: "unconfined", Loc: o.Loc}
		}
	case "no-new-privileges":
		if val == "" || val == "true" {
			w.AllowPrivEsc = &model.Bool{Value: false, Loc: o.Loc}
		}
	}
}

// AddMount records a mount at loc. Host paths and named volumes outlive the
// container (named volumes survive rebuilds); tmpfs does not.
func AddMount(w *model.Workload, m model.Mount, loc model.Loc) {
	if m.Target == "" && m.Source == "" {
		return
	}
	m.Persistent = m.Type == "bind" || m.Type == "volume"
	m.Loc = loc
	w.Mounts = append(w.Mounts, m)
}

// ParseMountSpec reads docker's --mount syntax:
// type=bind,source=/a,target=/b,readonly.
func ParseMountSpec(s string) model.Mount {
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

// ParseVolume reads -v src:dst[:opts].
func ParseVolume(s string) model.Mount {
	parts := SplitVolume(s)
	if len(parts) == 1 {
		return model.Mount{Type: "volume", Target: parts[0]}
	}
	m := model.Mount{Source: parts[0], Target: parts[1], Type: "volume"}
	if src := m.Source; src != "" && (strings.ContainsAny(src[:1], "/.~$\\") || IsDrive(src)) {
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

// SplitVolume splits a volume's short syntax (src:dst[:opts]) at the colons
// that are not inside ${…} (${localEnv:HOME}, ${X:-/a}) or after a Windows
// drive letter.
func SplitVolume(v string) []string {
	var parts []string
	start, depth := 0, 0
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '{':
			depth++
		case '}':
			if depth > 0 {
				depth--
			}
		case ':':
			if depth > 0 || (i == start+1 && IsDrive(v[start:])) {
				continue
			}
			parts = append(parts, v[start:i])
			start = i + 1
		}
	}
	return append(parts, v[start:])
}

// IsDrive reports a Windows drive path (C:\ or C:/).
func IsDrive(s string) bool {
	return len(s) >= 3 && s[1] == ':' && (s[2] == '\\' || s[2] == '/') &&
		(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z')
}
