package job

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"

	"github.com/mallard/mallard/storage"
)

// WriteQuery writes the result of a DuckDB query as a Parquet file at
// path: the tests and benchmarks make their sources with it.
func WriteQuery(ctx context.Context, path, query string) error {
	db, err := storage.Open(ctx, storage.Config{Path: storage.MemoryPath}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		return err
	}
	defer db.Close(context.WithoutCancel(ctx))
	conn, err := db.Connect()
	if err != nil {
		return err
	}
	defer conn.Close()
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	if err := conn.Exec(ctx, "COPY ("+query+") TO "+literal(abs)+" (FORMAT parquet)"); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

func literal(s string) string { return `'` + strings.ReplaceAll(s, `'`, `''`) + `'` }
