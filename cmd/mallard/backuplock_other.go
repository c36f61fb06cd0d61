//go:build !(linux || darwin || freebsd)

package main

// lockHolder finds no lock where fcntl's are not read: DuckDB's own
// refusal to open a locked file then says why.
func lockHolder(path string) (int, error) { return 0, nil }

// processRuns reports every process as running where it cannot be
// asked, so that no temporary of another process is removed.
func processRuns(pid int) bool { return true }
