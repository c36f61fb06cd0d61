package storage

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// memDirPattern names the private directories of in-memory databases.
const memDirPattern = "mallard-mem-*"

// memDirOwner is the file in such a directory that holds its server's pid.
const memDirOwner = "pid"

// makeMemDir creates the private directory of an in-memory database and
// records the server's pid in it. A server killed with SIGKILL cannot
// remove its directory; the next server to start removes it (see
// removeStaleMemDirs).
func makeMemDir(log *slog.Logger) (string, error) {
	removeStaleMemDirs(os.TempDir(), log)
	dir, err := os.MkdirTemp("", memDirPattern)
	if err != nil {
		return "", fmt.Errorf("open in-memory database: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, memDirOwner), []byte(strconv.Itoa(os.Getpid())), 0o600); err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("open in-memory database: %w", err)
	}
	return dir, nil
}

// removeStaleMemDirs removes the in-memory database directories in tmp
// whose server is no longer running. A directory without a readable pid
// (being created this instant, or not Mallard's) is left alone.
func removeStaleMemDirs(tmp string, log *slog.Logger) {
	dirs, _ := filepath.Glob(filepath.Join(tmp, memDirPattern))
	for _, dir := range dirs {
		data, err := os.ReadFile(filepath.Join(dir, memDirOwner))
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
		if err != nil || pid <= 0 || processAlive(pid) {
			continue
		}
		if err := os.RemoveAll(dir); err != nil {
			if log != nil {
				log.Warn("remove a stopped server's in-memory database", "dir", dir, "err", err)
			}
			continue
		}
		if log != nil {
			log.Info("removed a stopped server's in-memory database", "dir", dir, "pid", pid)
		}
	}
}

// processAlive reports whether a process with the given pid exists. When
// in doubt (no permission to signal it) it says yes.
func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, syscall.EPERM)
}
