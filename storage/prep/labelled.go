//go:build duckdb_arrow

package prep

import (
	"context"
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage"
)

// Labelled reads a classifier's or regressor's rows from its source: the
// target, the split column and the features. It is what the classifier's
// job reads its rows through (see clsrun.Rows).
type Labelled struct {
	Src    *Source
	Reader Reader
	// Regression reads the target as a number, else as a label (text).
	Regression bool
	// TargetArg names the argument that names the target (label or
	// target), for messages.
	TargetArg string
}

// Count is the number of rows of the source.
func (l *Labelled) Count(ctx context.Context) (int64, error) {
	return l.Src.ReadInt(ctx, l.Reader, "SELECT count(*) FROM "+l.Src.From)
}

// Read runs the source's query and adds its rows to d: targets and split
// values in memory, the features of cols to d.Rows. The query has no
// ORDER BY: rows come in the table's order (DuckDB keeps insertion
// order), which the seeded split and batch order then follow.
func (l *Labelled) Read(ctx context.Context, cols classifier.Columns, d *classifier.Labelled) error {
	targetType := "VARCHAR"
	if l.Regression {
		targetType = "DOUBLE"
	}
	exprs := []string{"CAST(" + Ident(cols.Target) + " AS " + targetType + ")"}
	if cols.Split != "" {
		exprs = append(exprs, "CAST("+Ident(cols.Split)+" AS VARCHAR)")
	}
	app := &Features{Fn: l.Src.Fn, Cols: cols, First: len(exprs)}
	rd, err := l.Reader.Read(ctx, "SELECT "+strings.Join(append(exprs, FeatureList(cols)...), ", ")+" FROM "+l.Src.From)
	if err != nil {
		return l.Src.Wrap(err)
	}
	defer rd.Close()
	for rd.Next() {
		b := rd.Batch()
		if err := l.appendTargets(cols, d, b, app.rows); err != nil {
			return err
		}
		if err := app.Spill(d.Rows, b); err != nil {
			return err
		}
	}
	return l.Src.Wrap(rd.Err())
}

// appendTargets adds the target (and split) columns of batch b, whose
// first row is row first of the source, to d: NULL is an error naming the
// row, as is a split value other than train, validation or test.
func (l *Labelled) appendTargets(cols classifier.Columns, d *classifier.Labelled, b arrow.RecordBatch, first int) error {
	n := int(b.NumRows())
	if l.Regression {
		vals, valid := Floats(b.Column(0))
		for r := range n {
			if !valid(r) || math.IsNaN(vals[r]) || math.IsInf(vals[r], 0) {
				return l.nullTarget(cols, first+r+1)
			}
			d.Values = append(d.Values, vals[r])
		}
	} else {
		labels := b.Column(0)
		texts := TextValues(labels)
		for r := range n {
			if labels.IsNull(r) {
				return l.nullTarget(cols, first+r+1)
			}
			d.Labels = append(d.Labels, texts(r))
		}
	}
	if cols.Split == "" {
		return nil
	}
	col := b.Column(1)
	texts := TextValues(col)
	for r := range n {
		p, ok := classifier.ParsePart(texts(r))
		if col.IsNull(r) || !ok {
			return sqlstate.New(sqlstate.InvalidParameterValue, "%s: split column %s is %s in row %d; each row must be 'train', 'validation' or 'test'",
				l.Src.Fn, cols.Split, quoteOrNull(col, r, texts(r)), first+r+1)
		}
		d.Parts = append(d.Parts, p)
	}
	return nil
}

func quoteOrNull(arr arrow.Array, r int, v string) string {
	if arr.IsNull(r) {
		return "NULL"
	}
	return Quote(v)
}

func (l *Labelled) nullTarget(cols classifier.Columns, row int) error {
	what := "a NULL"
	if l.Regression {
		what = "NULL or not finite"
	}
	return sqlstate.New(sqlstate.NullValueNotAllowed, "%s: %s column %s is %s in row %d", l.Src.Fn, l.TargetArg, cols.Target, what, row).
		WithHint("Leave unlabelled rows out of the source: ... WHERE %s IS NOT NULL.", Ident(cols.Target))
}

// Predicting reads a source's rows for a model's predictions: the
// columns pass names (expressions passed through to the output), then the
// model's features.
type Predicting struct {
	src *Source
	rd  *storage.Reader
	app *Features
	b   arrow.RecordBatch
}

// ReadPredicting runs the query of the rows to predict.
func ReadPredicting(ctx context.Context, r Reader, src *Source, pass []string, cols classifier.Columns) (*Predicting, error) {
	rd, err := r.Read(ctx, "SELECT "+strings.Join(append(pass, FeatureList(cols)...), ", ")+" FROM "+src.From)
	if err != nil {
		return nil, src.Wrap(err)
	}
	return &Predicting{src: src, rd: rd, app: &Features{Fn: src.Fn, Cols: cols, First: len(pass)}}, nil
}

// Next reads the next batch: false at the end or on an error (Err).
func (p *Predicting) Next() bool {
	if !p.rd.Next() {
		return false
	}
	p.b = p.rd.Batch()
	return true
}

// Batch is the batch Next read: the passed columns first.
func (p *Predicting) Batch() arrow.RecordBatch { return p.b }

// Features is the batch's features as the model takes them.
func (p *Predicting) Features() (*classifier.Table, error) {
	t := classifier.NewTable(p.app.Cols.Features, p.app.Cols.Shape)
	return t, p.app.Append(t, p.b)
}

// Err is the error that ended reading, if any.
func (p *Predicting) Err() error { return p.src.Wrap(p.rd.Err()) }

// Close ends reading.
func (p *Predicting) Close() error { return p.rd.Close() }
