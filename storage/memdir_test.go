package storage_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/mallard/mallard/storage"
)

// TestStaleMemoryDirsRemoved: opening an in-memory database removes the
// directories that killed servers left behind, and only those: a running
// server's directory and one without a pid stay.
func TestStaleMemoryDirsRemoved(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	dirs := map[string]string{ // name → pid file content ("" for none)
		"mallard-mem-killed":  strconv.Itoa(gone.Process.Pid),
		"mallard-mem-running": strconv.Itoa(os.Getpid()),
		"mallard-mem-nopid":   "",
	}
	for name, pid := range dirs {
		dir := filepath.Join(tmp, name)
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "memory.duckdb"), []byte("x"), 0o600)
		if pid != "" {
			os.WriteFile(filepath.Join(dir, "pid"), []byte(pid), 0o600)
		}
	}
	ctx := context.Background()
	db, err := storage.Open(ctx, storage.Config{Path: storage.MemoryPath}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"mallard-mem-killed": false, "mallard-mem-running": true, "mallard-mem-nopid": true} {
		if _, err := os.Stat(filepath.Join(tmp, name)); (err == nil) != want {
			t.Errorf("%s exists: %v, want %v", name, err == nil, want)
		}
	}
	own, _ := filepath.Glob(filepath.Join(tmp, "mallard-mem-*", "pid"))
	if len(own) != 2 { // the running one's and the new database's
		t.Errorf("pid files %v, want the running directory's and the new one's", own)
	}
	if err := db.Close(ctx); err != nil {
		t.Fatal(err)
	}
	left, _ := filepath.Glob(filepath.Join(tmp, "mallard-mem-*"))
	if len(left) != 2 {
		t.Errorf("after Close: %v, want the running and the pid-less directories", left)
	}
}
