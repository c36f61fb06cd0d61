//go:build duckdb_arrow

package functions

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/sqlstate"
)

// read reads the source's rows as Arrow batches into a clsData, after
// reserving memory for them in the server's budget. The query has no
// ORDER BY: rows come in the table's order (DuckDB keeps insertion
// order), which the seeded split and batch order then follow.
func (j *clsJob) read(ctx context.Context, mem reserver) (clsData, error) {
	n, err := j.count(ctx)
	if err != nil {
		return clsData{}, err
	}
	if n == 0 {
		return clsData{}, sqlstate.New(sqlstate.DataException, "%s: source %s has no rows", j.spec.fn, quote(j.src.text))
	}
	if err := j.reserve(ctx, mem, n); err != nil {
		return clsData{}, err
	}
	targetType := "VARCHAR"
	if j.spec.regression {
		targetType = "DOUBLE"
	}
	exprs := []string{fmt.Sprintf("CAST(%s AS %s)", ident(j.cols.Target), targetType)}
	if j.cols.Split != "" {
		exprs = append(exprs, fmt.Sprintf("CAST(%s AS VARCHAR)", ident(j.cols.Split)))
	}
	app := &featureAppender{fn: j.spec.fn, cols: j.cols, first: len(exprs)}
	rd, err := j.c.read(ctx, "SELECT "+strings.Join(append(exprs, j.cols.selectList()...), ", ")+" FROM "+j.src.from)
	if err != nil {
		return clsData{}, j.src.wrap(err)
	}
	defer rd.Close()
	d := clsData{table: newFeatureTable(j.cols)}
	for rd.Next() {
		b := rd.Batch()
		if err := j.appendTargets(&d, b, app.rows); err != nil {
			return clsData{}, err
		}
		if err := app.append(d.table, b); err != nil {
			return clsData{}, err
		}
	}
	if err := rd.Err(); err != nil {
		return clsData{}, j.src.wrap(err)
	}
	return d, j.checkCategories(&d)
}

// reserver takes n bytes of the server's memory budget for what, until
// its holder gives them back (a training run's training.Memory, or
// feature_importance's heldBudget).
type reserver interface {
	Reserve(ctx context.Context, n int64, what string) error
}

// count is the number of rows of the source.
func (j *clsJob) count(ctx context.Context) (int64, error) {
	rd, err := j.c.read(ctx, "SELECT count(*) FROM "+j.src.from)
	if err != nil {
		return 0, j.src.wrap(err)
	}
	defer rd.Close()
	var n int64
	for rd.Next() {
		if b := rd.Batch(); b.NumRows() > 0 {
			n = b.Column(0).(*array.Int64).Value(0)
		}
	}
	return n, j.src.wrap(rd.Err())
}

// reserve takes the memory n rows of features take in the server's
// budget, three times over: as read, as split and as the model's input.
func (j *clsJob) reserve(ctx context.Context, mem reserver, n int64) error {
	width := int64(len(j.cols.Features))
	if s := j.cols.Shape; s != nil {
		width = int64(s[0] * s[1] * s[2])
	}
	return mem.Reserve(ctx, 3*8*n*(width+1), fmt.Sprintf("%s's rows (%d x %d values)", j.spec.fn, n, width))
}

// appendTargets adds the target (and split) columns of batch b, whose
// first row is row first of the source, to d: NULL is an error naming the
// row, as is a split value other than train, validation or test.
func (j *clsJob) appendTargets(d *clsData, b arrow.RecordBatch, first int) error {
	n := int(b.NumRows())
	if j.spec.regression {
		vals, valid := floats(b.Column(0))
		for r := range n {
			if !valid(r) || math.IsNaN(vals[r]) || math.IsInf(vals[r], 0) {
				return j.nullTarget(first + r + 1)
			}
			d.values = append(d.values, vals[r])
		}
	} else {
		labels := b.Column(0)
		texts := textValues(labels)
		for r := range n {
			if labels.IsNull(r) {
				return j.nullTarget(first + r + 1)
			}
			d.labels = append(d.labels, texts(r))
		}
	}
	if j.cols.Split == "" {
		return nil
	}
	col := b.Column(1)
	texts := textValues(col)
	for r := range n {
		p, ok := splitPart(texts(r))
		if col.IsNull(r) || !ok {
			return sqlstate.New(sqlstate.InvalidParameterValue, "%s: split column %s is %s in row %d; each row must be 'train', 'validation' or 'test'",
				j.spec.fn, j.cols.Split, quoteOrNull(col, r, texts(r)), first+r+1)
		}
		d.parts = append(d.parts, p)
	}
	return nil
}

func quoteOrNull(arr arrow.Array, r int, v string) string {
	if arr.IsNull(r) {
		return "NULL"
	}
	return quote(v)
}

func (j *clsJob) nullTarget(row int) error {
	what := "a NULL"
	if j.spec.regression {
		what = "NULL or not finite"
	}
	return sqlstate.New(sqlstate.NullValueNotAllowed, "%s: %s column %s is %s in row %d", j.spec.fn, j.spec.target, j.cols.Target, what, row).
		WithHint("Leave unlabelled rows out of the source: ... WHERE %s IS NOT NULL.", ident(j.cols.Target))
}

// checkCategories applies max_categories to the text features: a column
// with more categories is refused when features := named it, and left
// out, with a notice, when it was a default feature.
func (j *clsJob) checkCategories(d *clsData) error {
	limit := j.spec.maxCategories
	var dropped []string
	for _, c := range d.table.Categorical {
		levels := map[string]bool{}
		for _, v := range c.Values {
			if levels[v] = true; len(levels) > limit {
				break
			}
		}
		if len(levels) <= limit {
			continue
		}
		if !j.cols.Defaulted {
			return sqlstate.New(sqlstate.ProgramLimitExceeded, "%s: feature %s has more than max_categories := %d categories",
				j.spec.fn, c.Name, limit).WithHint("Leave it out of features, or raise max_categories (each category is one input of the model).")
		}
		dropped = append(dropped, c.Name)
	}
	if dropped == nil {
		return nil
	}
	d.table.Categorical = slices.DeleteFunc(d.table.Categorical, func(c classifier.CategoricalColumn) bool { return slices.Contains(dropped, c.Name) })
	j.cols.Features = slices.DeleteFunc(j.cols.Features, func(f clsFeature) bool { return slices.Contains(dropped, f.Name) })
	j.c.caller.Notice(fmt.Sprintf("%s: text column(s) %s left out of the features: more than max_categories := %d categories",
		j.spec.fn, strings.Join(dropped, ", "), limit))
	if len(j.cols.Features) == 0 {
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: no feature is left once text columns %s are left out", j.spec.fn, strings.Join(dropped, ", ")).
			WithHint("Raise max_categories, or add numeric features.")
	}
	return nil
}

// clsFingerprint identifies the data a model is trained on: the columns,
// every target and every feature value.
func clsFingerprint(d clsData, cols clsColumns) string {
	h := sha256.New()
	for _, f := range cols.Features {
		fmt.Fprintf(h, "%s %s\n", f.Name, f.Kind)
	}
	var b [8]byte
	put := func(v float64) { binary.LittleEndian.PutUint64(b[:], math.Float64bits(v)); h.Write(b[:]) }
	for _, l := range d.labels {
		fmt.Fprintf(h, "%q\n", l)
	}
	for _, v := range d.values {
		put(v)
	}
	fmt.Fprintf(h, "%q\n", d.parts)
	for _, c := range d.table.Numeric {
		for _, v := range c.Values {
			put(v)
		}
	}
	for _, c := range d.table.Categorical {
		fmt.Fprintf(h, "%q\n", c.Values)
	}
	if im := d.table.Image; im != nil {
		for _, px := range im.Pixels {
			for _, v := range px {
				put(v)
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// ctxErr reports whether err is a context's cancellation or deadline.
func ctxErr(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}
