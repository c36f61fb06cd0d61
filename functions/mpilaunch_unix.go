//go:build duckdb_arrow && unix

package functions

import (
	"os/exec"
	"syscall"
	"time"
)

// ownGroup starts cmd in a process group of its own, which killGroup ends
// whole: mpirun and the ranks it starts on this host.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// killGroup asks cmd's process group to stop (mpirun then ends its ranks,
// on every host), and kills what is left of it after a grace period.
func killGroup(cmd *exec.Cmd) {
	pid := cmd.Process.Pid
	syscall.Kill(-pid, syscall.SIGTERM)
	go func() {
		time.Sleep(killGrace)
		syscall.Kill(-pid, syscall.SIGKILL)
	}()
}

// killGrace is how long mpirun has to end its ranks before the group is
// killed.
const killGrace = 2 * time.Second
