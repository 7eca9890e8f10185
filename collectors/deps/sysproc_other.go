//go:build !unix

package deps

import (
	"os/exec"
	"syscall"
	"time"
)

func sysProcAttr() *syscall.SysProcAttr { return nil }

// Contain lets go of cmd's pipes a second after its context ends.
func Contain(cmd *exec.Cmd) { cmd.WaitDelay = time.Second }
