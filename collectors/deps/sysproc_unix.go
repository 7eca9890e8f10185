//go:build unix

package deps

import (
	"os/exec"
	"syscall"
	"time"
)

// sysProcAttr starts git in a session of its own: it has no controlling
// terminal to read from (an include.path of /dev/tty) or to be stopped by.
func sysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// Contain runs cmd in a session of its own and, when its context ends,
// kills the whole process group, then lets go of its pipes a second later:
// killing git alone leaves the helpers it started (git-remote-http waiting
// on a server that never answers) holding stderr, and Wait with them.
func Contain(cmd *exec.Cmd) {
	cmd.SysProcAttr = sysProcAttr()
	cmd.Cancel = func() error {
		// The session leader's process group has its pid.
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	cmd.WaitDelay = time.Second
}
