//go:build unix

package deps

import "syscall"

// sysProcAttr starts git in a session of its own: it has no controlling
// terminal to read from (an include.path of /dev/tty) or to be stopped by.
func sysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
