//go:build linux || darwin || freebsd

package main

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lockHolder is the process that holds the lock DuckDB takes on a
// database file it opens for writing (an fcntl write lock on the whole
// file), or 0 if none does.
func lockHolder(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	lk := syscall.Flock_t{Type: syscall.F_WRLCK, Whence: 0, Start: 0, Len: 0}
	if err := syscall.FcntlFlock(f.Fd(), syscall.F_GETLK, &lk); err != nil {
		return 0, fmt.Errorf("read the lock of %s: %w", path, err)
	}
	if lk.Type == syscall.F_UNLCK {
		return 0, nil
	}
	return int(lk.Pid), nil
}

// processRuns reports whether a process with id pid exists.
func processRuns(pid int) bool {
	return syscall.Kill(pid, 0) == nil || errors.Is(syscall.Kill(pid, 0), syscall.EPERM)
}
