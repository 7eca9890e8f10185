package live

import (
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// grace separates the task's own setup (checkout, installs just before
// the task start was recorded) from state left by an earlier task.
const grace = time.Minute

// historyFiles are shell, REPL and agent histories relative to a home.
var historyFiles = []string{
	".bash_history", ".zsh_history", ".histfile", ".sh_history", ".ash_history",
	".local/share/fish/fish_history", ".python_history", ".node_repl_history",
	".psql_history", ".mysql_history", ".sqlite_history", ".lesshst", ".wget-hsts",
	".claude/projects", ".claude/history.jsonl", ".codex/history.jsonl", ".codex/sessions", ".gemini/tmp",
}

// cacheDirs are package and build caches relative to a home; one filled
// by an earlier task can carry poisoned artefacts into this one.
var cacheDirs = []string{
	".cache", "go/pkg/mod", ".npm/_cacache", ".m2/repository", ".gradle/caches", ".cargo/registry",
	".pnpm-store", ".local/share/pnpm", ".yarn/berry/cache", ".nuget/packages", ".bun/install/cache",
}

// reuse gathers the signs that the environment predates the task or
// will outlive it. The old-file walk goes on in the background; the
// returned channel (nil when there is no walk) closes when it is done.
func (c *collector) reuse() <-chan struct{} {
	r := &c.live.Reuse
	var uptime time.Duration
	if data, err := c.fs.readFile("/proc/uptime"); err != nil {
		c.miss("reuse", "/proc/uptime", err)
	} else if f := strings.Fields(string(data)); len(f) > 0 {
		if s, err := strconv.ParseFloat(f[0], 64); err == nil {
			uptime = time.Duration(s * float64(time.Second))
			r.UptimeSeconds = int64(s)
		}
	}
	if data, err := c.fs.readFile("/proc/sys/kernel/random/boot_id"); err != nil {
		c.miss("reuse", "/proc/sys/kernel/random/boot_id", err)
	} else {
		r.BootID = strings.TrimSpace(string(data))
	}
	boot, haveBoot := c.bootTime(uptime)
	var envStart, task time.Time
	if haveBoot {
		r.BootedAt = boot.Format(time.RFC3339)
		envStart = boot
		// In a container the environment began with its PID 1, not the boot.
		if c.hasLayer("container") {
			if st, ok := c.readStat("1"); ok {
				envStart = boot.Add(st.start).Truncate(time.Second)
			} else {
				c.unavailable("reuse", "/proc/1/stat: cannot tell when the container started")
			}
		}
		r.EnvStartedAt = envStart.Format(time.RFC3339)
	}
	switch {
	case !c.opt.TaskStarted.IsZero():
		task, r.TaskSource = c.opt.TaskStarted.UTC().Truncate(time.Second), "option"
	case haveBoot:
		if d, ok := c.sessionStart(); ok {
			task, r.TaskSource = boot.Add(d).Truncate(time.Second), "process-tree"
		}
	}
	if task.IsZero() {
		c.unavailable("reuse", "task start unknown (no --task-started, no process tree): old files not judged")
	} else {
		r.TaskStarted = task.Format(time.RFC3339)
		if !envStart.IsZero() && task.After(envStart) {
			r.EnvAgeAtTaskSeconds = int64(task.Sub(envStart).Seconds())
		}
	}
	// before tells state written inside this environment before the task;
	// files older than the environment came with the image.
	before := func(t time.Time) bool {
		return !task.IsZero() && t.Before(task.Add(-grace)) && (envStart.IsZero() || !t.Before(envStart))
	}
	for _, h := range c.homeDirs() {
		r.History = append(r.History, c.reuseFiles(h, historyFiles, before)...)
		r.Caches = append(r.Caches, c.reuseFiles(h, cacheDirs, before)...)
	}
	c.persistentMounts()
	if task.IsZero() {
		return nil
	}
	// The walk is the slowest passive check: it runs while the other
	// checks read their files, and only touches its own Reuse fields.
	done := make(chan struct{})
	go func() { defer close(done); c.oldFiles(before) }()
	return done
}

func (c *collector) hasLayer(k string) bool {
	for _, l := range c.live.Isolation.Layers {
		if l == k {
			return true
		}
	}
	return false
}

// reuseFiles stats each path under home; directories count their entries.
func (c *collector) reuseFiles(home string, rels []string, before func(time.Time) bool) []model.ReuseFile {
	var out []model.ReuseFile
	for _, rel := range rels {
		p := path.Join(home, rel)
		fi, err := c.fs.lstat(p)
		if err != nil {
			continue
		}
		size := fi.Size()
		if fi.IsDir() {
			ents, err := c.fs.readDir(p)
			if err != nil || len(ents) == 0 {
				continue
			}
			size = int64(len(ents))
		} else if size == 0 {
			continue
		}
		out = append(out, model.ReuseFile{Path: p, Size: size, Modified: fi.ModTime().UTC().Format(time.RFC3339), BeforeTask: before(fi.ModTime())})
	}
	return out
}

// persistentMounts lists disk-backed mounts over, under or above a home
// or workspace directory ("/" excepted: a VM's own disk says nothing).
func (c *collector) persistentMounts() {
	dirs := append(c.homeDirs(), c.workspaces()...)
	within := func(a, b string) bool { return a == b || strings.HasPrefix(a, strings.TrimSuffix(b, "/")+"/") }
	for _, m := range c.mnts {
		if m.target == "/" || !isPersistent(m.fstype) || socketKind(m.target) != "" || hostShare(c.why(m, true)) {
			continue // sockets and host shares are reported as sensitive mounts
		}
		for _, d := range dirs {
			if within(m.target, d) || within(d, m.target) {
				c.live.Reuse.PersistentMounts = append(c.live.Reuse.PersistentMounts, toMount(m, []string{"home-or-workspace"}))
				break
			}
		}
	}
	sort.SliceStable(c.live.Reuse.PersistentMounts, func(i, j int) bool {
		return c.live.Reuse.PersistentMounts[i].Target < c.live.Reuse.PersistentMounts[j].Target
	})
}

// hostShare: a host home, credentials directory or root shared in.
func hostShare(why []string) bool {
	for _, w := range why {
		if w == "host-home" || w == "credentials-dir" || w == "host-root" {
			return true
		}
	}
	return false
}

// clockTicks is USER_HZ, the unit of /proc/<pid>/stat start times; Linux
// fixes it at 100 on every architecture the audit runs on.
const clockTicks = 100

// procStat is the part of /proc/<pid>/stat the audit uses.
type procStat struct {
	pid, ppid int
	start     time.Duration // since boot
}

// readStat parses /proc/<pid>/stat; comm may hold spaces and parentheses,
// so fields are counted from the last ')'.
func (c *collector) readStat(pid string) (procStat, bool) {
	data, err := c.fs.readFile("/proc/" + pid + "/stat")
	if err != nil {
		return procStat{}, false
	}
	s := string(data)
	end := strings.LastIndex(s, ")")
	if end < 0 {
		return procStat{}, false
	}
	head := strings.Fields(s[:end])
	f := strings.Fields(s[end+1:])
	if len(head) < 1 || len(f) < 20 {
		return procStat{}, false
	}
	var st procStat
	st.pid, _ = strconv.Atoi(head[0])
	st.ppid, _ = strconv.Atoi(f[1])
	ticks, err := strconv.ParseInt(f[19], 10, 64)
	if err != nil {
		return procStat{}, false
	}
	st.start = time.Duration(ticks) * time.Second / clockTicks
	return st, true
}

// bootTime is btime from /proc/stat, else now − uptime.
func (c *collector) bootTime(uptime time.Duration) (time.Time, bool) {
	if data, err := c.fs.readFile("/proc/stat"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if v, ok := strings.CutPrefix(line, "btime "); ok {
				if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
					return time.Unix(n, 0).UTC(), true
				}
			}
		}
	}
	if uptime > 0 {
		return c.now.Add(-uptime).Round(time.Second).UTC(), true
	}
	return time.Time{}, false
}

// sessionStart guesses the task start from the process tree: the start of
// the top-most ancestor below PID 1, i.e. the session the audit runs in.
func (c *collector) sessionStart() (time.Duration, bool) {
	st, ok := c.readStat("self")
	if !ok {
		return 0, false
	}
	for i := 0; i < 64 && st.ppid > 1; i++ {
		parent, ok := c.readStat(strconv.Itoa(st.ppid))
		if !ok {
			break
		}
		st = parent
	}
	return st.start, true
}
