//go:build duckdb_arrow && unix && !linux

package functions

import "syscall"

// stopWithParent does nothing: only Linux stops a child with its parent.
func stopWithParent(*syscall.SysProcAttr) {}
