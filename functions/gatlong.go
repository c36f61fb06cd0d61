//go:build duckdb_arrow

package functions

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/mallard/mallard/mlops/scale"
	"github.com/mallard/mallard/mlops/series"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage/prep"
)

// long is a long source train_gat reads without a wide pivot: one row per
// entity and time, the entity, time and value columns named.
type long struct {
	from   string // the long source's FROM item
	entity string // the entity column, quoted
	value  string // the value column, quoted
	times  string // the time columns, quoted, comma-separated
	names  []string
}

// openLong binds a long source: the entity, the value and the time
// columns (time := [...] or those found as for a wide source), and the
// entities, in the order pivot_entity_time gives them columns. The wide
// it returns reads the distinct times as its source, so that its time
// rows, row count and time columns are the pivot's.
func openLong(c *call, fn string, o *trainGATArgs) (*wide, error) {
	src, err := openSource(c.ctx(), c, fn, o.Source)
	if err != nil {
		return nil, err
	}
	ei, err := src.column("entity", o.Entity)
	if err != nil {
		return nil, err
	}
	if o.Value == "" {
		return nil, sqlstate.New(sqlstate.UndefinedFunction, "%s: entity := %s makes the source long, so argument value is required", fn, quote(o.Entity)).
			WithHint("Name the column of the values: value := 'units'. The source has columns %s.", src.columnList())
	}
	vi, err := src.column("value", o.Value)
	if err != nil {
		return nil, err
	}
	if !isNumeric(src.cols[vi].Type.ID) {
		return nil, sqlstate.New(sqlstate.DatatypeMismatch, "%s: value := %s has type %s; the values must be numeric", fn, quote(src.cols[vi].Name), src.cols[vi].Type.PGName())
	}
	times, err := src.timeColumns(o.Time)
	if err != nil {
		return nil, err
	}
	times = slices.DeleteFunc(times, func(i int) bool { return i == ei || i == vi })
	if len(times) == 0 {
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: the long source has no time column", fn).
			WithHint("Name them with time := [...]; the source has columns %s.", src.columnList())
	}
	l := &long{from: src.from, entity: ident(src.cols[ei].Name), value: ident(src.cols[vi].Name), times: src.identList(times)}
	if l.names, err = l.entities(c.ctx(), c, src); err != nil {
		return nil, err
	}
	if len(l.names) < 2 {
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: the source has %d entities; a graph needs at least 2", fn, len(l.names))
	}
	tsrc, err := openSource(c.ctx(), c, fn, "SELECT DISTINCT "+l.times+" FROM "+l.from)
	if err != nil {
		return nil, err
	}
	tsrc.text = o.Source
	w := &wide{src: tsrc, long: l, entities: make([]int, len(l.names))}
	for i := range tsrc.cols {
		w.times = append(w.times, i)
	}
	w.orderBy = " ORDER BY " + tsrc.identList(w.times)
	return w, nil
}

// entities are the distinct entities as text, ordered as pivot_entity_time
// orders its columns; a NULL entity is an error.
func (l *long) entities(ctx context.Context, c *call, src *source) ([]string, error) {
	r, err := c.read(ctx, fmt.Sprintf("SELECT CAST(e AS VARCHAR) FROM (SELECT DISTINCT %s AS e FROM %s) ORDER BY e NULLS FIRST", l.entity, l.from))
	if err != nil {
		return nil, src.wrap(err)
	}
	defer r.Close()
	var names []string
	for r.Next() {
		col := r.Batch().Column(0)
		for i := range col.Len() {
			if col.IsNull(i) {
				return nil, sqlstate.New(sqlstate.NullValueNotAllowed, "%s: the entity column has a NULL", src.fn).WithHint("Leave those rows out of the source.")
			}
			names = append(names, strings.Clone(col.(*array.String).Value(i))) // the batch's memory is reused
		}
	}
	return names, src.wrap(r.Err())
}

// matrix reads the long rows into a time x entity matrix; a cell missing,
// given twice, NULL or not finite is an error.
func (l *long) matrix(ctx context.Context, c *call, w *wide) (series.Matrix, error) {
	q := fmt.Sprintf(`SELECT CAST(dense_rank() OVER (ORDER BY %s) - 1 AS BIGINT), CAST(dense_rank() OVER (ORDER BY %s) - 1 AS BIGINT),
		CAST(%s AS DOUBLE) FROM %s`, l.times, l.entity, l.value, l.from)
	r, err := c.read(ctx, q)
	if err != nil {
		return series.Matrix{}, w.src.wrap(err)
	}
	defer r.Close()
	n := len(l.names)
	var vals []float64
	var seen []bool
	for r.Next() {
		b := r.Batch()
		ts, es := b.Column(0).(*array.Int64), b.Column(1).(*array.Int64)
		v, valid := floats(b.Column(2))
		for row := range int(b.NumRows()) {
			t, e := int(ts.Value(row)), int(es.Value(row))
			if need := (t + 1) * n; need > len(vals) {
				vals, seen = slices.Grow(vals, need-len(vals))[:need], slices.Grow(seen, need-len(seen))[:need]
			}
			switch at := t*n + e; {
			case !valid(row) || math.IsNaN(v[row]) || math.IsInf(v[row], 0):
				return series.Matrix{}, l.cellError(w, "a NULL or non-finite value", t, e)
			case seen[at]:
				return series.Matrix{}, l.cellError(w, "two rows", t, e)
			default:
				vals[at], seen[at] = v[row], true
			}
		}
	}
	if err := r.Err(); err != nil {
		return series.Matrix{}, w.src.wrap(err)
	}
	if at := slices.Index(seen, false); at >= 0 {
		return series.Matrix{}, l.cellError(w, "no row", at/n, at%n)
	}
	return series.Matrix{T: len(vals) / n, N: n, Values: vals}, nil
}

// cellError is the error of the cell of entity e at the t-th time.
func (l *long) cellError(w *wide, what string, t, e int) error {
	return sqlstate.New(sqlstate.InvalidParameterValue, "%s: entity %s has %s at the %d-th time (in time order)", w.src.fn, quote(l.names[e]), what, t+1).
		WithHint("Train on one value per entity and time: pivot_entity_time(..., missing := 'ffill') fills gaps and aggregates duplicates.")
}

// rescale transforms every entity's values in place as rescale(...,
// stats := 'per_column') does: the signed logarithm, then the z-score
// with the mean and standard deviation of the entity's first
// floor(fraction x rows) rows. It returns the scaler.
func (l *long) rescale(m series.Matrix, fraction float64, fn string) (scale.Scaler, error) {
	train := int(math.Floor(fraction * float64(m.T)))
	if train < 2 {
		return scale.Scaler{}, sqlstate.New(sqlstate.InvalidParameterValue, "%s: train_fraction := %g of %d times leaves %d training rows to rescale by; at least 2 are needed",
			fn, fraction, m.T, train)
	}
	moments := make([]scale.Moments, m.N)
	for t := range train {
		for i, v := range m.Row(t) {
			moments[i].Add(scale.SignedLog(v))
		}
	}
	s, err := scale.Fit(scale.SignedLogZScore, scale.PerColumn, l.names, moments)
	if err != nil {
		return scale.Scaler{}, sqlstate.New(sqlstate.DataException, "%s: rescaling entity by entity: %v", fn, err).
			WithHint("An entity constant over its training rows (the first train_fraction of the times) cannot be standardised; leave it out of the source.")
	}
	for k, v := range m.Values {
		m.Values[k] = s.Apply(k%m.N, v)
	}
	return s, nil
}

// longScalerName is the name the scaler of a model trained on a long
// source is saved under: the model's and its data's fingerprint, so that
// versions trained on other data keep theirs.
func longScalerName(model, fingerprint string) string {
	_, hex, _ := strings.Cut(fingerprint, ":")
	if hex == "" {
		hex = fingerprint
	}
	return model + "@" + hex[:min(12, len(hex))]
}

// rescaleLong rescales a long source's matrix in place per entity and
// links the job to the scaler (see long.rescale).
func (j *gatJob) rescaleLong(m series.Matrix) error {
	s, err := j.w.long.rescale(m, j.cfg.TrainFraction, trainGATName)
	if err != nil {
		return err
	}
	j.link = &scaleLink{scaler: s, column: make([]int, m.N)}
	for i := range j.link.column {
		j.link.column[i] = i
	}
	return nil
}

// saveLongScaler saves the scaler of a long source under the model's name
// and the data's fingerprint fp, for the version to link.
func (j *gatJob) saveLongScaler(ctx context.Context, fp string) error {
	j.scaler = longScalerName(j.name, fp)
	train := int64(math.Floor(j.cfg.TrainFraction * float64(len(j.timeRows))))
	return prep.SaveScaler(ctx, j.c.db.SQL(), prep.SavedScaler{Name: j.scaler, Scaler: j.link.scaler, TimeColumns: j.w.timeNames(),
		TrainFraction: j.cfg.TrainFraction, TrainRows: train, TotalRows: int64(len(j.timeRows)), Source: j.w.src.text, Fingerprint: fp})
}
