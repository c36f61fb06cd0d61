package storage_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage"
)

// TestOpenRemovesUnfinishedBackups writes the journal a killed process
// leaves (DB.backups, one temporary a line) and opens the database: the
// temporaries it lists and their WALs are gone, a line that names no
// temporary removes nothing, and the journal is gone.
func TestOpenRemovesUnfinishedBackups(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.duckdb")
	tmp := filepath.Join(dir, "out", ".b.duckdb.mallard-backup-123-1")
	kept := filepath.Join(dir, "out", "b.duckdb")
	if err := os.Mkdir(filepath.Join(dir, "out"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{tmp, tmp + ".wal", kept} {
		if err := os.WriteFile(f, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	journal := strings.Join([]string{tmp, kept, "relative/.x.mallard-backup-1-1", ""}, "\n")
	if err := os.WriteFile(path+".backups", []byte(journal), 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := storage.Open(context.Background(), storage.Config{Path: path}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(context.Background())
	for _, f := range []string{tmp, tmp + ".wal", path + ".backups"} {
		if _, err := os.Stat(f); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s is still there after Open (%v)", f, err)
		}
	}
	if _, err := os.Stat(kept); err != nil {
		t.Errorf("Open removed %s, which the journal names but is no temporary: %v", kept, err)
	}
}

// TestBackupTarget resolves names as mallard.backup does: a bare name
// goes to the backup directory (created) with .duckdb added; an
// absolute path stays; other names are 22023, the server's own files
// 42501 naming the path; a bare name without a backup directory 22023.
func TestBackupTarget(t *testing.T) {
	dir := t.TempDir()
	path, backups := filepath.Join(dir, "m.duckdb"), filepath.Join(dir, "bk")
	db, err := storage.Open(context.Background(), storage.Config{Path: path, BackupDir: backups}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(context.Background())
	for _, tt := range []struct{ name, want, code string }{
		{"nightly", filepath.Join(backups, "nightly.duckdb"), ""},
		{"n.duckdb", filepath.Join(backups, "n.duckdb"), ""},
		{"/abs/x.duckdb", "/abs/x.duckdb", ""},
		{"a/b.duckdb", "", "22023"},
		{"..", "", "22023"},
		{"", "", "22023"},
		{path, "", "42501"},
		{path + ".wal", "", "42501"},
		{path + ".spool/x.duckdb", "", "42501"},
		{filepath.Join(dir, "x", "..", "m.duckdb.jobs", "j"), "", "42501"},
	} {
		got, err := db.BackupTarget(tt.name)
		if code := codeOf(err); code != tt.code || got != tt.want && tt.code == "" {
			t.Errorf("BackupTarget(%q) = %q, %v; want %q, code %q", tt.name, got, err, tt.want, tt.code)
		} else if tt.code == "42501" && !strings.Contains(err.Error(), tt.name) {
			t.Errorf("BackupTarget(%q): %v does not name the path", tt.name, err)
		}
	}
	if fi, err := os.Stat(backups); err != nil || !fi.IsDir() {
		t.Errorf("the backup directory was not created: %v", err)
	}
	mem, err := storage.Open(context.Background(), storage.Config{Path: storage.MemoryPath}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close(context.Background())
	if _, err := mem.BackupTarget("nightly"); codeOf(err) != "22023" {
		t.Errorf("a bare name without a backup directory: %v, want 22023", err)
	}
}

// codeOf is err's SQLSTATE, or "" for none.
func codeOf(err error) string {
	var e *sqlstate.Error
	if errors.As(err, &e) {
		return string(e.Code)
	}
	return ""
}
