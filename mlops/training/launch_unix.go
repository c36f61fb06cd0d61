//go:build unix

package training

import (
	"os/exec"
	"syscall"
	"time"
)

// ownGroup starts cmd in a process group of its own, which killGroup ends
// whole: mpirun and the ranks it starts on this host. Where the system
// allows it, cmd is also asked to stop when the server dies without ending
// it (killed, or crashed): mpirun then ends its ranks, and a server that
// restarts marks the run interrupted with no job left running.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stopWithParent(cmd.SysProcAttr)
}

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
