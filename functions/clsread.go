//go:build duckdb_arrow

package functions

import (
	"math"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/sqlstate"
)

// featureAppender reads the feature columns of Arrow batches, read with
// selectList from the batch's column first on.
type featureAppender struct {
	fn    string
	cols  classifier.Columns
	first int
	// rows counts the rows appended, for messages that name a row.
	rows int
	// rec is spillBatch's buffer: a piece's records.
	rec []float64
}

// append adds batch b's rows to t, an in-memory table of the features
// (predict's batch): a NULL number is missing (NaN), a NULL text is the
// category "", and a NULL image, or one whose length is not the product
// of the shape, is an error naming the row.
func (a *featureAppender) append(t *classifier.Table, b arrow.RecordBatch) error {
	n := int(b.NumRows())
	num, cat := 0, 0
	for k, f := range a.cols.Features {
		arr := b.Column(a.first + k)
		switch f.Kind {
		case classifier.FeatureNumeric:
			vals, valid := floats(arr)
			dst := &t.Numeric[num].Values
			for r := range n {
				v := vals[r]
				if !valid(r) {
					v = math.NaN()
				}
				*dst = append(*dst, v)
			}
			num++
		case classifier.FeatureCategorical:
			texts := textValues(arr)
			dst := &t.Categorical[cat].Values
			for r := range n {
				*dst = append(*dst, texts(r))
			}
			cat++
		case classifier.FeatureImage:
			err := a.images(f, arr, n, a.cols.Shape, func(_ int, px []float64) { t.Image.Pixels = append(t.Image.Pixels, slices.Clone(px)) })
			if err != nil {
				return err
			}
		}
	}
	a.rows += n
	return nil
}

// images hands put each of the n images of arr, a list of doubles or a
// BLOB, by row: a NULL image, or one whose length is not the product of
// shape, is an error naming the row.
func (a *featureAppender) images(f classifier.Feature, arr arrow.Array, n int, shape []int, put func(r int, px []float64)) error {
	size := shape[0] * shape[1] * shape[2]
	var px []float64
	for r := range n {
		if arr.IsNull(r) {
			return sqlstate.New(sqlstate.NullValueNotAllowed, "%s: image column %s is NULL in row %d", a.fn, f.Name, a.rows+r+1).
				WithHint("Leave those rows out of the source: ... WHERE %s IS NOT NULL.", ident(f.Name))
		}
		px = px[:0]
		if f.Blob {
			for _, v := range arr.(interface{ Value(int) []byte }).Value(r) {
				px = append(px, float64(v))
			}
		} else {
			list := arr.(*array.List)
			lo, hi := list.ValueOffsets(r)
			px = append(px, list.ListValues().(*array.Float64).Float64Values()[lo:hi]...)
		}
		if len(px) != size {
			return sqlstate.New(sqlstate.InvalidParameterValue, "%s: image column %s has %d values in row %d, but shape := %s needs %d",
				a.fn, f.Name, len(px), a.rows+r+1, intsText(shape), size).
				WithHint("Give the shape of the stored images: channels x height x width values each.")
		}
		put(r, px)
	}
	return nil
}

// textValues returns the values of a text column: "" for NULL, copied out
// of the batch, whose memory is reused.
func textValues(arr arrow.Array) func(int) string {
	texts := arr.(interface {
		arrow.Array
		Value(int) string
	})
	return func(i int) string {
		if texts.IsNull(i) {
			return ""
		}
		return strings.Clone(texts.Value(i))
	}
}

// pick is the elements idx of v; nil for a nil v.
func pick[T any](v []T, idx []int) []T {
	if v == nil {
		return nil
	}
	out := make([]T, len(idx))
	for i, r := range idx {
		out[i] = v[r]
	}
	return out
}
