//go:build duckdb_arrow

package prep

import (
	"math"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/sqlstate"
)

// Features reads the feature columns of Arrow batches, read with
// FeatureList from the batch's column First on, into a classifier's rows.
type Features struct {
	Fn    string
	Cols  classifier.Columns
	First int
	// rows counts the rows appended, for messages that name a row.
	rows int
	// rec is Spill's buffer: a piece's records.
	rec []float64
}

// FeatureList reads the features of cols, in order, as the model takes
// them: numbers as DOUBLE, text as VARCHAR, arrays as DOUBLE[], BLOBs as
// they are.
func FeatureList(cols classifier.Columns) []string {
	out := make([]string, len(cols.Features))
	for i, f := range cols.Features {
		id := Ident(f.Name)
		switch {
		case f.Kind == classifier.FeatureNumeric:
			out[i] = "CAST(" + id + " AS DOUBLE)"
		case f.Kind == classifier.FeatureCategorical:
			out[i] = "CAST(" + id + " AS VARCHAR)"
		case f.Blob:
			out[i] = id
		default:
			out[i] = "CAST(" + id + " AS DOUBLE[])"
		}
	}
	return out
}

// Append adds batch b's rows to t, an in-memory table of the features
// (predict's batch): a NULL number is missing (NaN), a NULL text is the
// category "", and a NULL image, or one whose length is not the product
// of the shape, is an error naming the row.
func (a *Features) Append(t *classifier.Table, b arrow.RecordBatch) error {
	n := int(b.NumRows())
	num, cat := 0, 0
	for k, f := range a.Cols.Features {
		arr := b.Column(a.First + k)
		switch f.Kind {
		case classifier.FeatureNumeric:
			vals, valid := Floats(arr)
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
			texts := TextValues(arr)
			dst := &t.Categorical[cat].Values
			for r := range n {
				*dst = append(*dst, texts(r))
			}
			cat++
		case classifier.FeatureImage:
			err := a.images(f, arr, n, func(_ int, px []float64) { t.Image.Pixels = append(t.Image.Pixels, slices.Clone(px)) })
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
// the shape, is an error naming the row.
func (a *Features) images(f classifier.Feature, arr arrow.Array, n int, put func(r int, px []float64)) error {
	shape := a.Cols.Shape
	size := shape[0] * shape[1] * shape[2]
	var px []float64
	for r := range n {
		if arr.IsNull(r) {
			return sqlstate.New(sqlstate.NullValueNotAllowed, "%s: image column %s is NULL in row %d", a.Fn, f.Name, a.rows+r+1).
				WithHint("Leave those rows out of the source: ... WHERE %s IS NOT NULL.", Ident(f.Name))
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
				a.Fn, f.Name, len(px), a.rows+r+1, classifier.ShapeText(shape), size).
				WithHint("Give the shape of the stored images: channels x height x width values each.")
		}
		put(r, px)
	}
	return nil
}

// Spill writes the features of batch b to rows, one record per row (see
// classifier.Spill), classifier.SpillPiece rows at a time: a NULL number
// is NaN, a NULL text the category "", and a NULL image, or one whose
// length is not the product of the shape, an error naming the row.
func (a *Features) Spill(rows *classifier.Spill, b arrow.RecordBatch) error {
	n := int(b.NumRows())
	for lo := 0; lo < n; lo += classifier.SpillPiece {
		if err := a.spillPiece(rows, b.NewSlice(int64(lo), int64(min(lo+classifier.SpillPiece, n)))); err != nil {
			return err
		}
	}
	return nil
}

// spillPiece is Spill of a slice of a batch; the records are encoded in
// a.rec.
func (a *Features) spillPiece(s *classifier.Spill, b arrow.RecordBatch) error {
	defer b.Release()
	n, width := int(b.NumRows()), s.Width()
	a.rec = slices.Grow(a.rec[:0], n*width)[:n*width]
	rec, off := a.rec, 0
	for k, f := range s.Layout() {
		arr := b.Column(a.First + k)
		switch f.Kind {
		case classifier.FeatureNumeric:
			vals, valid := Floats(arr)
			for r := range n {
				v := vals[r]
				if !valid(r) {
					v = math.NaN()
				}
				rec[r*width+off] = v
			}
		case classifier.FeatureCategorical:
			texts := TextValues(arr)
			for r := range n {
				rec[r*width+off] = s.Category(k, texts(r))
			}
		case classifier.FeatureImage:
			if err := a.images(f, arr, n, func(r int, px []float64) { copy(rec[r*width+off:], px) }); err != nil {
				return err
			}
		}
		off += s.FeatureWidth(f)
	}
	a.rows += n
	return s.Write(rec, n)
}

// TextValues returns the values of a text column: "" for NULL, copied out
// of the batch, whose memory is reused.
func TextValues(arr arrow.Array) func(int) string {
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
