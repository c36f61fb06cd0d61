//go:build duckdb_arrow

package functions

import (
	"context"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops/scale"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage/prep"
)

func rescaleFunction() tableFunction {
	return typedFunction("rescale", nil, bindRescale, func(o *rescaleArgs) bool { return o.SaveAs != "" })
}

func unscaleFunction() tableFunction {
	return typedFunction("unscale", nil, bindUnscale, nil)
}

// bindRescale binds a rescale call to package prep's scaling; each run
// fits the scaler, saves it when save_as names it, and streams the rows.
func bindRescale(c *call, o *rescaleArgs) (*table, error) {
	src, err := openSource(c.ctx(), c, "rescale", o.Source)
	if err != nil {
		return nil, err
	}
	s, err := prep.Rescale(src.prep(), o.Columns, o.Time)
	if err != nil {
		return nil, err
	}
	method, _ := scale.ParseMethod(o.Method)
	stats, _ := scale.ParseStats(o.Stats)
	fit := prep.Fit{Method: method, Stats: stats, Fraction: o.TrainFraction}
	if o.SaveAs != "" && strings.TrimSpace(o.SaveAs) == "" {
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "rescale: save_as must name the scaler")
	}
	if err := checkNewName("rescale", "save_as", o.SaveAs); err != nil {
		return nil, err
	}
	return &table{cols: s.Columns(), open: func(ctx context.Context) (*run, error) {
		f, err := s.Fit(ctx, engine{c}, fit)
		if err != nil {
			return nil, err
		}
		if o.SaveAs != "" {
			saved := prep.SavedScaler{Name: o.SaveAs, Scaler: f.Scaler, TimeColumns: f.TimeColumns, TrainFraction: o.TrainFraction,
				TrainRows: f.TrainRows, TotalRows: f.TotalRows, Source: src.text, Fingerprint: f.Fingerprint}
			if err := prep.SaveScaler(ctx, c.db.SQL(), saved); err != nil {
				return nil, err
			}
		}
		return streamScaled(ctx, c, s, f.Scaler)
	}}, nil
}

func bindUnscale(c *call, o *unscaleArgs) (*table, error) {
	scaler, err := loadScaler(c.ctx(), c.db, "unscale", o.Scaler)
	if err != nil {
		return nil, err
	}
	src, err := openSource(c.ctx(), c, "unscale", o.Source)
	if err != nil {
		return nil, err
	}
	s, err := prep.Unscale(src.prep(), o.Scaler, scaler.Columns)
	if err != nil {
		return nil, err
	}
	return &table{cols: s.Columns(), open: func(ctx context.Context) (*run, error) { return streamScaled(ctx, c, s, scaler) }}, nil
}

// streamScaled is the run that writes the source's rows out with the
// scaled columns transformed by scaler.
func streamScaled(ctx context.Context, c *call, s *prep.Scaling, scaler scale.Scaler) (*run, error) {
	rows, err := s.Rows(ctx, engine{c}, scaler)
	if err != nil {
		return nil, err
	}
	return &run{
		fill: func(chunk duckdb.DataChunk) (int, error) {
			b, err := rows.Next()
			if b == nil {
				return 0, err
			}
			return writeScaled(chunk, rows, b)
		},
		close: rows.Close,
	}, nil
}

// writeScaled writes batch b into chunk: each scaled column transformed,
// straight into the chunk's vector, and the others as they are.
func writeScaled(chunk duckdb.DataChunk, rows *prep.Rows, b arrow.RecordBatch) (int, error) {
	w, err := newChunkWriter(chunk, rows.Width())
	if err != nil {
		return 0, err
	}
	n := int(b.NumRows())
	for col := range rows.Width() {
		arr := b.Column(col)
		if !rows.Scaled(col) {
			if err := w.setColumn(col, arr, n); err != nil {
				return 0, err
			}
			continue
		}
		if dst := w.doubles(col, n); dst != nil {
			rows.Scale(col, dst, arr)
			w.setNulls(col, arr, n)
		}
	}
	return n, nil
}
