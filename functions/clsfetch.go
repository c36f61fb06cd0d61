//go:build duckdb_arrow

package functions

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/sqlstate"
)

// read reads the source's rows as Arrow batches into a clsData: the
// targets and split values in memory, the features spilled to a
// temporary file (see classifier.Spill) that mem closes when it is given back.
// What it reserves in the server's budget is a batch's read and the
// in-memory columns, not the features (see reserve). The query has no
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
	rows, err := classifier.NewSpill(j.spec.fn, j.c.db.SpoolDir(), j.cols.Features, j.cols.Shape, j.spec.maxCategories)
	if err != nil {
		return clsData{}, sqlstate.New(sqlstate.IOError, "%s: %v", j.spec.fn, err).
			WithHint("The server writes the rows' features to a file in its temporary directory ($TMPDIR, or the sandbox's spool directory).")
	}
	mem.Hold(rows)
	d := clsData{rows: rows}
	if err := j.readRows(ctx, &d); err != nil {
		return clsData{}, err
	}
	if err := rows.Flush(); err != nil {
		return clsData{}, err
	}
	return d, j.checkCategories(&d)
}

// readRows runs the source's query and adds its batches to d.
func (j *clsJob) readRows(ctx context.Context, d *clsData) error {
	targetType := "VARCHAR"
	if j.spec.regression {
		targetType = "DOUBLE"
	}
	exprs := []string{fmt.Sprintf("CAST(%s AS %s)", ident(j.cols.Target), targetType)}
	if j.cols.Split != "" {
		exprs = append(exprs, fmt.Sprintf("CAST(%s AS VARCHAR)", ident(j.cols.Split)))
	}
	app := &featureAppender{fn: j.spec.fn, cols: j.cols, first: len(exprs)}
	rd, err := j.c.read(ctx, "SELECT "+strings.Join(append(exprs, selectList(j.cols)...), ", ")+" FROM "+j.src.from)
	if err != nil {
		return j.src.wrap(err)
	}
	defer rd.Close()
	for rd.Next() {
		b := rd.Batch()
		if err := j.appendTargets(d, b, app.rows); err != nil {
			return err
		}
		if err := spillBatch(d.rows, app, b); err != nil {
			return err
		}
	}
	return j.src.wrap(rd.Err())
}

// reserver takes n bytes of the server's memory budget for what, until
// its holder gives them back (a training run's training.Memory, or
// feature_importance's heldBudget), and closes what Hold is given then.
type reserver interface {
	Reserve(ctx context.Context, n int64, what string) error
	Hold(c io.Closer)
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

// reserve takes what reading n rows holds in the server's budget: the
// targets and split values kept in memory (spillRowBytes a row), and the
// buffers the features of spillPiece rows are encoded in (doubles, then
// bytes). The features themselves go to the spill file; what training
// holds besides is reserved by reserveTraining.
func (j *clsJob) reserve(ctx context.Context, mem reserver, n int64) error {
	width := j.width()
	return mem.Reserve(ctx, spillRowBytes*n+2*8*spillPiece*width,
		fmt.Sprintf("%s's targets (%d rows) and %d rows' features (%d values each)", j.spec.fn, n, spillPiece, width))
}

// width is the number of values a row's features take.
func (j *clsJob) width() int64 {
	width := int64(len(j.cols.Features))
	if s := j.cols.Shape; s != nil {
		width = int64(s[0] * s[1] * s[2])
	}
	return width
}

// spillRowBytes is what a row keeps in memory when its features are
// spilled: its target (a label's string header, or a double), its split
// value's and its index in the split.
const spillRowBytes = 48

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
		p, ok := classifier.ParsePart(texts(r))
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
	dropped := d.rows.Over()
	if dropped != nil && !j.cols.Defaulted {
		return sqlstate.New(sqlstate.ProgramLimitExceeded, "%s: feature %s has more than max_categories := %d categories",
			j.spec.fn, dropped[0], limit).WithHint("Leave it out of features, or raise max_categories (each category is one input of the model).")
	}
	if dropped == nil {
		return nil
	}
	d.rows.Drop(dropped)
	j.cols.Features = slices.DeleteFunc(j.cols.Features, func(f classifier.Feature) bool { return slices.Contains(dropped, f.Name) })
	j.c.caller.Notice(fmt.Sprintf("%s: text column(s) %s left out of the features: more than max_categories := %d categories",
		j.spec.fn, strings.Join(dropped, ", "), limit))
	if len(j.cols.Features) == 0 {
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: no feature is left once text columns %s are left out", j.spec.fn, strings.Join(dropped, ", ")).
			WithHint("Raise max_categories, or add numeric features.")
	}
	return nil
}

// fingerprint identifies the rows of d, read with cols (see
// classifier.Fingerprint).
func (d clsData) fingerprint(ctx context.Context, cols classifier.Columns) (string, error) {
	return classifier.Fingerprint(ctx, cols.Features, d.labels, d.values, d.parts, d.rows)
}

// reserveTraining takes what training holds besides the spilled rows in
// the server's budget: the model and a batch (classifier.TrainingBytes),
// twice for rows unless the model is linear, as a linear model is fitted
// beside it.
func (j *clsJob) reserveTraining(ctx context.Context, mem reserver, d clsData) error {
	h, w, c, image := 1, 1, 0, j.cols.Shape != nil
	if image {
		c, h, w = j.cols.Shape[0], j.cols.Shape[1], j.cols.Shape[2]
	} else {
		c = d.rows.Inputs()
	}
	outputs := 1
	if !j.spec.regression {
		outputs = len(distinct(d.labels))
	}
	n, err := classifier.TrainingBytes(j.spec.opts, image, h, w, c, outputs)
	if err != nil {
		return j.fitError(err)
	}
	if !image && j.spec.opts.Model != classifier.ModelLinear {
		n *= 2 // the linear model fitted beside it, after it
	}
	return mem.Reserve(ctx, n, fmt.Sprintf("%s's model and a batch", j.spec.fn))
}

// distinct is the set of v's values.
func distinct(v []string) map[string]bool {
	out := map[string]bool{}
	for _, s := range v {
		out[s] = true
	}
	return out
}
