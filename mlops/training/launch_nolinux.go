//go:build unix && !linux

package training

import "syscall"

// stopWithParent does nothing: only Linux stops a child with its parent.
func stopWithParent(*syscall.SysProcAttr) {}
