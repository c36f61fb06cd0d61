package job

import (
	"context"
	"fmt"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/mallard/mallard/mlops/series"
)

// WriteMatrix writes m as a wide Parquet file at path, for a GAT job: a
// BIGINT time column t (0, 1, ...) and one DOUBLE column per entity,
// named e0, e1, ... It is how tests and the benchmark make their jobs; the
// SQL server exports its sources itself.
func WriteMatrix(ctx context.Context, path string, m series.Matrix) error {
	return writeRows(ctx, path, m.N, allRows(m.T), m.Row)
}

// writeRows writes rows of n values each, row(t) for every t of rows, in
// the order of rows, as a Parquet file at path with a BIGINT column t and
// DOUBLE columns e0, e1, ..., every value exactly.
func writeRows(ctx context.Context, path string, n int, rows []int, row func(int) []float64) error {
	fields := []arrow.Field{{Name: "t", Type: arrow.PrimitiveTypes.Int64}}
	for i := range n {
		fields = append(fields, arrow.Field{Name: fmt.Sprintf("e%d", i), Type: arrow.PrimitiveTypes.Float64})
	}
	w, err := createParquet(path, arrow.NewSchema(fields, nil))
	if err != nil {
		return err
	}
	for _, t := range rows {
		if err := ctx.Err(); err != nil {
			w.abort()
			return err
		}
		w.b.Field(0).(*array.Int64Builder).Append(int64(t))
		for i, v := range row(t) {
			w.b.Field(1 + i).(*array.Float64Builder).Append(v)
		}
		if err := w.endRow(); err != nil {
			w.abort()
			return err
		}
	}
	return w.close()
}

// groupCells is how many values a Parquet file's row group holds, at
// most (rows times columns): what a writer buffers before it writes them
// out, 8 MiB of DOUBLEs.
const groupCells = 1 << 20

// parquetFile writes rows of one schema to a Parquet file through Arrow's
// Parquet writer, one row group of at most groupCells values at a time,
// with Snappy compression (DuckDB's default).
type parquetFile struct {
	path  string
	w     *pqarrow.FileWriter
	b     *array.RecordBuilder
	rows  int // appended to b since the last row group
	group int // rows a row group holds
}

// createParquet creates (or truncates) the file at path for rows of schema.
func createParquet(path string, schema *arrow.Schema) (*parquetFile, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Snappy))
	w, err := pqarrow.NewFileWriter(schema, f, props, pqarrow.DefaultWriterProps())
	if err != nil {
		f.Close()
		os.Remove(path)
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	return &parquetFile{path: path, w: w, b: array.NewRecordBuilder(memory.DefaultAllocator, schema),
		group: max(1, groupCells/schema.NumFields())}, nil
}

// endRow ends the row appended to p.b, writing a row group when one is full.
func (p *parquetFile) endRow() error {
	if p.rows++; p.rows < p.group {
		return nil
	}
	return p.flush()
}

func (p *parquetFile) flush() error {
	if p.rows == 0 {
		return nil
	}
	rec := p.b.NewRecordBatch()
	defer rec.Release()
	p.rows = 0
	if err := p.w.Write(rec); err != nil {
		return fmt.Errorf("write %s: %w", p.path, err)
	}
	return nil
}

// close writes the last row group and the footer, and closes the file.
func (p *parquetFile) close() error {
	defer p.b.Release()
	err := p.flush()
	if cerr := p.w.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("write %s: %w", p.path, cerr)
	}
	if err != nil {
		os.Remove(p.path)
	}
	return err
}

// abort closes and removes the file after a failure.
func (p *parquetFile) abort() {
	p.b.Release()
	_ = p.w.Close()
	os.Remove(p.path)
}

// allRows are 0, 1, ..., n-1.
func allRows(n int) []int {
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	return rows
}
