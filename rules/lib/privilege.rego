# Package lib.privilege judges what a user in the sandbox can become: which
# sudoers grants are root-equivalent, which reach the packet filter, and
# whether the user the agent runs as can undo a control set up inside the
# container (a firewall script). It is a library, not a rule.
package lib.privilege

# Commands that, run as root, give a root shell or write any file: shells
# and interpreters, editors and pagers with shell escapes, package managers
# (their install scripts run as root), file copiers and writers, container
# runtimes, account and service managers. From GTFOBins' sudo list, kept to
# the unambiguous ones.
root_commands := {
	"sh", "bash", "zsh", "dash", "ksh", "fish", "csh", "tcsh", "ash", "busybox",
	"su", "sudo", "doas", "env", "xargs", "find", "nice", "timeout", "nohup", "setsid", "stdbuf", "strace", "gdb", "script",
	"python", "python2", "python3", "perl", "ruby", "node", "nodejs", "deno", "bun", "php", "lua", "awk", "gawk", "mawk", "tclsh", "expect",
	"vi", "vim", "nvim", "nano", "emacs", "less", "more", "man", "ed",
	"apt", "apt-get", "dpkg", "yum", "dnf", "rpm", "apk", "pacman", "zypper", "pip", "pip3", "npm", "npx", "yarn", "pnpm", "gem", "cargo", "go", "make",
	"cp", "mv", "tee", "dd", "install", "ln", "chmod", "chown", "chgrp", "rsync", "tar", "zip", "unzip", "sed", "truncate",
	"docker", "podman", "nerdctl", "ctr", "crictl", "kubectl", "systemctl", "service", "mount", "umount", "chroot", "nsenter", "unshare",
	"usermod", "useradd", "adduser", "passwd", "chpasswd", "visudo", "groupmod", "gpasswd", "crontab", "git", "ssh",
}

# Commands that rewrite the packet filter or the routes it relies on.
# root_filter_commands are the packet-filter and network commands that run
# a program of the caller's choice, and how.
root_filter_commands := {
	"iptables": "iptables --modprobe=PROGRAM runs it", "ip6tables": "ip6tables --modprobe=PROGRAM runs it",
	"iptables-legacy": "--modprobe=PROGRAM runs it", "ip6tables-legacy": "--modprobe=PROGRAM runs it",
	"iptables-nft": "--modprobe=PROGRAM runs it", "ip6tables-nft": "--modprobe=PROGRAM runs it",
	"ip": "ip netns exec runs any command",
	"sysctl": "kernel.core_pattern or kernel.modprobe names a program the kernel runs",
}

firewall_commands := {
	"iptables", "ip6tables", "iptables-legacy", "ip6tables-legacy", "iptables-nft", "ip6tables-nft",
	"iptables-restore", "ip6tables-restore", "nft", "ipset", "ufw", "ip", "tc", "sysctl", "firewall-cmd", "route",
}

# Where a user of the sandbox can write: a sudoers grant for a script there
# is a grant for whatever the agent writes into it.
writable_prefixes := ["/workspace", "/workspaces/", "/tmp/", "/var/tmp/", "/home/", "/dev/shm/", "~", "./", "../"]

# command_base is the program of one sudoers command: "/usr/bin/apt-get
# install *" is apt-get.
command_base(c) := b if {
	first := split(trim_space(c), " ")[0]
	parts := split(first, "/")
	b := parts[count(parts) - 1]
}

# runs_as_root: the grant lets the user act as root (sudo's default target).
runs_as_root(g) if object.get(g, "run_as", "") == ""

runs_as_root(g) if {
	ra := trim(object.get(g, "run_as", ""), "()")
	target := split(ra, ":")[0]
	target in {"", "ALL", "root", "0"}
}

# passwordless(g): NOPASSWD, so an agent that does not know a password can use it.
passwordless(g) if object.get(g, "nopasswd", false) == true

# root_equivalent(g) is the reason a passwordless grant makes its user
# root; undefined when it does not.
root_equivalent(g) := "every command" if {
	passwordless(g)
	runs_as_root(g)
	some c in object.get(g, "commands", [])
	trim_space(c) == "ALL"
}

else := sprintf("%s with any environment it chooses (SETENV: LD_PRELOAD, BASH_ENV)", [min(cs)]) if {
	passwordless(g)
	runs_as_root(g)
	object.get(g, "setenv", false) == true
	cs := {c | some c in object.get(g, "commands", [])}
	count(cs) > 0
}

else := sprintf("%s, which runs any program as root (%s)", [min(cs), root_filter_commands[command_base(min(cs))]]) if {
	passwordless(g)
	runs_as_root(g)
	cs := {c | some c in object.get(g, "commands", []); root_filter_commands[command_base(c)]}
	count(cs) > 0
}

else := sprintf("%s, which runs anything as root", [min(cs)]) if {
	passwordless(g)
	runs_as_root(g)
	cs := {c | some c in object.get(g, "commands", []); command_base(c) in root_commands; not _init_script(c)}
	count(cs) > 0
}

else := sprintf("%s, which runs the command it is given (%s:%d)", [g.runs_args.command, g.runs_args.file, g.runs_args.line]) if {
	passwordless(g)
	runs_as_root(g)
	object.get(g, "runs_args", null) != null
}

else := sprintf("%s, a file the agent can write", [min(cs)]) if {
	passwordless(g)
	runs_as_root(g)
	cs := {c |
		some c in object.get(g, "commands", [])
		some p in writable_prefixes
		startswith(trim_space(c), p)
	}
	count(cs) > 0
}

# _init_script(c): the command is a service's init script (/etc/init.d/ssh
# start), root's own file, named like its daemon: not the program of that
# name (the ssh client runs a ProxyCommand, the init script starts sshd).
_init_script(c) if startswith(trim_space(c), "/etc/init.d/")

_init_script(c) if startswith(trim_space(c), "/etc/rc.d/")

# firewall_grant(g) is the packet-filter command a passwordless grant runs
# as root (the first, when it names several); undefined when it runs none.
firewall_grant(g) := min(cs) if {
	passwordless(g)
	runs_as_root(g)
	cs := {c | some c in object.get(g, "commands", []); command_base(c) in firewall_commands}
	count(cs) > 0
}

# runtime_user(w) is the user the workload's processes run as: the one the
# configuration sets, else the one its image ends with; undefined when
# neither is known.
runtime_user(w) := trim_space(w.user.value) if {
	trim_space(object.get(w, ["user", "value"], "")) != ""
	not contains(w.user.value, "${")
} else := trim_space(w.image_user.value) if {
	trim_space(object.get(w, ["image_user", "value"], "")) != ""
} else := trim_space(w.user.value) if {
	trim_space(object.get(w, ["user", "value"], "")) != ""
}

root_user(u) if split(u, ":")[0] in {"root", "0"}

non_root(w) if {
	u := runtime_user(w)
	not root_user(u)
}

has_cap(w, cap) if {
	some c in object.get(w, "cap_add", [])
	trim_prefix(upper(trim_space(c.value)), "CAP_") in {cap, "ALL"}
}

# undo(w) says how the agent can rewrite the firewall a script set up in
# workload w; undefined when nothing shows it can. The script needs
# NET_ADMIN, so the container holds it; only root (or a user who can become
# root, or run the filter commands as root) can use it.
undo(w) := {"how": "the container is privileged", "loc": w.privileged} if {
	object.get(w, ["privileged", "value"], false) == true
} else := {"how": sprintf("it runs as %s with NET_ADMIN", [runtime_user(w)]), "loc": w} if {
	root_user(runtime_user(w))
	has_cap(w, "NET_ADMIN")
} else := sudo_undo(w)[0] if {
	count(sudo_undo(w)) > 0
} else := grant_undo(w)[0] if {
	count(grant_undo(w)) > 0
} else := input_undo(w)[0] if {
	count(input_undo(w)) > 0
}

# input_undo lists the files a firewall script the agent may rerun as root
# (a passwordless grant for the script itself, as the reference devcontainer
# gives) reads its hosts or settings from, when the agent can write them.
input_undo(w) := [{"how": sprintf("%s can run sudo %s without a password, and the script reads %s, which the agent can write: it adds its own hosts and runs the script again", [runtime_user_or(w), c, r.value]), "loc": r} |
	script := object.get(w, ["egress", "script"], {})
	runs := object.get(script, "runs", "")
	runs != ""
	some g in object.get(w, "sudo", [])
	passwordless(g)
	runs_as_root(g)
	some c in object.get(g, "commands", [])
	command_base(c) == command_base(runs)
	some r in object.get(script, ["rules", "reads"], [])
	_agent_writable(r.value)
]

_agent_writable(p) if {
	some prefix in writable_prefixes
	startswith(p, prefix)
}

# sudo_undo and grant_undo list every grant that undoes the firewall, in
# the order written: a workload often holds several (sudo for docker,
# groupmod and usermod), and undo names the first.
sudo_undo(w) := [{"how": sprintf("%s can run sudo without a password for %s", [runtime_user_or(w), why]), "loc": g} |
	some g in object.get(w, "sudo", [])
	why := root_equivalent(g)
]

grant_undo(w) := [{"how": sprintf("%s can run sudo %s without a password", [runtime_user_or(w), c]), "loc": g} |
	some g in object.get(w, "sudo", [])
	c := firewall_grant(g)
]

runtime_user_or(w) := u if {
	u := runtime_user(w)
} else := "the user it runs as"

# caps_unusable(w): the capabilities the workload adds are of no use to
# the agent: it runs as a known non-root user (whose processes hold none of
# them) and nothing raises it to root or lets it program the packet filter
# itself (privileged, sudo, a grant of iptables). A firewall script the
# agent may rerun as root with hosts it writes (input_undo) changes what
# the script allows, not what the agent's own processes may do:
# egress-firewall-undoable reports that.
caps_unusable(w) if {
	non_root(w)
	not object.get(w, ["privileged", "value"], false) == true
	count(sudo_undo(w)) == 0
	count(grant_undo(w)) == 0
}

# script_powerless(w): the workload's firewall script runs as a known
# non-root user, neither the command nor the script raising it with sudo:
# a non-root user cannot program the packet filter, so the rules never apply.
script_powerless(w) if {
	eg := object.get(w, "egress", {})
	object.get(eg, "script_unverified", false) == true
	object.get(eg, ["script", "path"], "") != ""
	not object.get(eg, ["script", "sudo"], false) == true
	not object.get(eg, ["script", "rules", "sudo"], false) == true
	not object.get(eg, ["script", "phase"], "") == "build"
	non_root(w)
}
