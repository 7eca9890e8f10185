//go:build !unix

package deps

import "syscall"

func sysProcAttr() *syscall.SysProcAttr { return nil }
