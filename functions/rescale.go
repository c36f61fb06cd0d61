//go:build duckdb_arrow

package functions

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops/scale"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage"
)

func rescaleFunction() tableFunction {
	return typedFunction("rescale", nil, bindRescale, func(o *rescaleArgs) bool { return o.SaveAs != "" })
}

func unscaleFunction() tableFunction {
	return typedFunction("unscale", nil, bindUnscale, nil)
}

// scaling is a bound rescale or unscale call: which source columns are
// transformed (by their index in the scaler) and how every column is read.
type scaling struct {
	fn      string
	src     *source
	times   []int
	scaled  map[int]int // source column -> scaler column
	exprs   []string
	orderBy string
}

// outputs describes the output columns and how each source column is read:
// transformed columns as DOUBLE, the others passed through.
func (s *scaling) outputs() ([]duckdb.ColumnInfo, error) {
	cols := make([]duckdb.ColumnInfo, len(s.src.cols))
	s.exprs = make([]string, len(s.src.cols))
	for i, c := range s.src.cols {
		if _, ok := s.scaled[i]; ok {
			s.exprs[i] = asDouble(c.Name, c.Type.ID) + " AS " + ident(c.Name)
			cols[i] = duckdb.ColumnInfo{Name: c.Name, T: doubleType()}
			continue
		}
		expr, t, err := s.src.passThrough(i)
		if err != nil {
			return nil, err
		}
		s.exprs[i], cols[i] = expr, duckdb.ColumnInfo{Name: c.Name, T: t}
	}
	return cols, nil
}

func bindRescale(c *call, o *rescaleArgs) (*table, error) {
	src, err := openSource(c.ctx(), c, "rescale", o.Source)
	if err != nil {
		return nil, err
	}
	s := &scaling{fn: "rescale", src: src}
	if s.times, err = src.timeColumns(o.Time); err != nil {
		return nil, err
	}
	columns, err := s.rescaled(o.Columns)
	if err != nil {
		return nil, err
	}
	s.scaled = map[int]int{}
	names := make([]string, len(columns))
	for k, i := range columns {
		s.scaled[i], names[k] = k, src.cols[i].Name
	}
	if len(s.times) > 0 {
		s.orderBy = " ORDER BY " + src.identList(s.times)
	}
	cols, err := s.outputs()
	if err != nil {
		return nil, err
	}
	method, _ := scale.ParseMethod(o.Method)
	stats, _ := scale.ParseStats(o.Stats)
	fit := fitting{s: s, columns: columns, names: names, method: method, stats: stats,
		fraction: o.TrainFraction, saveAs: o.SaveAs}
	if o.SaveAs != "" && strings.TrimSpace(fit.saveAs) == "" {
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "rescale: save_as must name the scaler")
	}
	if err := checkNewName("rescale", "save_as", fit.saveAs); err != nil {
		return nil, err
	}
	return &table{cols: cols, open: func(ctx context.Context) (*run, error) {
		scaler, err := fit.fit(ctx, c)
		if err != nil {
			return nil, err
		}
		return s.stream(ctx, c, scaler)
	}}, nil
}

// rescaled resolves the columns to rescale: those given, else every
// numeric column that is not a time column.
func (s *scaling) rescaled(given []string) ([]int, error) {
	if given == nil {
		var idx []int
		for i, c := range s.src.cols {
			if isNumeric(c.Type.ID) && !slices.Contains(s.times, i) {
				idx = append(idx, i)
			}
		}
		if len(idx) == 0 {
			return nil, sqlstate.New(sqlstate.InvalidParameterValue, "rescale: the source has no numeric column besides its time columns").
				WithHint("The source has columns %s; name the columns to rescale with columns := [...].", s.src.columnList())
		}
		return idx, nil
	}
	idx := make([]int, 0, len(given))
	for _, name := range given {
		i, err := s.src.column("columns", name)
		if err != nil {
			return nil, err
		}
		c := s.src.cols[i]
		switch {
		case slices.Contains(s.times, i):
			return nil, sqlstate.New(sqlstate.InvalidParameterValue, "rescale: column %s is a time column; time columns are not rescaled", c.Name).
				WithHint("Name the time columns with time := [...] if %s is not one.", c.Name)
		case !isNumeric(c.Type.ID):
			return nil, sqlstate.New(sqlstate.DatatypeMismatch, "rescale: column %s has type %s; only numeric columns can be rescaled", c.Name, c.Type.PGName())
		case slices.Contains(idx, i):
			return nil, sqlstate.New(sqlstate.InvalidParameterValue, "rescale: column %s is named twice in columns", c.Name)
		}
		idx = append(idx, i)
	}
	return idx, nil
}

// fitting is how rescale fits its scaler when it runs.
type fitting struct {
	s        *scaling
	columns  []int
	names    []string
	method   scale.Method
	stats    scale.Stats
	fraction float64
	saveAs   string
}

// fit computes the training statistics (the first train_fraction of the
// rows in time order), fits the scaler and saves it if asked to.
func (f fitting) fit(ctx context.Context, c *call) (scale.Scaler, error) {
	total, err := f.count(ctx, c)
	if err != nil {
		return scale.Scaler{}, err
	}
	train := int64(math.Floor(f.fraction * float64(total)))
	if train < 2 {
		return scale.Scaler{}, sqlstate.New(sqlstate.InvalidParameterValue,
			"rescale: train_fraction := %g of %d rows leaves %d training rows; at least 2 are needed", f.fraction, total, train)
	}
	moments, err := f.moments(ctx, c, train)
	if err != nil {
		return scale.Scaler{}, err
	}
	scaler, err := scale.Fit(f.method, f.stats, f.names, moments)
	if err != nil {
		return scale.Scaler{}, fitError(err)
	}
	if f.saveAs != "" {
		var times []string
		for _, i := range f.s.times {
			times = append(times, f.s.src.cols[i].Name)
		}
		saved := savedScaler{name: f.saveAs, scaler: scaler, timeColumns: times, trainFraction: f.fraction,
			trainRows: train, totalRows: total, source: f.s.src.text, fingerprint: fingerprint(f.s.src, total, moments)}
		if err := saveScaler(ctx, c.db, saved); err != nil {
			return scale.Scaler{}, err
		}
	}
	return scaler, nil
}

func (f fitting) count(ctx context.Context, c *call) (int64, error) {
	vals, err := f.s.row(ctx, c, "SELECT count(*) FROM "+f.s.src.from)
	if err != nil {
		return 0, err
	}
	total := vals[0].(int64)
	if total == 0 {
		return 0, sqlstate.New(sqlstate.DataException, "rescale: source %s has no rows", quote(f.s.src.text))
	}
	return total, nil
}

// moments reads count, mean and population variance of each column's
// (signed-log transformed) finite training values.
func (f fitting) moments(ctx context.Context, c *call, train int64) ([]scale.Moments, error) {
	moments := make([]scale.Moments, len(f.columns))
	if !f.method.Standardizes() {
		return moments, nil
	}
	if len(f.columns) > wideColumns {
		return f.wideMoments(ctx, c, train, moments)
	}
	var inner, aggs []string
	for k, i := range f.columns {
		v := "CAST(" + ident(f.s.src.cols[i].Name) + " AS DOUBLE)"
		if f.method.Transforms() {
			v = signedLogSQL(v)
		}
		inner = append(inner, fmt.Sprintf("CASE WHEN isfinite(%s) THEN %s END AS x%d", v, v, k))
		aggs = append(aggs, fmt.Sprintf("count(x%d), avg(x%d), var_pop(x%d)", k, k, k))
	}
	q := fmt.Sprintf("SELECT %s FROM (SELECT %s FROM %s%s LIMIT %d)",
		strings.Join(aggs, ", "), strings.Join(inner, ", "), f.s.src.from, f.s.orderBy, train)
	vals, err := f.s.row(ctx, c, q)
	if err != nil {
		return nil, err
	}
	for k := range moments {
		moments[k] = momentsOf(vals[3*k], vals[3*k+1], vals[3*k+2])
	}
	return moments, nil
}

// wideColumns is the most columns whose moments one row of aggregates
// computes. DuckDB's planning time grows faster than linearly with the
// aggregates of a statement (a pivot's 1,000 columns took minutes), so
// wider sources are unpivoted and grouped by column instead.
const wideColumns = 32

// wideMoments is moments over the training rows unpivoted: a row per
// column and training row, grouped by the column.
func (f fitting) wideMoments(ctx context.Context, c *call, train int64, moments []scale.Moments) ([]scale.Moments, error) {
	casts, names := make([]string, len(f.columns)), make([]string, len(f.columns))
	for k, i := range f.columns {
		names[k] = fmt.Sprintf("x%d", k)
		casts[k] = asDouble(f.s.src.cols[i].Name, f.s.src.cols[i].Type.ID) + " AS " + names[k]
	}
	v := "mallard_v"
	if f.method.Transforms() {
		v = signedLogSQL(v)
	}
	q := fmt.Sprintf(`SELECT CAST(substr(mallard_c, 2) AS BIGINT), count(x), avg(x), var_pop(x)
FROM (SELECT mallard_c, CASE WHEN isfinite(%s) THEN %s END AS x
      FROM (UNPIVOT (SELECT %s FROM %s%s LIMIT %d) ON %s INTO NAME mallard_c VALUE mallard_v))
GROUP BY mallard_c`, v, v, strings.Join(casts, ", "), f.s.src.from, f.s.orderBy, train, strings.Join(names, ", "))
	r, err := c.read(ctx, q)
	if err != nil {
		return nil, f.s.src.wrap(err)
	}
	defer r.Close()
	for r.Next() {
		b := r.Batch()
		for i := range int(b.NumRows()) {
			k := valueAt(b.Column(0), i).(int64)
			moments[k] = momentsOf(valueAt(b.Column(1), i), valueAt(b.Column(2), i), valueAt(b.Column(3), i))
		}
	}
	return moments, f.s.src.wrap(r.Err())
}

// asDouble is column name of type id read as a DOUBLE: the column itself
// when it is one, which spares DuckDB planning a cast per column of a
// wide source (the values are the same).
func asDouble(name string, id storage.TypeID) string {
	if id == storage.TypeDouble {
		return ident(name)
	}
	return "CAST(" + ident(name) + " AS DOUBLE)"
}

// momentsOf makes count, mean and population variance into Moments; no
// values make zero Moments.
func momentsOf(count, mean, variance any) scale.Moments {
	n := count.(int64)
	if n == 0 {
		return scale.Moments{}
	}
	return scale.Moments{N: n, Mean: mean.(float64), M2: variance.(float64) * float64(n)}
}

// signedLogSQL is scale.SignedLog as a DuckDB expression of v.
func signedLogSQL(v string) string {
	return fmt.Sprintf("CASE WHEN abs(%s) > 1 THEN sign(%s) * (1 + ln(abs(%s))) ELSE %s END", v, v, v, v)
}

func fitError(err error) error {
	var zero *scale.ZeroStdError
	var none *scale.NoDataError
	switch {
	case errors.As(err, &zero):
		return sqlstate.New(sqlstate.DataException, "rescale: %s", err.Error()).
			WithHint("A constant column cannot be standardised; leave it out with columns := [...], or use method := 'signed_log'.")
	case errors.As(err, &none):
		return sqlstate.New(sqlstate.DataException, "rescale: %s", err.Error()).
			WithHint("The training rows (the first train_fraction in time order) hold no finite value there.")
	}
	return err
}

// row runs a one-row query on the source and returns its values.
func (s *scaling) row(ctx context.Context, c *call, q string) ([]any, error) {
	r, err := c.read(ctx, q)
	if err != nil {
		return nil, s.src.wrap(err)
	}
	defer r.Close()
	if !r.Next() {
		return nil, s.src.wrap(r.Err())
	}
	b := r.Batch()
	vals := make([]any, b.NumCols())
	for i := range vals {
		vals[i] = valueAt(b.Column(i), 0)
	}
	return vals, nil
}

// stream reads the source in time order and writes it out with the scaled
// columns transformed by apply.
func (s *scaling) stream(ctx context.Context, c *call, scaler scale.Scaler) (*run, error) {
	r, err := c.read(ctx, "SELECT "+strings.Join(s.exprs, ", ")+" FROM "+s.src.from+s.orderBy)
	if err != nil {
		return nil, s.src.wrap(err)
	}
	apply := scaler.ApplySlice
	if s.fn == "unscale" {
		apply = scaler.InvertSlice
	}
	return &run{
		fill: func(chunk duckdb.DataChunk) (int, error) {
			if !r.Next() {
				return 0, s.src.wrap(r.Err())
			}
			return s.write(chunk, r.Batch(), apply)
		},
		close: func() { _ = r.Close() },
	}, nil
}

// write writes batch b into chunk: each scaled column through apply,
// straight into the chunk's vector, and the others as they are.
func (s *scaling) write(chunk duckdb.DataChunk, b arrow.RecordBatch, apply func(int, []float64, []float64)) (int, error) {
	w, err := newChunkWriter(chunk, len(s.src.cols))
	if err != nil {
		return 0, err
	}
	n := int(b.NumRows())
	for col := range s.src.cols {
		arr := b.Column(col)
		k, scaled := s.scaled[col]
		if !scaled {
			if err := w.setColumn(col, arr, n); err != nil {
				return 0, err
			}
			continue
		}
		if dst := w.doubles(col, n); dst != nil {
			vals, _ := floats(arr)
			apply(k, dst, vals[:n])
			w.setNulls(col, arr, n)
		}
	}
	return n, nil
}

func bindUnscale(c *call, o *unscaleArgs) (*table, error) {
	name := o.Scaler
	scaler, err := loadScaler(c.ctx(), c.db, "unscale", name)
	if err != nil {
		return nil, err
	}
	src, err := openSource(c.ctx(), c, "unscale", o.Source)
	if err != nil {
		return nil, err
	}
	s := &scaling{fn: "unscale", src: src, scaled: map[int]int{}}
	for k, col := range scaler.Columns {
		i, err := src.column("scaler", col)
		if err != nil {
			continue // a source may hold some of the scaler's columns
		}
		if !isNumeric(src.cols[i].Type.ID) {
			return nil, sqlstate.New(sqlstate.DatatypeMismatch, "unscale: column %s has type %s; only numeric columns can be unscaled",
				src.cols[i].Name, src.cols[i].Type.PGName())
		}
		s.scaled[i] = k
	}
	if len(s.scaled) == 0 {
		return nil, sqlstate.New(sqlstate.UndefinedColumn, "unscale: the source has none of scaler %s's columns (%s)",
			quote(name), strings.Join(scaler.Columns, ", ")).WithHint("The source has columns %s.", src.columnList())
	}
	cols, err := s.outputs()
	if err != nil {
		return nil, err
	}
	return &table{cols: cols, open: func(ctx context.Context) (*run, error) { return s.stream(ctx, c, scaler) }}, nil
}
