package job

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"

	"github.com/mallard/mallard/mlops/series"
	"github.com/mallard/mallard/storage"
)

// WriteMatrix writes m as a wide Parquet file at path, for a GAT job: a
// BIGINT time column t (0, 1, ...) and one DOUBLE column per entity,
// named e0, e1, ... It is how tests and the benchmark make their jobs; the
// SQL server exports its sources itself.
func WriteMatrix(ctx context.Context, path string, m series.Matrix) error {
	csv, err := filepath.Abs(path + ".csv")
	if err != nil {
		return err
	}
	if err := writeCSV(csv, m.N, allRows(m.T), m.Row); err != nil {
		return err
	}
	defer os.Remove(csv)
	return WriteQuery(ctx, path, "SELECT * FROM read_csv("+literal(csv)+", header = true)")
}

// WriteQuery writes the result of a DuckDB query as a Parquet file at
// path, for tests and benchmarks, which make their sources with it.
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
	q := "COPY (" + query + ") TO " + literal(abs) + " (FORMAT parquet)"
	if err := conn.Exec(ctx, q); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// writeCSV writes n values a row, row(t) for every t of rows, with a
// header t, e0, e1, ... and each row's t first, every value exactly
// (shortest round-trip form).
func writeCSV(path string, n int, rows []int, row func(int) []float64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	w.WriteString("t")
	for i := range n {
		fmt.Fprintf(w, ",e%d", i)
	}
	w.WriteByte('\n')
	for _, t := range rows {
		w.WriteString(strconv.Itoa(t))
		for _, v := range row(t) {
			w.WriteByte(',')
			w.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
		}
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// allRows are 0, 1, ..., n-1.
func allRows(n int) []int {
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	return rows
}
