package training

import "syscall"

// stopWithParent has the child sent SIGTERM when the server dies. (Linux
// sends it when the thread that started the child ends; Go ends no
// thread that a goroutine has not locked.)
func stopWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGTERM }
