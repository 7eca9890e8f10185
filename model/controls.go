package model

// This file holds the controls a configuration sets up beside the container
// spec (a firewall script run by a lifecycle command, sudoers lines written by
// the image) and the facts that say whether the agent can undo them.

// Firewall is a shell script of the repository that programs a packet filter
// (iptables, ip6tables, nft, ipset, ufw), as its commands read without
// running it. Loc is the script itself (line 1).
type Firewall struct {
	Loc
	// Tools are the packet-filter commands the script runs, sorted.
	Tools []string `json:"tools"`
	// Policy is what the script leaves as the outbound default: "deny"
	// (OUTPUT policy DROP, or a final catch-all DROP/REJECT rule) or
	// "accept", at the line that decided it; nil when the script never sets
	// the OUTPUT chain's default.
	Policy *Str `json:"policy,omitempty"`
	// IPv6 is filtered (ip6tables or an inet/ip6 nft chain denies by
	// default), disabled (the script turns IPv6 off), or open (IPv4 is
	// filtered and IPv6 is not).
	IPv6 string `json:"ipv6"`
	// Allow lists the named destinations the script lets through: hosts
	// and CIDRs, ipsets, GitHub's published ranges.
	Allow []string `json:"allow"`
	// Holes are exceptions that do not name a destination, and ways the
	// script leaves egress open.
	Holes []Hole `json:"holes"`
	// Sudo is set when every packet-filter command of the script runs
	// through sudo, so the script applies its rules when a non-root user
	// runs it.
	Sudo bool `json:"sudo"`
	// Reads are the files, by absolute or home path, the script reads or
	// sources (cat, jq, source…): what they hold shapes the rules it
	// sets, so whoever can write them can widen the allowlist.
	Reads []Str `json:"reads,omitempty"`
}

// Hole is one way a firewall script lets traffic out without naming where to.
type Hole struct {
	// Kind is any-host (an ACCEPT with no destination, e.g. tcp/22 to any
	// host), dns (the same, for port 53 only), shared (the published ranges
	// of a network anyone can serve from: Cloudflare, a public cloud),
	// ipv6 (IPv6 left unfiltered),
	// fail-open (the script exits successfully before denying) or
	// conditional (the default-deny is set only under a condition).
	Kind string `json:"kind"`
	Text string `json:"text"`
	Loc
}

// EgressScript is a firewall script that a workload's command runs.
type EgressScript struct {
	// Runs is the script as the command names it (a container path or a
	// path relative to the workspace); Phase the command's phase.
	Runs  string `json:"runs"`
	Phase string `json:"phase"`
	// Path is the repository file it resolves to, "" when none was found;
	// NotRead says why the script could not be judged (not among the files
	// read, not a firewall script).
	Path    string    `json:"path"`
	NotRead string    `json:"not_read,omitempty"`
	Rules   *Firewall `json:"rules,omitempty"`
	// Sudo is set when the command, or a script on the way, runs it
	// through sudo or doas (as root, whoever the workload's user is).
	Sudo bool `json:"sudo"`
	// Holds is set when Runs is not itself a firewall script but an
	// entrypoint, not read, of an image that holds this one (read): it may
	// run it.
	Holds string `json:"holds,omitempty"`
}

// SudoRule is one sudoers grant: a line an image writes to /etc/sudoers or
// /etc/sudoers.d (RUN echo … > /etc/sudoers.d/x), or what a devcontainer
// feature or base image documents that it adds.
type SudoRule struct {
	// Who is the user, or %group, the line applies to.
	Who      string `json:"who"`
	RunAs    string `json:"run_as"` // as written: (root), (ALL), (ALL:ALL); "" means root
	NoPasswd bool   `json:"nopasswd"`
	// SetEnv is the SETENV tag: the user may pass any environment to the
	// command (LD_PRELOAD, BASH_ENV), past sudo's env_reset.
	SetEnv bool `json:"setenv,omitempty"`
	// Commands are the commands the line allows, as written; "ALL" is every command.
	Commands []string `json:"commands"`
	// Via says where the line comes from: "sudoers" (written by the
	// Dockerfile), "feature <id>" or "image <ref>".
	Via string `json:"via"`
	// RunsArgs is a command of the line, a script with no arguments
	// fixed, that runs the arguments its caller gives (exec "$@"), at
	// that line of the script: the grant runs any command. Set by the
	// firewall collector's Link.
	RunsArgs *ArgsRun `json:"runs_args,omitempty"`
	Loc
}

// ArgsRun is a sudoers command that runs its caller's arguments, and
// where its script does so.
type ArgsRun struct {
	Command string `json:"command"`
	Loc
}

// UserGroup records that an image adds a user to a group (usermod -aG,
// adduser user group, useradd -G, gpasswd -a).
type UserGroup struct {
	User  string `json:"user"`
	Group string `json:"group"`
	Loc
}

// Copy is a COPY or ADD of build-context files into an image.
type Copy struct {
	Sources []string `json:"sources"` // relative to the build context, as written
	Dest    string   `json:"dest"`    // container path; a trailing / means a directory
	Workdir string   `json:"workdir"` // WORKDIR in effect, for a relative Dest
	Loc
}

// Build is what a workload builds its image from.
type Build struct {
	// Dockerfile and Context are paths relative to the scanned root.
	Dockerfile string `json:"dockerfile"`
	Context    string `json:"context"`
	Loc
}

// BuildOf is what workload w's image is built from: its own build, or, for
// a devcontainer that runs in a compose service, that service's build.
// Use it after every file was collected (in Link).
func (d *Document) BuildOf(w *Workload) *Build {
	if w.Build != nil || w.Compose == nil {
		return w.Build
	}
	for i := range d.Workloads {
		s := &d.Workloads[i]
		if s.Source != "compose" || s.Name != w.Compose.Service || s.Build == nil {
			continue
		}
		for _, f := range w.Compose.Files {
			if s.File == f {
				return s.Build
			}
		}
	}
	return nil
}

// Script is a shell script of the repository that runs other scripts
// (an entrypoint that calls the firewall script), so a command that runs it
// can be followed to what it runs.
type Script struct {
	Loc
	// Runs are the scripts it runs, as written (container or relative
	// paths); SudoRuns those it runs through sudo or doas.
	Runs     []string `json:"runs"`
	SudoRuns []string `json:"sudo_runs"`
	// ArgsLine is the line where it runs its own arguments as a command
	// (exec "$@"); 0 when it does not.
	ArgsLine int `json:"args_line,omitempty"`
	// DropsTo is the non-root user it hands its work to (exec gosu node
	// "$@"), at its line; nil when it does not.
	DropsTo *Str `json:"drops_to,omitempty"`
	// Bypass are the agents it starts with approval bypassed, kept for
	// the image whose entrypoint runs it (the scan adds them to Agents
	// then); not part of the rules' input.
	Bypass []Agent `json:"-"`
}

// NotAmongRead is EgressScript.NotRead for a firewall script that is not
// among the files the scan read (outside the tree, or at a path no COPY
// shows): what it does is unknown.
const NotAmongRead = "not among the files read"
