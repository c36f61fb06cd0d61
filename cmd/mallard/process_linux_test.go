//go:build duckdb_arrow && linux

package main

import (
	"os/exec"
	"syscall"
)

// killWithParent has the kernel kill cmd if the test process dies first
// (a panic skips the cleanups that would): no server outlives its test.
func killWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
