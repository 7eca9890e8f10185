package model

// Live holds the facts read from inside a running sandbox (scan --live).
// Every fact a rule may cite carries a Loc with a pseudo-path live/<check>
// at line 1: live facts have no config file, and a SARIF result needs a
// physical location. No field ever holds a secret value.
type Live struct {
	// Root is the filesystem root the facts were read from ("/" for the
	// running system, a directory for a fixture or another container's root).
	Root        string       `json:"root"`
	Isolation   Isolation    `json:"isolation"`
	Privileges  Privileges   `json:"privileges"`
	Mounts      []LiveMount  `json:"mounts"` // sensitive mounts only
	Sockets     []LiveSocket `json:"sockets"`
	Credentials []LiveCred   `json:"credentials"` // details of each credential; values never kept
	Network     LiveNetwork  `json:"network"`
	Reuse       Reuse        `json:"reuse"`
	// Unavailable lists what could not be checked and why, so a missing
	// /proc entry or an unreadable file is never taken for a pass.
	Unavailable []Unavailable `json:"unavailable"`
}

// Isolation is the kind of boundary around the sandbox, decided from
// several signals; one signal alone never yields high confidence.
type Isolation struct {
	// Kind is the strongest boundary found: container | gvisor | kata |
	// firecracker | vm | host | unknown.
	Kind string `json:"kind"`
	// Runtime names the implementation: docker | containerd | podman | lxc |
	// cri-o | kubernetes | runsc | kata | firecracker | kvm | qemu | … ("" when unknown).
	Runtime    string `json:"runtime"`
	Confidence string `json:"confidence"` // high | medium | low
	// Layers lists every boundary with enough evidence, outermost first
	// (e.g. ["firecracker", "container"] for a container inside a microVM).
	Layers []string `json:"layers"`
	// Signals are the observations behind Kind, each naming its source file.
	Signals []string `json:"signals"`
	Loc
}

// Privileges describes what the sandboxed process may do to its kernel.
type Privileges struct {
	UID *int `json:"uid,omitempty"` // effective uid of the audited process; nil when unknown
	// CapEff is the effective capability set as in /proc/self/status (hex).
	CapEff string `json:"cap_eff"`
	// Caps are the effective capabilities by name, without the CAP_ prefix.
	Caps []string `json:"caps"`
	// CapsBeyondDefault are effective capabilities that Docker's default
	// set (0x00000000a80425fb) does not grant.
	CapsBeyondDefault []string `json:"caps_beyond_default"`
	AllCaps           bool     `json:"all_caps"` // every capability the kernel knows
	// Seccomp is disabled | strict | filter, "" when unknown.
	Seccomp    string `json:"seccomp"`
	NoNewPrivs *bool  `json:"no_new_privs,omitempty"`
	// UserNS describes the user namespace mapping.
	UserNS UserNS `json:"user_ns"`
	LSM    LSM    `json:"lsm"`
	// Privileged is true when several signs of a privileged container agree
	// (all capabilities, no seccomp, writable /sys, host devices).
	Privileged     bool     `json:"privileged"`
	PrivilegedSign []string `json:"privileged_signs"`
	// HostPID / HostNet: the sandbox shares the host's PID / network
	// namespace; judged only inside a container.
	HostPID        bool     `json:"host_pid"`
	HostNet        bool     `json:"host_net"`
	HostNamespaces []string `json:"host_namespace_signs"`
	Loc
}

// UserNS is the uid mapping of the process's user namespace.
type UserNS struct {
	// Mapped is true when uid 0 inside is not uid 0 outside (a user
	// namespace with a shifted range); nil when uid_map could not be read.
	Mapped *bool  `json:"mapped,omitempty"`
	UIDMap string `json:"uid_map"` // first line, whitespace collapsed
}

// LSM is the Linux security module label of the process.
type LSM struct {
	Name     string `json:"name"`  // apparmor | selinux | none | "" (unknown)
	Label    string `json:"label"` // e.g. "docker-default (enforce)", "system_u:system_r:container_t:s0"
	Confined bool   `json:"confined"`
}

// LiveMount is a mount from mountinfo that matters for security or reuse.
type LiveMount struct {
	Target   string `json:"target"`
	Source   string `json:"source"` // root of the mount within its filesystem, or the device
	FSType   string `json:"fstype"`
	ReadOnly bool   `json:"read_only"`
	// Why says what makes it sensitive: runtime-socket | host-root | host-home |
	// credentials-dir | proc-sys-writable | sys-writable | host-devices |
	// kubelet | home-or-workspace.
	Why []string `json:"why"`
	// Persistent: backed by a disk or network filesystem, so its content
	// outlives the sandbox (not overlay, tmpfs or a pseudo filesystem).
	Persistent bool `json:"persistent"`
	Loc
}

// LiveSocket is a container runtime or agent socket found in the sandbox.
type LiveSocket struct {
	Path     string `json:"path,omitempty"`     // unix socket path as seen inside the sandbox
	Endpoint string `json:"endpoint,omitempty"` // tcp host:port (DOCKER_HOST=tcp://…)
	Kind     string `json:"kind"`               // docker | containerd | cri-o | podman | buildkit | kubelet | lxd | unknown
	// Found says how: path | mount | env (DOCKER_HOST…).
	Found    string `json:"found"`
	IsSocket bool   `json:"is_socket"` // the path is a real socket (false for a placeholder file)
	// Probed: a read-only request was attempted. Reachable: it was answered
	// (or, for gRPC runtimes, the connection was accepted).
	Probed    bool   `json:"probed"`
	Reachable bool   `json:"reachable"`
	Evidence  string `json:"evidence,omitempty"` // e.g. "GET /_ping: 200 OK; Docker 27.1.1 API 1.46"
	Error     string `json:"error,omitempty"`
	Loc
}

// LiveCred details one credential found in the live environment. The
// report's credentials[] carries the same credential as a Credential.
type LiveCred struct {
	SecretRef
	// Source is env | file | git-config | service-account | ssh-agent.
	Source string `json:"source"`
	// Name is the variable name or the path (with the key inside the file).
	Name string `json:"name"`
	// CanPush: the credential can push code (a git credential, a GitHub
	// token, an SSH key or agent).
	CanPush   bool     `json:"can_push"`
	ExpiresAt string   `json:"expires_at,omitempty"` // JWT exp, RFC 3339
	Expired   bool     `json:"expired,omitempty"`
	Audience  []string `json:"audience,omitempty"` // JWT aud
	Issuer    string   `json:"issuer,omitempty"`   // JWT iss
	Subject   string   `json:"subject,omitempty"`  // JWT sub, e.g. system:serviceaccount:ns:name
	Note      string   `json:"note,omitempty"`
	Loc
}

// LiveNetwork is what the sandbox can reach.
type LiveNetwork struct {
	Proxies       []Proxy    `json:"proxies"`
	NoProxy       []string   `json:"no_proxy"`
	Resolvers     []string   `json:"resolvers"`
	DefaultRoutes []Route    `json:"default_routes"`
	Interfaces    []string   `json:"interfaces"`
	Listening     []Listener `json:"listening"`
	Probed        bool       `json:"probed"` // active probes ran (--probe)
	Probes        []Probe    `json:"probes"`
	Loc
}

// Proxy is a proxy environment variable; the host keeps no credentials.
type Proxy struct {
	Var  string `json:"var"`  // HTTPS_PROXY, http_proxy, ALL_PROXY…
	Host string `json:"host"` // host:port, userinfo removed
}

// Route is a default route.
type Route struct {
	Family  string `json:"family"` // ipv4 | ipv6
	Iface   string `json:"iface"`
	Gateway string `json:"gateway"`
}

// Listener is a listening TCP socket.
type Listener struct {
	Addr     string `json:"addr"` // ip:port
	Loopback bool   `json:"loopback"`
}

// Probe is one active reachability check.
type Probe struct {
	Target     string `json:"target"`
	Kind       string `json:"kind"`     // tcp | http | dns
	Expect     string `json:"expect"`   // reachable | blocked
	Metadata   bool   `json:"metadata"` // a cloud metadata endpoint
	Reachable  bool   `json:"reachable"`
	Error      string `json:"error,omitempty"`
	Detail     string `json:"detail,omitempty"` // e.g. "HTTP 200", "via proxy"
	DurationMS int64  `json:"duration_ms"`
	Loc
}

// Reuse holds the signs that the sandbox existed before the task or will
// outlive it.
type Reuse struct {
	UptimeSeconds int64  `json:"uptime_seconds"`
	BootID        string `json:"boot_id"`
	BootedAt      string `json:"booted_at,omitempty"`
	// EnvStartedAt is when this environment began: PID 1's start (the
	// container) or the boot (a VM).
	EnvStartedAt string `json:"env_started_at,omitempty"`
	TaskStarted  string `json:"task_started,omitempty"`
	// TaskSource says where TaskStarted came from: option | process-tree | "".
	TaskSource string `json:"task_source"`
	// EnvAgeAtTaskSeconds is how long the environment existed before the
	// task started (0 when unknown).
	EnvAgeAtTaskSeconds int64       `json:"env_age_at_task_seconds"`
	History             []ReuseFile `json:"history"`
	OldFiles            int         `json:"old_files"` // modified inside this environment before the task
	OldFileExamples     []string    `json:"old_file_examples"`
	Walked              int         `json:"walked"` // entries examined for old files
	Truncated           bool        `json:"truncated"`
	PersistentMounts    []LiveMount `json:"persistent_mounts"` // over home or workspace
	Caches              []ReuseFile `json:"caches"`
	Canary              *Canary     `json:"canary,omitempty"`
	Loc
}

// ReuseFile is a history file or cache directory.
type ReuseFile struct {
	Path       string `json:"path"`
	Size       int64  `json:"size"`
	Modified   string `json:"modified"`
	BeforeTask bool   `json:"before_task"` // modified inside this environment before the task started
}

// Canary is the marker left by --canary: a marker from an earlier run
// proves that state carried over.
type Canary struct {
	Path              string `json:"path"`
	Written           bool   `json:"written"`
	Nonce             string `json:"nonce,omitempty"`
	FoundPrevious     bool   `json:"found_previous"`
	PreviousNonce     string `json:"previous_nonce,omitempty"`
	PreviousWrittenAt string `json:"previous_written_at,omitempty"`
	PreviousBootID    string `json:"previous_boot_id,omitempty"`
	Error             string `json:"error,omitempty"`
	Loc
}

// Unavailable is a check that could not run, with the reason.
type Unavailable struct {
	Check  string `json:"check"`
	Reason string `json:"reason"`
}
