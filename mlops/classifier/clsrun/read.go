package clsrun

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/sqlstate"
)

// Read reads the source's rows through j.Rows: the targets and split
// values in memory, the features spilled to a temporary file (see
// classifier.Spill) that mem closes when it is given back. What it
// reserves in the server's budget is a batch's read and the in-memory
// columns, not the features (see reserve).
func (j *Job) Read(ctx context.Context, mem *training.Memory) (*classifier.Labelled, error) {
	n, err := j.Rows.Count(ctx)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, sqlstate.New(sqlstate.DataException, "%s: source %s has no rows", j.Fn, quote(j.Source))
	}
	if err := j.reserve(ctx, mem, n); err != nil {
		return nil, err
	}
	rows, err := classifier.NewSpill(j.Fn, j.SpoolDir, j.Cols.Features, j.Cols.Shape, j.MaxCategories)
	if err != nil {
		return nil, sqlstate.New(sqlstate.IOError, "%s: %v", j.Fn, err).
			WithHint("The server writes the rows' features to a file in its temporary directory ($TMPDIR, or the sandbox's spool directory).")
	}
	mem.Hold(rows)
	d := &classifier.Labelled{Rows: rows}
	if err := j.Rows.Read(ctx, j.Cols, d); err != nil {
		return nil, err
	}
	if err := rows.Flush(); err != nil {
		return nil, err
	}
	return d, j.checkCategories(d)
}

// reserve takes what reading n rows holds in the server's budget: the
// targets and split values kept in memory (classifier.SpillRowBytes a
// row), and the buffers the features of classifier.SpillPiece rows are
// encoded in (doubles, then bytes). The features themselves go to the
// spill file; what training holds besides is reserved by reserveTraining.
func (j *Job) reserve(ctx context.Context, mem *training.Memory, n int64) error {
	width := j.Width()
	return mem.Reserve(ctx, classifier.SpillRowBytes*n+2*8*classifier.SpillPiece*width,
		fmt.Sprintf("%s's targets (%d rows) and %d rows' features (%d values each)", j.Fn, n, classifier.SpillPiece, width))
}

// Width is the number of values a row's features take.
func (j *Job) Width() int64 {
	width := int64(len(j.Cols.Features))
	if s := j.Cols.Shape; s != nil {
		width = int64(s[0] * s[1] * s[2])
	}
	return width
}

// checkCategories applies max_categories to the text features: a column
// with more categories is refused when features := named it, and left
// out, with a notice, when it was a default feature.
func (j *Job) checkCategories(d *classifier.Labelled) error {
	limit := j.MaxCategories
	dropped := d.Rows.Over()
	if dropped != nil && !j.Cols.Defaulted {
		return sqlstate.New(sqlstate.ProgramLimitExceeded, "%s: feature %s has more than max_categories := %d categories",
			j.Fn, dropped[0], limit).WithHint("Leave it out of features, or raise max_categories (each category is one input of the model).")
	}
	if dropped == nil {
		return nil
	}
	d.Rows.Drop(dropped)
	j.Cols.Features = slices.DeleteFunc(j.Cols.Features, func(f classifier.Feature) bool { return slices.Contains(dropped, f.Name) })
	j.Notice(fmt.Sprintf("%s: text column(s) %s left out of the features: more than max_categories := %d categories",
		j.Fn, strings.Join(dropped, ", "), limit))
	if len(j.Cols.Features) == 0 {
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: no feature is left once text columns %s are left out", j.Fn, strings.Join(dropped, ", ")).
			WithHint("Raise max_categories, or add numeric features.")
	}
	return nil
}

// reserveTraining takes what training holds besides the spilled rows in
// the server's budget: the model and a batch (classifier.TrainingBytes),
// twice for rows unless the model is linear, as a linear model is fitted
// beside it.
func (j *Job) reserveTraining(ctx context.Context, mem *training.Memory, d *classifier.Labelled) error {
	h, w, c, image := 1, 1, 0, j.Cols.Shape != nil
	if image {
		c, h, w = j.Cols.Shape[0], j.Cols.Shape[1], j.Cols.Shape[2]
	} else {
		c = d.Rows.Inputs()
	}
	outputs := 1
	if !j.Regression {
		classes := map[string]bool{}
		for _, s := range d.Labels {
			classes[s] = true
		}
		outputs = len(classes)
	}
	n, err := classifier.TrainingBytes(j.Options, image, h, w, c, outputs)
	if err != nil {
		return j.FitError(err)
	}
	if !image && j.Options.Model != classifier.ModelLinear {
		n *= 2 // the linear model fitted beside it, after it
	}
	return mem.Reserve(ctx, n, fmt.Sprintf("%s's model and a batch", j.Fn))
}
